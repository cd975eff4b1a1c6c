/**
 * treeReplayer (exported; sweep --tree and whatif replay trees through it) checks its options by
 * replayTree's rules: bad options throw one UserError naming every field when the replayer is made,
 * before anything runs (no price resolved), and are checked once per replayer, not again for each
 * replay it makes (the sweep's hot path). The brakes each replay is given are checked by the same rules.
 */
import { describe, expect, it } from 'vitest';
import { NO_BRAKES } from '../../src/brakes/config.js';
import { FULL_HISTORY } from '../../src/context/strategy.js';
import type { PriceTable } from '../../src/pricing/types.js';
import { sessionTrees } from '../../src/tree/group.js';
import { replayTree, treeReplayer } from '../../src/tree/replayTree.js';
import { distinctSteps, MINI_TABLE, trace, userErrorOf } from '../helpers.js';

let resolved = 0;
const prices: PriceTable = { ...MINI_TABLE, resolve: (...args) => (resolved++, MINI_TABLE.resolve(...args)) };
const run = trace(distinctSteps(6));
const treeRun = { ...run, header: { ...run.header, agent: { sessionId: 's', agentId: 'main', kind: 'main' as const } } };
const tree = sessionTrees([treeRun]).trees[0]!;

describe('treeReplayer checks its options as replayTree does', () => {
  it('bad options: one UserError naming every field, thrown when the replayer is made, nothing priced', () => {
    resolved = 0;
    const bad = { strategy: { kind: 'window', windowSteps: 0 }, prices: undefined, model: '', latency: { perCallMs: -1 }, subagentLimits: { maxSteps: 0 }, brakes: NO_BRAKES };
    const error = userErrorOf(() => treeReplayer(tree, bad as unknown as Parameters<typeof treeReplayer>[1]));
    expect(error.issues.map((issue) => [issue.field, issue.code])).toEqual([
      ['brakes', 'unrecognized_keys'],
      ['subagentLimits.maxSteps', 'invalid_number'],
      ['strategy', 'invalid_strategy'],
      ['prices', 'missing_field'],
      ['model', 'invalid_model'],
      ['latency.perCallMs', 'invalid_number'],
      ['latency.perInputTokenMs', 'missing_field'],
      ['latency.perOutputTokenMs', 'missing_field'],
      ['latency.perToolCallMs', 'missing_field'],
    ]);
    expect(new Set(error.issues.map((issue) => issue.file))).toEqual(new Set(['<treeReplayer options>']));
    expect(resolved).toBe(0);
    // Not an options object at all.
    expect(userErrorOf(() => treeReplayer(tree, undefined as unknown as Parameters<typeof treeReplayer>[1])).issues[0]!.file).toBe('<treeReplayer options>');
  });

  it("each replay's brakes by the brakes' rules, before it runs", () => {
    const replay = treeReplayer(tree, { strategy: FULL_HISTORY, prices });
    resolved = 0;
    const error = userErrorOf(() => replay({ maxSteps: -3, maxCostPico: 0.5 } as Parameters<typeof replay>[0]));
    expect(error.issues.map((issue) => [issue.file, issue.field])).toEqual([
      ['<treeReplayer brakes>', 'brakes.maxSteps'],
      ['<treeReplayer brakes>', 'brakes.maxCostPico'],
    ]);
    expect(resolved).toBe(0);
  });

  it('brakes found good once are checked again at the next replay (changed since: refused)', () => {
    const replay = treeReplayer(tree, { strategy: FULL_HISTORY, prices });
    const brakes: { maxSteps: number } = { maxSteps: 2 };
    expect(replay(brakes).stopReason).toBe('max_steps');
    brakes.maxSteps = -3;
    const error = userErrorOf(() => replay(brakes));
    expect(error.issues.map((issue) => [issue.file, issue.field])).toEqual([['<treeReplayer brakes>', 'brakes.maxSteps']]);
  });

  it('good options: checked once per replayer, whatever it replays; its replays as replayTree', () => {
    let reads = 0;
    const options = {
      get strategy() {
        reads++;
        return FULL_HISTORY;
      },
      prices,
    };
    const replay = treeReplayer(tree, options);
    const readsToMake = reads;
    const results = [NO_BRAKES, { maxSteps: 2 }, { maxSteps: 4 }, NO_BRAKES].map((brakes) => replay(brakes));
    expect(reads).toBe(readsToMake);
    expect(results.map((r) => r.stopReason)).toEqual(['trace_end', 'max_steps', 'max_steps', 'trace_end']);
    expect(results[1]).toEqual(replayTree([treeRun], { brakes: { maxSteps: 2 }, strategy: FULL_HISTORY, prices }));
  });
});
