/**
 * The closed form (src/fast/closedForm.ts) finds, by binary search over running totals, the first call
 * where a brake may fire or a price tier starts. An off-by-one there shows only when a total lands
 * exactly on a limit, which random limits almost never do. So every limit here is taken from the run
 * itself: the readable path is run once without brakes, and each limit (budget, predictive budget,
 * max tokens, context window, timeout, price-tier threshold) is set to a running total or a prompt
 * size of a chosen call (any call, the first call of a stretch of plain calls, or the largest prompt),
 * or one off either side.
 *
 * Two properties:
 * - fast == readable with limits on those boundaries (catches a closed form that goes too far);
 * - the closed form stops exactly at the first call where a brake may fire, not before, with the
 *   readable path's totals there (catches one that stops early, which the first property cannot see:
 *   the per-step loop then finishes the job with the same figures, only slower).
 * docs/fast-path.md lists the off-by-ones planted to check that these tests catch them.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_MAX_OUTPUT_TOKENS, NO_BRAKES, type BrakeConfig } from '../../src/brakes/config.js';
import type { StopReason } from '../../src/brakes/stopReasons.js';
import type { CacheMode, ContextStrategy } from '../../src/context/strategy.js';
import type { PromptView } from '../../src/kernel/context.js';
import { advanceClosedForm, stepSums } from '../../src/fast/closedForm.js';
import { ContextTracker } from '../../src/kernel/context.js';
import { brakeLimits, promptAllowedTokens } from '../../src/kernel/limits.js';
import { predictiveBoundPico, promptEstimate } from '../../src/kernel/cost.js';
import { cacheWritesOf } from '../../src/kernel/cacheWrites.js';
import { resetRun, Run } from '../../src/fast/runState.js';
import { runSettings } from '../../src/fast/settings.js';
import { compileTrace } from '../../src/fast/compile.js';
import { flattenPrices, replayFast, toolStopCall } from '../../src/fast/replayFast.js';
import type { LatencyModel } from '../../src/loop/latency.js';
import { ReplaySource } from '../../src/loop/replaySource.js';
import { runLoop } from '../../src/loop/run.js';
import type { LoopOptions, RunOutcome, StepRow } from '../../src/loop/types.js';
import type { ModelPricing, TokenPrices } from '../../src/pricing/types.js';
import type { CallRecord, ToolCallRecord, Trace } from '../../src/trace/types.js';
import { figuresOf, trace } from '../helpers.js';

// ── Traces ──

type Unusual = 'backtrack' | 'failed' | 'compaction' | 'unparseable';
type LatencyKind = 'whole' | 'fractional' | 'missing';

interface Shape {
  n: number;
  seed: number;
  /** Calls from this fraction of the trace on all have the largest step: window prompts reach their bound. */
  tailFrom: number;
  /** Every k-th call is a backtrack, failure, compaction or unparseable (0: none). */
  unusualEvery: number;
  /** Every k-th call has a recorded prompt size (0: none). */
  recordedEvery: number;
  /** The call after each recorded one is a backtrack (reads back the prefix sums the closed form wrote). */
  backtrackAfterRecorded: boolean;
  /** Every k-th call (outside the tail) adds no tokens: equal prompts in a row. */
  zeroEvery: number;
  toolsPerCall: number;
  latency: LatencyKind;
  system: number;
  goal: number;
}

const TAIL_OUTPUT = 260;
const TAIL_RESULT = 420;
const UNUSUAL: Unusual[] = ['backtrack', 'failed', 'compaction', 'unparseable'];

/** A small deterministic generator, so that one arbitrary value describes a whole trace. */
function lcg(seed: number): (m: number) => number {
  let x = seed;
  return (m) => {
    x = (x * 1103515245 + 12345) % 2 ** 31;
    return x % m;
  };
}

function everyKth(k: number, i: number): boolean {
  return k > 0 && i % k === k - 1;
}

function latencyOf(kind: LatencyKind, next: (m: number) => number, whole: number, divisor: number): number | undefined {
  if (kind === 'whole') return whole;
  if (kind === 'fractional') return whole / divisor;
  return next(2) === 0 ? undefined : whole;
}

function toolCalls(shape: Shape, next: (m: number) => number, result: () => number): ToolCallRecord[] {
  return Array.from({ length: shape.toolsPerCall }, () => {
    const latencyMs = latencyOf(shape.latency, next, next(300), 3);
    return { name: next(2) ? 'read' : 'run', arguments: { f: next(1000) }, resultTokens: result(), ...(latencyMs === undefined ? {} : { latencyMs }) };
  });
}

function markUnusual(call: CallRecord, kind: Unusual): void {
  if (kind === 'backtrack') call.backtrack = true;
  else if (kind === 'failed') call.failed = { status: 429, message: 'rate limited' };
  else if (kind === 'compaction') call.compaction = true;
  else {
    call.unparseable = true;
    delete call.toolCalls;
  }
}

function buildTrace(shape: Shape): Trace {
  const next = lcg(shape.seed);
  const tailStart = Math.floor(shape.tailFrom * shape.n);
  const calls: CallRecord[] = [];
  for (let i = 0; i < shape.n; i++) {
    const inTail = i >= tailStart;
    const zero = !inTail && everyKth(shape.zeroEvery, i);
    const outputTokens = zero ? 0 : inTail ? TAIL_OUTPUT : 10 + next(200);
    const result = () => (zero ? 0 : inTail ? TAIL_RESULT : next(400));
    const latencyMs = latencyOf(shape.latency, next, 50 + next(900), 7);
    const call: CallRecord = { type: 'call', outputTokens, reasoningTokens: next(3) === 0 ? Math.min(outputTokens, next(120)) : 0, toolCalls: toolCalls(shape, next, result) };
    if (latencyMs !== undefined) call.latencyMs = latencyMs;
    if (everyKth(shape.recordedEvery, i)) call.inputTokens = shape.system + shape.goal + 300 * i + next(500);
    if (everyKth(shape.unusualEvery, i)) markUnusual(call, UNUSUAL[next(UNUSUAL.length)]!);
    else if (shape.backtrackAfterRecorded && i > 0 && calls[i - 1]!.inputTokens !== undefined) call.backtrack = true;
    calls.push(call);
  }
  return trace(calls, { system: shape.system, goal: shape.goal, outcome: 'error' });
}

const shapeArb: fc.Arbitrary<Shape> = fc.record({
  n: fc.integer({ min: 24, max: 100 }),
  seed: fc.integer({ min: 1, max: 2 ** 30 }),
  tailFrom: fc.constantFrom(0.1, 0.3, 0.6, 1),
  unusualEvery: fc.constantFrom(0, 7, 17, 23, 31, 31),
  recordedEvery: fc.constantFrom(0, 0, 0, 13, 29),
  backtrackAfterRecorded: fc.boolean(),
  zeroEvery: fc.constantFrom(0, 0, 3, 5),
  toolsPerCall: fc.integer({ min: 1, max: 3 }),
  latency: fc.constantFrom<LatencyKind>('whole', 'fractional', 'missing'),
  system: fc.integer({ min: 0, max: 2500 }),
  goal: fc.integer({ min: 0, max: 300 }),
});

/** A plain call: a step whose tool calls all run, not final (the fast loop's; it leaves the others to the general step). */
function isPlain(call: CallRecord): boolean {
  return !call.backtrack && !call.failed && !call.compaction && !call.final && ((call.toolCalls?.length ?? 0) > 0 || call.unparseable === true);
}

/** Calls where the fast loop starts a stretch of plain calls: the first, and each one after a call it leaves to the general step. */
function stretchStarts(t: Trace): number[] {
  return t.calls.flatMap((call, i) => (isPlain(call) && (i === 0 || !isPlain(t.calls[i - 1]!)) ? [i] : []));
}

// ── Settings ──

interface Settings {
  strategy: ContextStrategy;
  cache: CacheMode;
  latency: LatencyModel | undefined;
  prices: BasePrices;
}

interface BasePrices {
  input: number;
  output: number;
  cached?: number;
  cacheWrite?: number;
  reasoning?: number;
}

/** One latency model with whole numbers (time may be summed in any order), one without. */
const LATENCY_MODELS: LatencyModel[] = [
  { perCallMs: 300, perInputTokenMs: 1, perOutputTokenMs: 2, perToolCallMs: 25 },
  { perCallMs: 300, perInputTokenMs: 0.01, perOutputTokenMs: 3, perToolCallMs: 25 },
];

const pico = (min: number, max: number) => fc.integer({ min, max });

function settingsArb(windows: number[]): fc.Arbitrary<Settings> {
  return fc
    .record({
      window: fc.option(fc.constantFrom(...windows), { nil: undefined, freq: 2 }),
      cap: fc.option(fc.constantFrom(0, 60, 250), { nil: undefined, freq: 2 }),
      cache: fc.constantFrom<CacheMode>('on', 'off'),
      latency: fc.option(fc.constantFrom(...LATENCY_MODELS), { nil: undefined, freq: 2 }),
      prices: fc.record(
        { input: pico(100_000, 3_000_000), output: pico(400_000, 15_000_000), cached: pico(10_000, 300_000), cacheWrite: pico(100_000, 4_000_000), reasoning: pico(400_000, 20_000_000) },
        { requiredKeys: ['input', 'output'] },
      ),
    })
    .map(({ window, cap, cache, latency, prices }) => ({
      strategy: { kind: window === undefined ? 'full' : 'window', ...(window === undefined ? {} : { windowSteps: window }), ...(cap === undefined ? {} : { toolResultCap: cap }) } as ContextStrategy,
      cache,
      latency,
      prices,
    }));
}

function tokenPrices(p: BasePrices, scale: number): TokenPrices {
  // Each tier's prices differ from every other tier's, so a call priced in the wrong tier shows in the cost.
  const at = (price: number) => price * scale + 7 * (scale - 1);
  const prices: TokenPrices = { input: at(p.input), output: at(p.output) };
  if (p.cached !== undefined) prices.cachedInput = at(p.cached);
  if (p.cacheWrite !== undefined) prices.cacheWrite = at(p.cacheWrite);
  if (p.reasoning !== undefined) prices.reasoning = at(p.reasoning);
  return prices;
}

function pricingOf(p: BasePrices, tierThresholds: number[], contextWindow?: number): ModelPricing {
  const pricing: ModelPricing = {
    requested: 'boundary',
    model: 'boundary',
    base: tokenPrices(p, 1),
    tiers: tierThresholds.map((aboveInputTokens, k) => ({ aboveInputTokens, prices: tokenPrices(p, k + 2) })),
    source: { name: 'test', version: 'test', hash: '0' },
  };
  if (contextWindow !== undefined) pricing.contextWindow = contextWindow;
  return pricing;
}

// ── Readable runs ──

function run(t: Trace, s: Settings, pricing: ModelPricing, brakes: BrakeConfig, keepSteps = false): RunOutcome {
  const options: LoopOptions = { brakes, strategy: s.strategy, cache: s.cache, pricing, systemTokens: t.header.systemTokens, goalTokens: t.header.goalTokens, keepSteps };
  if (s.latency) options.latency = s.latency;
  return runLoop(new ReplaySource(t), options);
}

/** The readable path's totals before call c: the run of the first c calls. */
function totalsBefore(t: Trace, s: Settings, pricing: ModelPricing, c: number): RunOutcome {
  return run({ ...t, calls: t.calls.slice(0, c) }, s, pricing, NO_BRAKES);
}

/** The prompt each call of the brake-free run is sent with, under the strategy (prices do not change prompts). */
function promptViews(t: Trace, s: Settings): PromptView[] {
  const views: PromptView[] = [];
  const source = new ReplaySource(t);
  const recording = { next: (view: PromptView) => (views.push(view), source.next()), exhaustedReason: () => source.exhaustedReason() };
  const options: LoopOptions = { brakes: NO_BRAKES, strategy: s.strategy, cache: s.cache, pricing: pricingOf(s.prices, []), systemTokens: t.header.systemTokens, goalTokens: t.header.goalTokens };
  runLoop(recording, options);
  return views.slice(0, t.calls.length);
}

// ── Limits on the run's own boundaries ──

/**
 * Where a limit lands: before the call at `where` (a fraction of the calls), before the first call of
 * a stretch of plain calls, or at the largest prompt / the end of the run; then moved by delta.
 */
interface Pick {
  where: number;
  at: 'any' | 'stretchStart' | 'largest';
  delta: -1 | 0 | 1;
}

// Uniform in [0, 1): fast-check's doubles crowd near 0, which would put most limits before the first call.
const whereArb = fc.noBias(fc.integer({ min: 0, max: 999_999 })).map((k) => k / 1_000_000);

interface Picks {
  tiers: Pick[];
  cost?: Pick;
  budgetMode: 'check' | 'predict';
  tokens?: Pick;
  window?: Pick;
  windowFromModel: boolean;
  time?: Pick;
  steps?: Pick;
  /** The predictive bound's output tokens. */
  maxOutputTokens: number;
}

/** Limits at `ats` (repeat one to weight it). */
function picksArb(ats: Pick['at'][]): fc.Arbitrary<Picks> {
  const pick: fc.Arbitrary<Pick> = fc.record({ where: whereArb, at: fc.constantFrom(...ats), delta: fc.constantFrom(-1 as const, 0 as const, 1 as const) });
  const maybe = fc.option(pick, { nil: undefined, freq: 2 });
  return fc.record({
    tiers: fc.oneof(fc.constant<Pick[]>([]), fc.array(pick, { minLength: 1, maxLength: 2 })),
    cost: maybe,
    budgetMode: fc.constantFrom('check' as const, 'predict' as const),
    tokens: maybe,
    window: maybe,
    windowFromModel: fc.boolean(),
    time: maybe,
    // The step limit only bounds a stretch; on too often it would end most runs before any other brake.
    steps: fc.oneof({ weight: 6, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: pick }),
    maxOutputTokens: fc.constantFrom(0, 50, 4096),
  });
}

/**
 * The run as the picks see it: its calls' prompts, where its stretches of plain calls start, and the
 * first call a limit may land before (`any` picks a call from there on).
 */
interface Boundaries {
  prompts: number[];
  starts: number[];
  from: number;
}

/**
 * The call a limit is placed before: `largest` is the largest prompt for a prompt limit, past the last
 * call for a running total (all zero before the first call, so a total's stretch starts are the later ones).
 */
function callOf(p: Pick, b: Boundaries, kind: 'prompt' | 'total'): number {
  if (p.at === 'largest') return kind === 'prompt' ? b.prompts.indexOf(Math.max(...b.prompts)) : b.prompts.length;
  const starts = kind === 'prompt' ? b.starts : b.starts.filter((c) => c > 0);
  if (p.at === 'stretchStart' && starts.length > 0) return starts[Math.floor(p.where * starts.length)]!;
  return b.from + Math.floor(p.where * (b.prompts.length - b.from));
}

function promptAt(p: Pick, b: Boundaries): number {
  return Math.max(0, b.prompts[callOf(p, b, 'prompt')]! + p.delta);
}

/**
 * Pricing with tiers (and a model context window) on the prompts of chosen calls: a model's window that
 * much above the prompt as the max_tokens sent counts against it (kernel/limits.ts promptAllowedTokens).
 */
function boundaryPricing(s: Settings, picks: Picks, b: Boundaries): ModelPricing {
  const thresholds = [...new Set(picks.tiers.map((p) => promptAt(p, b)))].sort((x, y) => x - y);
  const modelWindow = picks.window && picks.windowFromModel ? promptAt(picks.window, b) + picks.maxOutputTokens : undefined;
  return pricingOf(s.prices, thresholds, modelWindow);
}

/** A running total of the brake-free run before call c (its rows are the calls). */
function totalBefore(rows: StepRow[], c: number, of: (row: StepRow) => number): number {
  return c === 0 ? 0 : of(rows[Math.min(c, rows.length) - 1]!);
}

/** The prompt overhead the call before c showed (billed − view of the last call that did not fail): 0 before the first. */
function overheadBefore(rows: StepRow[], views: PromptView[], c: number): number {
  for (let k = Math.min(c, rows.length) - 1; k >= 0; k--) if (!rows[k]!.failed) return rows[k]!.inputTokens - views[k]!.inputTokens;
  return 0;
}

/** Brakes each set on a boundary of the brake-free run (± 1), at its own chosen call. */
function brakesAt(t: Trace, s: Settings, pricing: ModelPricing, rows: StepRow[], views: PromptView[], picks: Picks, b: Boundaries): BrakeConfig {
  const brakes: BrakeConfig = { ...NO_BRAKES, budgetMode: picks.budgetMode, maxOutputTokens: picks.maxOutputTokens };
  const { cost, tokens, window, time, steps } = picks;
  if (cost) {
    // Check mode refuses a call once spent ≥ budget; predict mode one whose bound would take spent above it.
    const c = callOf(cost, b, 'total');
    const spent = totalBefore(rows, c, (row) => row.cumulativeCostPico);
    const flat = flattenPrices(pricing);
    const bound = picks.budgetMode === 'predict' && c < views.length ? predictiveBoundPico(flat, promptEstimate(views[c]!.inputTokens, overheadBefore(rows, views, c)), picks.maxOutputTokens, cacheWritesOf(t)) : 0;
    brakes.maxCostPico = Math.max(0, spent + bound + cost.delta);
  }
  if (tokens) brakes.maxTokens = Math.max(0, totalBefore(rows, callOf(tokens, b, 'total'), (row) => row.cumulativeInputTokens + row.cumulativeOutputTokens) + tokens.delta);
  if (window) brakes.contextWindow = picks.windowFromModel ? 'model' : promptAt(window, b);
  if (time) brakes.timeoutMs = Math.max(0, totalsBefore(t, s, pricing, callOf(time, b, 'total')).elapsedMs + time.delta);
  if (steps) brakes.maxSteps = Math.max(0, totalBefore(rows, callOf(steps, b, 'total'), (row) => row.step) + steps.delta);
  return brakes;
}

/** A trace, settings and pricing with tiers and brakes on the run's boundaries. */
interface Case {
  t: Trace;
  s: Settings;
  views: PromptView[];
  pricing: ModelPricing;
  /** The brake-free run's calls. */
  rows: StepRow[];
  brakes: BrakeConfig;
}

/** Limits on the boundaries of the whole run, or (with `focus`) on call `focus` and those after it. */
function boundaryCase(t: Trace, s: Settings, picks: Picks, focus?: number): Case {
  const views = promptViews(t, s);
  const prompts = views.map((v) => v.inputTokens);
  const b: Boundaries = focus === undefined ? { prompts, starts: stretchStarts(t), from: 0 } : { prompts, starts: [focus], from: focus };
  const pricing = boundaryPricing(s, picks, b);
  const rows = run(t, s, pricing, NO_BRAKES, true).rows;
  return { t, s, views, pricing, rows, brakes: brakesAt(t, s, pricing, rows, views, picks, b) };
}

/** How a run stopped, by the brake (a budget by its mode) or the trace's end. */
function stopKind(slow: RunOutcome, brakes: BrakeConfig): string {
  return slow.stop.reason === 'budget' ? `budget (${brakes.budgetMode})` : slow.stop.reason;
}

describe('fast path = readable path with every limit exactly on a boundary of the run', () => {
  it('agrees with tier thresholds, budget, predictive budget, max tokens, context window and timeout at a running total ± 1', () => {
    const stops = new Set<string>();
    let pricedAboveATier = 0;
    fc.assert(
      fc.property(shapeArb, settingsArb([0, 1, 2, 3, 5, 8]), picksArb(['any', 'any', 'stretchStart', 'largest']), (shape, s, picks) => {
        const c = boundaryCase(buildTrace(shape), s, picks);
        const slow = run(c.t, s, c.pricing, c.brakes);
        const fast = replayFast(compileTrace(c.t), c.brakes, s.strategy, s.cache, flattenPrices(c.pricing), s.latency);
        expect(fast).toEqual(figuresOf(slow));
        stops.add(stopKind(slow, c.brakes));
        if (c.rows.some((row) => c.pricing.tiers.some((tier) => row.inputTokens > tier.aboveInputTokens))) pricedAboveATier += 1;
      }),
      // 400 cases (were 1,200): each brake stops 20 or more of them (the predictive budget 40), a tier prices calls of 150 or more.
      { numRuns: 400, seed: 7101 },
    );
    expect([...stops].sort()).toEqual(['budget (check)', 'budget (predict)', 'context_overflow', 'max_steps', 'timeout', 'token_limit', 'trace_end']);
    expect(pricedAboveATier).toBeGreaterThan(100);
  });
});

// ── The closed form's reach ──

const BRAKES_BEFORE_A_CALL: StopReason[] = ['timeout', 'budget', 'token_limit', 'context_overflow'];

/** Context tokens a call adds when it is a step (output + results, each result capped). */
function stepTokens(call: CallRecord, cap: number): number {
  return call.outputTokens + (call.toolCalls ?? []).reduce((total, tool) => total + Math.min(tool.resultTokens, cap), 0);
}

function sum(values: number[]): number {
  return values.reduce((total, v) => total + v, 0);
}

/** The steps in the context before call a (a backtrack drops the last), capped and not. */
function historyBefore(t: Trace, a: number, cap: number): { kept: number[]; raw: number[] } {
  const kept: number[] = [];
  const raw: number[] = [];
  for (const call of t.calls.slice(0, a)) {
    if (call.backtrack) {
      kept.pop();
      raw.pop();
    } else if (!call.failed && !call.compaction) {
      kept.push(stepTokens(call, cap));
      raw.push(stepTokens(call, Infinity));
    }
  }
  return { kept, raw };
}

function integralLatencyModel(m: LatencyModel): boolean {
  return [m.perCallMs, m.perInputTokenMs, m.perOutputTokenMs, m.perToolCallMs].every(Number.isInteger);
}

/** The context before call a, as the session builds it (the readable path's rules, call by call). */
function contextBefore(t: Trace, a: number, s: Settings): ContextTracker {
  const ctx = new ContextTracker(t.header.systemTokens, t.header.goalTokens, s.strategy, 1);
  for (const call of t.calls.slice(0, a)) {
    ctx.markSent();
    if (call.backtrack) ctx.dropLastStep();
    if (call.backtrack || call.failed || call.compaction) continue;
    ctx.addStep(call.outputTokens);
    for (const tool of call.toolCalls ?? []) ctx.addToolResult(tool.resultTokens);
    ctx.closeStep();
  }
  return ctx;
}

/**
 * Calls the closed form may start from: plain calls (under a window of w steps, after w + 1 plain
 * calls: the window holds only the stretch's steps and slid at the call before).
 */
function startCandidates(t: Trace, keep: number): number[] {
  const plainBefore = keep === Infinity ? 0 : keep + 1;
  return t.calls.flatMap((call, a) => (a >= plainBefore && isPlain(call) && t.calls.slice(a - plainBefore, a).every(isPlain) ? [a] : []));
}

/** Which call the closed form starts from in the reach test. */
type StartKind = 'any' | 'stretchStart' | 'afterEmpty';

/**
 * A start among the candidates: any; the first call of a later stretch (after a call that changed the
 * context without a step, so the cache's previous prompt is not the previous step's); or one after a
 * call that added nothing (equal prompts in a row).
 */
function startCall(t: Trace, candidates: number[], where: number, kind: StartKind): number {
  const starts = new Set(stretchStarts(t).filter((a) => a > 0));
  const preferred = candidates.filter((a) => (kind === 'stretchStart' ? starts.has(a) : kind === 'afterEmpty' ? a > 0 && stepTokens(t.calls[a - 1]!, Infinity) === 0 : true));
  const from = preferred.length > 0 ? preferred : candidates;
  return from[Math.floor(where * from.length)]!;
}

/** The end of the stretch of plain calls from a: the next call that is not plain, or the trace's end. */
function stretchEnd(t: Trace, a: number): number {
  const end = t.calls.findIndex((call, i) => i >= a && !isPlain(call));
  return end < 0 ? t.calls.length : end;
}

/**
 * Where the closed form, over plain calls a..e−1, must stop: the first call a brake may refuse or with
 * a recorded prompt size, or e. Under a window it runs only when the largest prompt possible (largest
 * step × steps kept) fits the context window and the first tier.
 */
function expectedReach(c: Case, slow: RunOutcome, a: number, e: number): number {
  const { t, s, brakes, pricing } = c;
  if (s.strategy.kind === 'window') {
    const bound = t.header.systemTokens + t.header.goalTokens + s.strategy.windowSteps! * Math.max(...t.calls.map((call) => stepTokens(call, Infinity)));
    const window = brakes.contextWindow === 'model' ? promptAllowedTokens(pricing.contextWindow ?? Infinity, brakes.maxOutputTokens ?? DEFAULT_MAX_OUTPUT_TOKENS) : brakes.contextWindow;
    if (bound > (window ?? Infinity) || bound > (pricing.tiers[0]?.aboveInputTokens ?? Infinity)) return a;
  }
  // The predictive bound is searched only under full history with no prompt overhead carried in.
  if (brakes.budgetMode === 'predict' && brakes.maxCostPico !== undefined && (s.strategy.kind === 'window' || overheadBefore(c.rows, c.views, a) !== 0)) return a;
  const fired = BRAKES_BEFORE_A_CALL.includes(slow.stop.reason) ? slow.calls : e;
  const recorded = t.calls.findIndex((call, i) => i >= a && call.inputTokens !== undefined);
  return Math.min(fired, e, recorded < 0 ? e : recorded);
}

/** The closed form run from call a over the plain calls up to e, with the state the fast loop would hand it. */
function closedFormFrom(c: Case, a: number, e: number) {
  const { t, s, pricing } = c;
  const compiled = compileTrace(t);
  const prices = flattenPrices(pricing);
  const limits = brakeLimits(c.brakes, prices.contextWindow);
  const settings = runSettings(s.strategy, s.cache, s.latency);
  const ctx = contextBefore(t, a, s);
  expect(ctx.unchangedTokens()).toBe(c.views[a]!.unchangedPrefixTokens);
  const exactTime = compiled.latencyIntegral && (s.latency === undefined || integralLatencyModel(s.latency));
  const plan = { t: compiled, settings, limits, prices, ctx, toolStop: toolStopCall(compiled, limits), exactTime, table: null };
  const before = totalsBefore(t, s, pricing, a);
  const st = new Float64Array(Run.Size);
  resetRun(st);
  st[Run.Calls] = a;
  st[Run.SpentPico] = before.costPico;
  st[Run.ElapsedMs] = before.elapsedMs;
  st[Run.TokensUsed] = before.inputTokens + before.outputTokens;
  st[Run.CachedTokens] = before.cachedInputTokens;
  st[Run.WrittenTokens] = before.cacheWriteTokens;
  st[Run.OverheadTokens] = overheadBefore(c.rows, c.views, a);
  const len = ctx.length;
  const reached = advanceClosedForm(plan, stepSums(compiled, s.strategy.toolResultCap ?? Infinity)!, a, e, st);
  return { reached, st, ctx, len };
}

describe('the closed form stops exactly at the first call where a brake may fire', () => {
  it('reaches that call, with the readable path’s totals and prefix sums, from any call of a stretch of plain calls', () => {
    /** Where the closed form stopped (at its start a, inside the stretch, at its end e), by how the run stopped. */
    const reaches = new Set<string>();
    fc.assert(
      fc.property(shapeArb, settingsArb([1, 2, 3, 5]), picksArb(['any', 'stretchStart', 'stretchStart', 'largest']), whereArb, fc.constantFrom<StartKind>('any', 'stretchStart', 'stretchStart', 'afterEmpty'), (shape, s, picks, startWhere, startKind) => {
        const t = buildTrace(shape);
        const keep = s.strategy.kind === 'window' ? s.strategy.windowSteps! : Infinity;
        const candidates = startCandidates(t, keep);
        if (candidates.length === 0) return;
        const a = startCall(t, candidates, startWhere, startKind);
        // Limits on call a (a limit at a "stretch start" lands exactly there) and the calls after it.
        const c = boundaryCase(t, s, { ...picks, steps: undefined }, a);
        const slow = run(t, s, c.pricing, c.brakes);
        if (slow.calls < a) return; // the per-step loop stops before a
        const cap = s.strategy.toolResultCap ?? Infinity;
        const history = historyBefore(t, a, cap);
        const e = stretchEnd(t, a);
        const { reached, st, ctx, len } = closedFormFrom(c, a, e);

        expect(reached).toBe(expectedReach(c, slow, a, e));
        reaches.add(`${stopKind(slow, c.brakes)} ${reached === a ? 'at a' : reached === e ? 'at e' : 'inside'}`);
        const atReached = totalsBefore(t, s, c.pricing, reached);
        const added = t.calls.slice(a, reached);
        const keptAt = (k: number) => sum(history.kept) + sum(added.slice(0, k - a).map((call) => stepTokens(call, cap)));
        const rawAt = (k: number) => sum(history.raw) + sum(added.slice(0, k - a).map((call) => stepTokens(call, Infinity)));
        expect([st[Run.Calls], st[Run.SpentPico], st[Run.TokensUsed], st[Run.CachedTokens], st[Run.WrittenTokens], st[Run.ElapsedMs]]).toEqual([
          reached,
          atReached.costPico,
          atReached.inputTokens + atReached.outputTokens,
          atReached.cachedInputTokens,
          atReached.cacheWriteTokens,
          atReached.elapsedMs,
        ]);
        // The context at the call reached: its size, its full-history size and what its cache can serve.
        expect([ctx.length, ctx.keptPrefix[ctx.length], ctx.rawPrefix[ctx.length]]).toEqual([len + reached - a, keptAt(reached), rawAt(reached)]);
        if (reached < t.calls.length) {
          const view = c.views[reached]!;
          expect([ctx.promptTokens(), ctx.fullTokens(), ctx.unchangedTokens()]).toEqual([view.inputTokens, view.fullInputTokens, view.unchangedPrefixTokens]);
        }
        // The prefix sums later calls read: under a window the last steps'; before a backtrack all of them.
        const backtrackAhead = t.calls.slice(a).some((call) => call.backtrack);
        const firstRead = reached === a ? reached + 1 : backtrackAhead ? a + 1 : Math.max(a + 1, reached - (keep === Infinity ? 0 : keep) - 1);
        for (let k = firstRead; k <= reached; k++) {
          expect(ctx.keptPrefix[len + k - a]).toBe(keptAt(k));
          expect(ctx.rawPrefix[len + k - a]).toBe(rawAt(k));
        }
      }),
      // 500 draws (were 1,000; about 400 reach a start): the closed form stops inside a stretch under every brake
      // checked before a call, 5 or more times each, and at the stretch's start and end too.
      { numRuns: 500, seed: 7102 },
    );
    for (const stop of ['budget (check)', 'budget (predict)', 'context_overflow', 'timeout', 'token_limit']) expect(reaches, stop).toContain(`${stop} inside`);
    for (const at of ['at a', 'at e']) expect([...reaches].some((reach) => reach.endsWith(at)), at).toBe(true);
  });
});
