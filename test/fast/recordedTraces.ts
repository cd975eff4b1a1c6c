/**
 * What the seeded property tests of the compiled replay against the readable loop share (core/fastPathLong,
 * core/fastPathRecorded, core/recordedCacheRuleEngines, fast/traceEnd, kernel/belowMinimumWrites): a whole
 * long trace drawn call by call from one seed (helpers.ts lcg), so one arbitrary value describes it; brakes
 * set at a running total of the run's own unbraked replay, where an off-by-one would show; and the
 * comparison of the two engines' figures under those brakes.
 */
import fc from 'fast-check';
import { expect } from 'vitest';
import { NO_BRAKES, type BrakeConfig } from '../../src/brakes/config.js';
import { compileTrace } from '../../src/fast/compile.js';
import { flattenPrices, replayFast } from '../../src/fast/replayFast.js';
import { runLoop } from '../../src/loop/run.js';
import { ReplaySource } from '../../src/loop/replaySource.js';
import type { LoopOptions, RunOutcome, StepRow } from '../../src/loop/types.js';
import type { CallRecord, Trace } from '../../src/trace/types.js';
import { figuresOf, lcg, trace } from '../helpers.js';

/** What one call of a seeded trace is drawn from. */
export interface SeededCall {
  /** The call's index, and whether it is the trace's last. */
  i: number;
  last: boolean;
  /** The trace's generator: a draw below its argument. */
  next: (below: number) => number;
  /** The growth model's history so far, as a recorder would see it grow: the output and results of every call that ran tool calls. */
  history: number;
  /** The previous call's recorded prompt (0 before the first call, or after one that records none). */
  previousPrompt: number;
}

/** What a seeded trace is drawn from: its length `n`, its seed, then the `shape`'s own values (a fast-check record in this order). */
export function seededTraceArb<S extends object>(n: fc.Arbitrary<number>, shape: { [K in keyof S]: fc.Arbitrary<S[K]> }): fc.Arbitrary<{ n: number; seed: number } & S> {
  return fc.record({ n, seed: fc.integer({ min: 1, max: 2 ** 30 }), ...shape }) as fc.Arbitrary<{ n: number; seed: number } & S>;
}

/** A trace of `n` calls, each drawn by `drawCall` in order from the generator seeded with `seed`, under `header` (helpers.ts trace). */
export function seededTrace(run: { n: number; seed: number; header: Parameters<typeof trace>[1] }, drawCall: (at: SeededCall) => CallRecord): Trace {
  const next = lcg(run.seed);
  const calls: CallRecord[] = [];
  let history = 0;
  let previousPrompt = 0;
  for (let i = 0; i < run.n; i++) {
    const call = drawCall({ i, last: i === run.n - 1, next, history, previousPrompt });
    if (call.toolCalls) history += call.outputTokens + call.toolCalls.reduce((sum, t) => sum + t.resultTokens, 0);
    previousPrompt = call.inputTokens ?? 0;
    calls.push(call);
  }
  return trace(calls, run.header);
}

/** A recorded prompt shaped like a real run's: the growth model's plus an overhead below `maxOverhead`, every `belowGrowthEvery`-th call 1 to 300 tokens below it instead. */
export function growthPrompt(at: SeededCall, shape: { system: number; belowGrowthEvery: number; maxOverhead: number }): number {
  const overhead = at.i % shape.belowGrowthEvery === shape.belowGrowthEvery - 1 ? -at.next(300) - 1 : at.next(shape.maxOverhead);
  return Math.max(0, shape.system + at.history + overhead);
}

/**
 * The rest of a recorded call from its prompt on: every `writeEvery`-th call writes fewer than 500 tokens of what
 * it did not read; every `unusualEvery`-th call backtracks, fails (500) or runs as usual; a usual one runs one
 * or two tool calls with results below `maxResultTokens`; the last, when not one of those, is the final answer.
 */
export function finishRecordedCall(call: CallRecord, at: SeededCall, shape: { writeEvery: number; unusualEvery: number; maxResultTokens: number }): CallRecord {
  const { i, next } = at;
  if (i % shape.writeEvery === shape.writeEvery - 1) call.cacheWriteTokens = Math.min(call.inputTokens! - call.cachedInputTokens!, next(500));
  const kind = i % shape.unusualEvery === shape.unusualEvery - 1 ? next(3) : -1;
  if (kind === 0) call.backtrack = true;
  else if (kind === 1) call.failed = { status: 500, message: 'server error' };
  else call.toolCalls = Array.from({ length: 1 + next(2) }, () => ({ name: next(2) ? 'read' : 'run', arguments: { f: next(400) }, resultTokens: next(shape.maxResultTokens), latencyMs: next(400) }));
  if (at.last && kind === -1) call.final = true;
  return call;
}

/** How a property replays its trace: the readable loop's options but the brakes. */
export type ReplaySettings = Omit<LoopOptions, 'brakes'>;

/** The run without brakes, a row kept per call: the running totals brakes are set at. */
export function unbrakedRun(t: Trace, settings: ReplaySettings): RunOutcome {
  return runLoop(new ReplaySource(t), { ...settings, brakes: NO_BRAKES, keepSteps: true });
}

/** The row a fraction `where` (0..1) of the way through the rows. */
export function rowAt(rows: readonly StepRow[], where: number): StepRow {
  return rows[Math.min(rows.length - 1, Math.floor(where * rows.length))]!;
}

/** Running totals a brake is set at: a row's, or a whole run's. */
export type RunningTotals = Pick<StepRow, 'cumulativeCostPico' | 'cumulativeInputTokens' | 'cumulativeOutputTokens' | 'step' | 'inputTokens'>;

/** `config` with each of `brakes` named at its running total `delta` off: the budget, the token cap, the step cap, the context window (at the call's prompt). */
export function atRunningTotals(config: BrakeConfig, totals: RunningTotals, draw: { delta: number; brakes: readonly string[] }): BrakeConfig {
  const { delta, brakes } = draw;
  if (brakes.includes('cost')) config.maxCostPico = Math.max(0, totals.cumulativeCostPico + delta);
  if (brakes.includes('tokens')) config.maxTokens = Math.max(1, totals.cumulativeInputTokens + totals.cumulativeOutputTokens + delta);
  if (brakes.includes('steps')) config.maxSteps = Math.max(1, totals.step + delta);
  if (brakes.includes('window')) config.contextWindow = Math.max(1, totals.inputTokens + delta);
  return config;
}

/**
 * The model's context window, and each of `brakes` at the running totals of the unbraked run's row a fraction
 * `where` of the way through, `delta` off; the timeout at that fraction of the run's time, `delta` off; the
 * repeated-action brake at 2..7 by `where`. No brake but the window for a run of no calls.
 */
export function brakesAtRow(free: RunOutcome, draw: { where: number; delta: number; brakes: readonly string[] }): BrakeConfig {
  const { where, delta, brakes } = draw;
  const config: BrakeConfig = { ...NO_BRAKES, contextWindow: 'model' };
  if (free.rows.length === 0) return config;
  atRunningTotals(config, rowAt(free.rows, where), draw);
  if (brakes.includes('time')) config.timeoutMs = Math.max(0, Math.round(free.elapsedMs * where) + delta);
  if (brakes.includes('repeat')) config.maxRepeat = 2 + Math.floor(where * 6);
  return config;
}

/** The compiled replay under `config` gives the readable loop's figures. */
export function expectFastAgrees(t: Trace, settings: ReplaySettings, config: BrakeConfig): void {
  const slow = runLoop(new ReplaySource(t), { ...settings, brakes: config });
  const fast = replayFast(compileTrace(t), config, settings.strategy, settings.cache, flattenPrices(settings.pricing), settings.latency);
  expect(fast).toEqual(figuresOf(slow));
}
