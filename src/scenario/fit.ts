/**
 * `fit`: a scenario whose population reproduces recorded runs. Each run is replayed once as recorded
 * (full history, no brake) through the one loop, watching the prompt the growth model builds for every
 * call; from that come
 *   - steps to the end, separately for runs that completed and runs that did not (empirical quantiles),
 *     and the share of each (the population's weights);
 *   - output and tool-result token distributions (empirical quantiles of every call and result);
 *   - the prompt overhead the growth model cannot see: recorded prompt − (system + goal + history),
 *     fitted as a fixed part (tool schemas, framing) plus a part per step in the prompt (message framing);
 *   - the cached share: recorded cached tokens over the prefix a cache could have served;
 *   - repeat and error rates of tool calls, and mean call and tool latencies.
 */
import { NO_BRAKES } from '../brakes/config.js';
import { actionFingerprint } from '../brakes/fingerprint.js';
import type { PromptView } from '../context/tracker.js';
import { UserError } from '../errors.js';
import { runLoop } from '../loop/run.js';
import { ReplaySource } from '../loop/replaySource.js';
import type { ModelPricing } from '../pricing/types.js';
import { empiricalOf, quantile } from '../synthetic/distributions.js';
import type { CallRecord, Trace } from '../trace/types.js';
import { SCENARIO_SCHEMA, type ScenarioFile } from './schema.js';

type Population = ScenarioFile['population'];

/** What one recorded run contributes to the fit. */
interface RunFacts {
  completed: boolean;
  endsOnFailedCall: boolean;
  steps: number;
  goalTokens: number;
  systemTokens: number;
  /** (steps in the prompt, recorded − modelled prompt tokens) of every call with a recorded prompt. */
  overhead: [number, number][];
  cachedTokens: number;
  /** Σ of the previous call's recorded prompt, over calls that had one before them. */
  servablePrefixTokens: number;
  outputTokens: number[];
  resultTokens: number[];
  toolCalls: number;
  repeatedToolCalls: number;
  erroredToolCalls: number;
  callLatenciesMs: number[];
  toolLatenciesMs: number[];
}

/** Replays a run as recorded and notes the prompt each call was answered to. */
function factsOf(trace: Trace, pricing: ModelPricing): RunFacts {
  const views: [PromptView, CallRecord][] = [];
  const replay = new ReplaySource(trace);
  const source = {
    next(view: PromptView) {
      const call = replay.next();
      if (call) views.push([{ ...view }, call]);
      return call;
    },
    exhaustedReason: () => replay.exhaustedReason(),
  };
  const outcome = runLoop(source, {
    brakes: NO_BRAKES,
    strategy: { kind: 'full' },
    cache: 'recorded',
    pricing,
    systemTokens: trace.header.systemTokens,
    goalTokens: trace.header.goalTokens,
  });
  const facts: RunFacts = {
    completed: outcome.stop.reason === 'completed',
    endsOnFailedCall: trace.calls.at(-1)?.failed !== undefined,
    steps: outcome.steps,
    goalTokens: trace.header.goalTokens,
    systemTokens: trace.header.systemTokens,
    overhead: [],
    cachedTokens: 0,
    servablePrefixTokens: 0,
    outputTokens: [],
    resultTokens: [],
    toolCalls: 0,
    repeatedToolCalls: 0,
    erroredToolCalls: 0,
    callLatenciesMs: [],
    toolLatenciesMs: [],
  };
  const seen = new Set<string>();
  let previousInput: number | undefined;
  for (const [view, call] of views) {
    if (call.failed) continue;
    facts.outputTokens.push(call.outputTokens);
    if (call.latencyMs !== undefined) facts.callLatenciesMs.push(call.latencyMs);
    if (call.inputTokens !== undefined) {
      facts.overhead.push([view.historySteps - view.firstKeptStep, call.inputTokens - view.fullInputTokens]);
      facts.cachedTokens += call.cachedInputTokens ?? 0;
      if (previousInput !== undefined) facts.servablePrefixTokens += previousInput;
      previousInput = call.inputTokens;
    }
    for (const tool of call.toolCalls ?? []) {
      const key = actionFingerprint(tool.name, tool.arguments);
      if (seen.has(key)) facts.repeatedToolCalls += 1;
      seen.add(key);
      facts.toolCalls += 1;
      if (tool.error) facts.erroredToolCalls += 1;
      facts.resultTokens.push(tool.resultTokens);
      if (tool.latencyMs !== undefined) facts.toolLatenciesMs.push(tool.latencyMs);
    }
  }
  return facts;
}

/** Least squares y = a + b·x. */
function line(points: readonly [number, number][]): { a: number; b: number } {
  const n = points.length;
  if (n === 0) return { a: 0, b: 0 };
  const mx = points.reduce((s, [x]) => s + x, 0) / n;
  const my = points.reduce((s, [, y]) => s + y, 0) / n;
  const sxx = points.reduce((s, [x]) => s + (x - mx) ** 2, 0);
  const sxy = points.reduce((s, [x, y]) => s + (x - mx) * (y - my), 0);
  const b = sxx === 0 ? 0 : sxy / sxx;
  return { a: my - b * mx, b };
}

/** Empirical quantiles of real values, rounded to 1/`per` (101 points at most, or `points`). */
function roundedEmpirical(values: readonly number[], per: number, points = 101): { kind: 'empirical'; quantiles: number[] } {
  const sorted = [...values].sort((a, b) => a - b);
  const quantiles = sorted.length <= points ? sorted : Array.from({ length: points }, (_, i) => quantile(sorted, i / (points - 1)));
  return { kind: 'empirical', quantiles: quantiles.map((q) => Math.round(q * per) / per) };
}

const mean = (xs: readonly number[]) => (xs.length === 0 ? undefined : xs.reduce((s, x) => s + x, 0) / xs.length);
const round3 = (x: number) => Math.round(x * 1000) / 1000;

function mostCommon(values: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0]![0];
}

export interface FitResult {
  scenario: ScenarioFile;
  /** How each figure was read from the runs (written as comments at the top of the profile). */
  notes: string[];
}

/** A scenario reproducing `traces`; `pricing(trace)` prices each (the figures need a loop, not money). */
export function fitScenario(traces: readonly Trace[], pricing: (trace: Trace) => ModelPricing): FitResult {
  if (traces.length === 0) throw new UserError({ file: '<arguments>', code: 'no_input', message: 'no runs to fit', hint: 'pass recorded traces' });
  const facts = traces.map((trace) => factsOf(trace, pricing(trace)));
  const all = <T>(pick: (f: RunFacts) => T[]) => facts.flatMap(pick);
  const sum = (pick: (f: RunFacts) => number) => facts.reduce((s, f) => s + pick(f), 0);

  const overhead = line(all((f) => f.overhead));
  const fixedTokens = Math.max(0, Math.round(overhead.a));
  const perStepTokens = Math.round(overhead.b);
  const servable = sum((f) => f.servablePrefixTokens);
  const cached = sum((f) => f.cachedTokens);
  const hitShare = servable > 0 ? round3(Math.min(1, cached / servable)) : 1;
  const toolCalls = sum((f) => f.toolCalls);
  const repeatable = toolCalls - facts.filter((f) => f.toolCalls > 0).length;
  const repeatShare = repeatable > 0 ? round3(sum((f) => f.repeatedToolCalls) / repeatable) : 0;
  const errorShare = toolCalls > 0 ? round3(sum((f) => f.erroredToolCalls) / toolCalls) : 0;
  // Runs differ in verbosity: each run's mean size per call over the overall mean is its scale, and the
  // sizes are pooled divided by their run's scale, so that scale × size reproduces both spreads.
  const sizes = (f: RunFacts) => [...f.outputTokens, ...f.resultTokens];
  const overallMean = mean(all(sizes)) ?? 0;
  const scaleOf = (f: RunFacts) => (overallMean > 0 && f.outputTokens.length > 0 ? mean(sizes(f))! / overallMean : undefined);
  const scaled = facts.filter((f) => scaleOf(f) !== undefined);
  const unscale = (pick: (f: RunFacts) => number[]) => scaled.flatMap((f) => pick(f).map((n) => n / scaleOf(f)!));
  const sizeScale = scaled.length > 1 ? roundedEmpirical(scaled.map((f) => scaleOf(f)!), 1000) : undefined;
  const outputTokens = sizeScale ? roundedEmpirical(unscale((f) => f.outputTokens), 1, 41) : empiricalOf(all((f) => f.outputTokens), 41);
  const toolResultTokens = toolCalls === 0 ? { kind: 'fixed' as const, value: 0 } : sizeScale ? roundedEmpirical(unscale((f) => f.resultTokens), 1, 41) : empiricalOf(all((f) => f.resultTokens), 41);

  const population: Population = [];
  const groups: [string, RunFacts[], 'answer' | 'provider-error' | 'cut-off'][] = [
    ['completed', facts.filter((f) => f.completed), 'answer'],
    ['unfinished: provider error', facts.filter((f) => !f.completed && f.endsOnFailedCall), 'provider-error'],
    ['unfinished: cut off', facts.filter((f) => !f.completed && !f.endsOnFailedCall), 'cut-off'],
  ];
  for (const [name, group, ending] of groups) {
    if (group.length === 0) continue;
    population.push({
      behaviour: 'healthy',
      name,
      weight: group.length,
      steps: empiricalOf(group.map((f) => f.steps)),
      ...(ending === 'answer' ? {} : { ending }),
      repeatShare,
      errorShare,
      outputTokens,
      toolResultTokens,
      ...(sizeScale ? { sizeScale } : {}),
    });
  }

  const callLatency = mean(all((f) => f.callLatenciesMs));
  const toolLatency = mean(all((f) => f.toolLatenciesMs));
  const systemValues = facts.map((f) => f.systemTokens).sort((a, b) => a - b);
  const scenario: ScenarioFile = {
    scenario: SCENARIO_SCHEMA,
    name: 'fitted profile',
    description: `fitted to ${traces.length} recorded runs by loopcost fit`,
    model: mostCommon(traces.map((t) => t.header.model)),
    ...(traces.some((t) => t.header.provider) ? { provider: mostCommon(traces.flatMap((t) => (t.header.provider ? [t.header.provider] : []))) } : {}),
    systemTokens: Math.round(quantile(systemValues, 0.5)),
    goalTokens: empiricalOf(facts.map((f) => f.goalTokens)),
    promptOverhead: { fixedTokens, perStepTokens },
    ...(cached > 0 ? { cacheHitShare: hitShare } : {}),
    ...(callLatency === undefined && toolLatency === undefined
      ? {}
      : { latency: { call: Math.round(callLatency ?? 0), tool: Math.round(toolLatency ?? 0) } }),
    context: { context: 'full', cache: cached > 0 ? 'on' : 'off' },
    population,
  };
  const models = [...new Set(traces.map((t) => t.header.model))].sort();
  const notes = [
    `Fitted by loopcost fit to ${traces.length} recorded runs (${groups.filter(([, g]) => g.length > 0).map(([n, g]) => `${g.length} ${n}`).join(', ')}).`,
    `Runs were made on ${models.join(', ')}; the profile uses the most common.`,
    `Prompt overhead the growth model cannot see: ${fixedTokens} tokens per prompt + ${perStepTokens} per step in the prompt (least squares over ${all((f) => f.overhead).length} calls).`,
    `Cached share: ${cached} cached of ${servable} tokens a cache could have served (the previous prompt) = ${hitShare}.`,
    `Tool calls: ${toolCalls}; ${repeatShare} repeat an earlier call of their run, ${errorShare} failed.`,
    `Sizes: each run's mean size per call over the overall mean is its size scale (${scaled.length} runs); output and tool-result sizes are pooled divided by their run's scale.`,
    'Steps, size scale and prompt head are drawn independently per run; token sizes per step.',
  ];
  return { scenario, notes };
}
