/**
 * A recording's stop in every replay engine, for the tests that hold a real run's end (gave up, aborted)
 * the same everywhere: the readable loop, the compiled replay (its figures held equal to the readable
 * loop's), replayTrace call by call and through a run table, and replayTrace's readable engine; and its
 * stops in a sweep of step caps.
 */
import { expect } from 'vitest';
import { NO_BRAKES, type BrakeConfig } from '../../src/brakes/config.js';
import type { ContextStrategy } from '../../src/context/strategy.js';
import { compileTrace } from '../../src/fast/compile.js';
import { replayFast } from '../../src/fast/replayFast.js';
import { sweepCompiled, sweepTotals } from '../../src/fast/sweep.js';
import { flattenPrices } from '../../src/kernel/prices.js';
import { ReplaySource } from '../../src/loop/replaySource.js';
import { runLoop } from '../../src/loop/run.js';
import { replayTrace } from '../../src/replay/replay.js';
import type { Trace } from '../../src/trace/types.js';
import { pricings } from '../core/arbitraries.js';
import { figuresOf, handTable } from '../helpers.js';

const pricing = pricings[0]!;
const prices = flattenPrices(pricing);

/** Every engine's stop of `trace` (priced at pricings[0]) under `brakes` and `strategy`. */
export function stopsInEveryEngine(trace: Trace, brakes: BrakeConfig, strategy: ContextStrategy = { kind: 'full' }) {
  const options = { brakes, strategy: { ...strategy, cache: 'recorded' as const }, pricing, prices: handTable(pricing) };
  const readable = runLoop(new ReplaySource(trace), { brakes, strategy, cache: 'recorded', pricing, systemTokens: trace.header.systemTokens, goalTokens: trace.header.goalTokens });
  const fast = replayFast(compileTrace(trace), brakes, strategy, 'recorded', prices);
  expect(fast).toEqual(figuresOf(readable));
  // The compiled replay: the first call by call, the second through a run table.
  const [first, second] = [replayTrace(trace, options), replayTrace(trace, options)];
  const readableReplay = replayTrace(trace, { ...options, engine: 'readable' });
  return {
    readable: [readable.stop.reason, readable.stop.detail],
    fast: fast.reason,
    compiled: [first.stopReason, first.stopDetail],
    table: [second.stopReason, second.stopDetail],
    readableReplay: [readableReplay.stopReason, readableReplay.stopDetail],
  };
}

/** What stopsInEveryEngine gives when every engine stops for `reason` with `detail`. */
export const everywhere = (reason: string, detail: string) => ({ readable: [reason, detail], fast: reason, compiled: [reason, detail], table: [reason, detail], readableReplay: [reason, detail] });

/** `trace`'s stop in each cell of a sweep of step caps 1, 2, 3 and none (each cell's figures held equal to the compiled replay's). */
export function stopsInStepCapSweep(trace: Trace): string[] {
  const compiled = compileTrace(trace);
  const result = sweepCompiled([{ compiled, prices, cache: 'recorded' }], { brakes: { ...NO_BRAKES }, strategy: { kind: 'full' }, axes: [{ name: 'max-steps', values: [1, 2, 3, undefined].map((maxSteps) => ({ brakes: { maxSteps } })) }] });
  return result.cells.map((cell, c) => {
    expect(sweepTotals(result, 0, c)).toEqual(replayFast(compiled, cell.brakes, { kind: 'full' }, 'recorded', prices));
    return sweepTotals(result, 0, c).reason;
  });
}
