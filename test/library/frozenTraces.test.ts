/**
 * A Trace loopcost keeps something of (its compiled form, the check of its values, a population's baselines)
 * is frozen, deep (trace/freezeTrace.ts): changing it after a replay throws a TypeError (ES modules are strict
 * code) instead of leaving the compiled engine's stale figures beside the readable engine's fresh ones, or a
 * negative count that the readable engine bills. A copy is the way to change a run.
 */
import { describe, expect, it } from 'vitest';
import { NO_BRAKES } from '../../src/brakes/config.js';
import { FULL_HISTORY } from '../../src/context/strategy.js';
import { compileTrace } from '../../src/fast/compile.js';
import { compiledTrace } from '../../src/index.js';
import { loadTraceFile } from '../../src/import/index.js';
import { loadPriceTable } from '../../src/pricing/index.js';
import { populationRuns } from '../../src/population/run.js';
import { replayTrace } from '../../src/replay/replay.js';
import { CompileScratch } from '../../src/fast/compileMemory.js';
import type { CallRecord, Trace } from '../../src/trace/types.js';
import { call, distinctSteps, MINI_TABLE, toolCall, trace, userErrorOf } from '../helpers.js';

const options = { brakes: NO_BRAKES, strategy: FULL_HISTORY, prices: MINI_TABLE };
const handBuilt = (): Trace => structuredClone(trace(distinctSteps(6), { model: 'mini' }));
const both = (run: Trace) => (['compiled', 'readable'] as const).map((engine) => replayTrace(run, { ...options, engine }).costPico);

describe('a run replayed once cannot be changed under the figures kept of it', () => {
  it('a run built in memory: push, truncate, a negative count all throw; both engines keep agreeing', () => {
    const run = handBuilt();
    const first = replayTrace(run, options);
    expect(() => (run.calls as CallRecord[]).push(call(100_000))).toThrow(TypeError);
    expect(() => ((run.calls as CallRecord[]).length = 2)).toThrow(TypeError);
    expect(() => ((run.calls[0] as { outputTokens: number }).outputTokens = -5000)).toThrow(TypeError);
    expect(() => ((run.calls[0]!.toolCalls![0] as { resultTokens: number }).resultTokens = 1e9)).toThrow(TypeError);
    expect(() => ((run.header as { systemTokens: number }).systemTokens = 1)).toThrow(TypeError);
    expect(() => ((run as { calls: readonly CallRecord[] }).calls = [])).toThrow(TypeError);
    expect(both(run)).toEqual([first.costPico, first.costPico]);
  });

  it('a run a reader made: frozen by its first replay (compiled or readable), not before', async () => {
    for (const engine of ['compiled', 'readable'] as const) {
      const [run] = await loadTraceFile('scenarios/long-exploration.jsonl');
      expect(Object.isFrozen(run!.calls)).toBe(false);
      const first = replayTrace(run!, { brakes: { maxSteps: 5 }, strategy: FULL_HISTORY, prices: loadPriceTable(), engine });
      expect(() => ((run!.calls[0] as { outputTokens: number }).outputTokens *= 10)).toThrow(TypeError);
      expect(() => ((run!.calls as CallRecord[]).length = 2)).toThrow(TypeError);
      const again = replayTrace(run!, { brakes: { maxSteps: 5 }, strategy: FULL_HISTORY, prices: loadPriceTable(), engine: engine === 'compiled' ? 'readable' : 'compiled' });
      expect(again.costPico).toBe(first.costPico);
    }
  });

  it('tool-call arguments are frozen too (the repeated-action brake reads their fingerprint)', () => {
    const run = structuredClone(trace([call(10, [toolCall('ls', { path: 'a' }, 5)]), call(10, [toolCall('ls', { path: 'b' }, 5)])], { model: 'mini' }));
    compiledTrace(run);
    expect(() => ((run.calls[1]!.toolCalls![0]!.arguments as { path: string }).path = 'a')).toThrow(TypeError);
  });

  it('compileTrace of a run built in memory (its values checked once) freezes it; a copy is free to change and replays its own figures', () => {
    const run = handBuilt();
    compileTrace(run);
    expect(Object.isFrozen(run.calls[0])).toBe(true);
    const copy = structuredClone(run);
    (copy.calls as CallRecord[]).push(call(100_000));
    const [compiled, readable] = both(copy);
    expect(compiled).toBe(readable);
    expect(compiled).toBeGreaterThan(replayTrace(run, options).costPico);
    // The copy's values are checked as any new run's: a negative count is refused by both engines.
    const bad = structuredClone(run);
    (bad.calls[0] as { outputTokens: number }).outputTokens = -5000;
    for (const engine of ['compiled', 'readable'] as const) expect(userErrorOf(() => replayTrace(bad, { ...options, engine })).issues[0]!.field).toBe('trace.calls[0].outputTokens');
  });

  it('a replay that keeps nothing (scratch) leaves a reader\'s run as it is', async () => {
    const [run] = await loadTraceFile('scenarios/long-exploration.jsonl');
    replayTrace(run!, { brakes: {}, strategy: FULL_HISTORY, prices: loadPriceTable(), scratch: new CompileScratch() });
    expect(Object.isFrozen(run!.calls)).toBe(false);
  });

  it('populationRuns: its inputs are frozen (baselines are kept per inputs object), a run added after throws', () => {
    const traces = [handBuilt()];
    const inputs = { traces };
    populationRuns(inputs, { brakes: NO_BRAKES, strategy: FULL_HISTORY }, MINI_TABLE);
    expect(() => traces.push(handBuilt())).toThrow(TypeError);
  });
});
