/**
 * Every library entry point that takes brakes (replayTrace, runScenario, replayTree, replayTrees,
 * runAgentTree, runAgentLoop) checks its options by the same rules before any work (src/options): one
 * UserError naming every field. Before, only runAgentLoop did: replayTrace took `maxSteps: -3` and stopped
 * at "0 steps taken, limit -3", ignored `windowSteps: 0`, ended `maxCostPico: 0.5` in a RangeError and a
 * missing `prices` or `strategy` in a TypeError; runScenario ran `runs: 2.5` as 3 runs and `runs: -1` as
 * none. "No work" is seen by doubles that count: a price table whose resolve() is never asked, a step
 * source never asked for a step, a model never called.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/agent/clock.js';
import { runAgentLoop } from '../../src/agent/run.js';
import type { Model } from '../../src/agent/types.js';
import { FULL_HISTORY } from '../../src/context/strategy.js';
import { UserError } from '../../src/errors.js';
import type { StepSource } from '../../src/loop/types.js';
import type { PriceTable } from '../../src/pricing/types.js';
import { replayTrace } from '../../src/replay/replay.js';
import { parseScenario } from '../../src/scenario/load.js';
import { runScenario } from '../../src/scenario/run.js';
import { runAgentTree } from '../../src/tree/live.js';
import { replayTree, replayTrees } from '../../src/tree/replayTree.js';
import { distinctSteps, MINI, MINI_TABLE, trace, userErrorOf } from '../helpers.js';

/** Counts what would be work: prices resolved, steps asked of a source, model calls. */
const asked = { resolve: 0, next: 0, call: 0 };
const prices: PriceTable = { ...MINI_TABLE, resolve: (...args) => (asked.resolve++, MINI_TABLE.resolve(...args)) };
const run = trace(distinctSteps(6));
const treeRun = { ...run, header: { ...run.header, agent: { sessionId: 's', agentId: 'main', kind: 'main' as const } } };
const scenario = parseScenario(
  'scenario: loopcost.scenario/1\nmodel: mini\nsystemTokens: 400\npopulation:\n  - { behaviour: healthy, weight: 1, steps: 4, outputTokens: 100, toolResultTokens: 200 }\n',
  'test.yaml',
);
const source: StepSource = { next: () => (asked.next++, null), exhaustedReason: () => 'trace_end' };
const model: Model = { name: 'mini', call: async () => (asked.call++, { text: 'done', toolCalls: [], usage: { inputTokens: 10, outputTokens: 5 } }) };

/** Each entry point with good options of its own, `given` on top (what the test varies). */
const ENTRIES: Record<string, (given: Record<string, unknown>) => unknown> = {
  replayTrace: (given) => replayTrace(run, { brakes: {}, strategy: FULL_HISTORY, prices, ...given }),
  runScenario: (given) => runScenario(scenario, { prices, runs: 2, ...given }),
  replayTree: (given) => replayTree([treeRun], { brakes: {}, strategy: FULL_HISTORY, prices, ...given }),
  replayTrees: (given) => replayTrees([treeRun], { brakes: {}, strategy: FULL_HISTORY, prices, ...given }),
  runAgentTree: (given) => runAgentTree({ agentId: 'main', source, systemTokens: 10, goalTokens: 0 }, { brakes: {}, strategy: FULL_HISTORY, cache: 'off', pricing: MINI, ...given }),
};

/** The UserError `entry` threw for `given`, and that nothing was asked of the doubles before it. */
function refusal(entry: string, given: Record<string, unknown>): UserError {
  Object.assign(asked, { resolve: 0, next: 0, call: 0 });
  const error = userErrorOf(() => ENTRIES[entry]!(given));
  expect(asked, entry).toEqual({ resolve: 0, next: 0, call: 0 });
  return error;
}

const issuesOf = (error: UserError) => error.issues.map(({ field, code, message, hint }) => ({ field, code, message, hint }));

/** Bad brake settings, by field. */
const BAD_BRAKES: Record<string, unknown[]> = {
  maxSteps: [-3, 0, 2.5, NaN, '5'],
  maxRepeat: [-2, 0, 1.5],
  maxSameError: [0, Infinity],
  maxOutputTokens: [0, 0.5],
  maxBacktracks: [-1, 0.5],
  maxCostPico: [0.5, -1, 2 ** 53, '1'],
  timeoutMs: [-1, NaN, 1e300],
  contextWindow: [0, 'big'],
  budgetMode: ['x', ''],
  repeatMode: ['cycles'],
  maxStep: [5],
  maxCost: [1],
};

describe('entry points check their options before any work, by the rules runAgentLoop uses', () => {
  it('works with good options (the harness)', () => {
    expect((ENTRIES.replayTrace!({}) as { stopReason: string }).stopReason).toBe('trace_end');
    expect(ENTRIES.runScenario!({})).toHaveLength(2);
    expect(ENTRIES.replayTree!({})).toMatchObject({ stopReason: 'trace_end' });
    expect(ENTRIES.runAgentTree!({})).toMatchObject({ stopReason: 'trace_end' });
  });

  it('any mix of bad brake settings (seeded): every entry point names exactly those fields, with the same issue as runAgentLoop, and does no work', async () => {
    const field = fc.constantFrom(...Object.keys(BAD_BRAKES)).chain((key) => fc.tuple(fc.constant(key), fc.constantFrom(...BAD_BRAKES[key]!)));
    await fc.assert(
      fc.asyncProperty(fc.uniqueArray(field, { minLength: 1, maxLength: 4, selector: ([key]) => key }), async (bad) => {
        const brakes = Object.fromEntries(bad);
        asked.call = 0;
        const loop = await runAgentLoop({ model, tools: [], brakes, unbounded: true, context: { system: 's', goal: 'g' }, pricing: MINI, clock: new VirtualClock() }).catch((error: unknown) => error);
        expect(loop).toBeInstanceOf(UserError);
        expect(asked.call).toBe(0);
        const expected = issuesOf(loop as UserError);
        expect(expected.map((issue) => issue.field).sort()).toEqual(bad.map(([key]) => `brakes.${key}`).sort());
        for (const entry of Object.keys(ENTRIES)) expect(issuesOf(refusal(entry, { brakes })), entry).toEqual(expected);
      }),
      { numRuns: 150, seed: 2026 },
    );
  });

  it('replayTrace: what it took or failed on before is named, every field in one UserError', () => {
    expect(refusal('replayTrace', { brakes: { maxSteps: -3 } }).issues[0]).toMatchObject({ file: '<replayTrace options>', field: 'brakes.maxSteps', code: 'invalid_number' });
    expect(refusal('replayTrace', { brakes: { maxCostPico: 0.5 } }).message).toContain('picodollars are whole');
    expect(refusal('replayTrace', { strategy: { kind: 'window', windowSteps: 0 } }).issues[0]!.field).toBe('strategy');
    expect(refusal('replayTrace', { strategy: { kind: 'mask', maskSteps: -1 } }).issues[0]!.field).toBe('strategy');
    // A field of another kind (a shared object spread into a window) is named, not the whole strategy.
    expect(refusal('replayTrace', { strategy: { kind: 'window', windowSteps: 3, placeholderTokens: 12 } }).issues[0]!.message).toBe(`placeholderTokens does not apply to a 'window' strategy ({"kind":"window","placeholderTokens":12,"windowSteps":3})`);
    const all = refusal('replayTrace', { brakes: { maxStep: 5 }, strategy: undefined, prices: undefined, engine: 'fast', keepSteps: 'yes' });
    expect(all.issues.map((issue) => [issue.field, issue.code])).toEqual([
      ['brakes.maxStep', 'unrecognized_keys'],
      ['strategy', 'missing_field'],
      ['prices', 'missing_field'],
      ['keepSteps', 'invalid_value'],
      ['engine', 'invalid_value'],
    ]);
    expect(all.issues[0]!.hint).toBe('did you mean maxSteps?');
    expect(refusal('replayTrace', { latency: { perCallMs: -1, perInputTokenMs: 0, perOutputTokenMs: 0 } }).issues.map((issue) => issue.field)).toEqual(['latency.perCallMs', 'latency.perToolCallMs']);
    expect(refusal('replayTrace', { stratgy: FULL_HISTORY }).issues[0]).toMatchObject({ field: 'stratgy', code: 'unrecognized_keys', hint: 'did you mean strategy?' });
    // The run's own prices given: no table needed.
    expect(replayTrace(run, { brakes: {}, strategy: FULL_HISTORY, pricing: MINI } as Parameters<typeof replayTrace>[1]).stopReason).toBe('trace_end');
  });

  it('runScenario: runs, seed and first run are whole numbers (no negative count run as none, no 2.5 runs run as 3)', () => {
    const error = refusal('runScenario', { runs: -1, seed: NaN, firstRun: 0.5, brakes: { maxSteps: -3 } });
    expect(error.issues.map((issue) => issue.field)).toEqual(['runs', 'seed', 'firstRun', 'brakes.maxSteps']);
    expect(refusal('runScenario', { runs: 2.5, seed: -5.5 }).issues.map((issue) => issue.field)).toEqual(['runs', 'seed']);
    // 0 runs is an empty slice (a sweep worker's share of none), not a count rounded or read as the default.
    expect(ENTRIES.runScenario!({ runs: 0 })).toEqual([]);
    expect(refusal('runScenario', { runs: 10_000_001 }).issues[0]).toMatchObject({ field: 'runs', code: 'too_large' });
    expect(refusal('runScenario', { prices: {} }).issues[0]).toMatchObject({ field: 'prices', code: 'missing_field' });
    expect(refusal('runScenario', { strategy: { kind: 'window', windowSteps: 2.5 } }).issues[0]!.field).toBe('strategy');
    expect(ENTRIES.runScenario!({ runs: 3, seed: 0 })).toHaveLength(3);
  });

  it("replayTree and replayTrees: the tree's brakes and each sub-agent's limits", () => {
    for (const entry of ['replayTree', 'replayTrees']) {
      const error = refusal(entry, { brakes: { maxSteps: -3, maxCostPico: 0.5 }, subagentLimits: { maxStep: 4, maxCostPico: -1 } });
      expect(error.issues.map((issue) => issue.field)).toEqual(['brakes.maxSteps', 'brakes.maxCostPico', 'subagentLimits.maxStep', 'subagentLimits.maxCostPico']);
      expect(error.issues[0]!.file).toBe(`<${entry} options>`);
    }
  });

  it('runAgentTree: its cache mode, strategy and prices too; the root is never asked for a step', () => {
    const error = refusal('runAgentTree', { cache: 'yes', strategy: undefined, pricing: undefined, brakes: { maxRepeat: -2 } });
    expect(error.issues.map((issue) => issue.field)).toEqual(['brakes.maxRepeat', 'strategy', 'cache', 'pricing']);
  });

  it('an options object that is not one is named, not a TypeError', () => {
    expect(userErrorOf(() => replayTrace(run, undefined as never)).issues[0]).toMatchObject({ file: '<replayTrace options>', code: 'missing_field' });
    expect(userErrorOf(() => runScenario(scenario, 5 as never)).issues[0]).toMatchObject({ file: '<runScenario options>', code: 'invalid_value' });
  });
});
