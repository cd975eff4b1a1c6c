/**
 * The tree entry points given a wrong-typed argument (`sessionTrees(null)`, a tree whose agent is `null`,
 * engine options without their look-ups) refuse it as a UserError naming the argument, never a TypeError
 * from deep inside (src/tree/treeArguments.ts).
 */
import { describe, expect, it } from 'vitest';
import { brakeConfig } from '../../src/brakes/config.js';
import { FULL_HISTORY } from '../../src/context/strategy.js';
import type { Trace } from '../../src/trace/types.js';
import { replaySessionTree, type TreeEngineOptions } from '../../src/tree/engine.js';
import { sessionTrees, type SessionTree } from '../../src/tree/group.js';
import { treeReplayer } from '../../src/tree/replayTree.js';
import { call, MINI, MINI_TABLE, trace, userErrorOf } from '../helpers.js';

const run = (): Trace => {
  const made = trace([call(10)], { outcome: 'completed', origin: 'recorded' });
  made.header.agent = { sessionId: 's', agentId: 'main', kind: 'main' };
  return made;
};
const engineOptions = (): TreeEngineOptions => ({ brakes: brakeConfig(), strategy: FULL_HISTORY, pricingOf: () => MINI, cacheOf: () => 'off' });
const placeOf = (fn: () => unknown) => {
  const { file, field, code } = userErrorOf(fn).issues[0]!;
  return { file, field, code };
};

describe('sessionTrees', () => {
  it('null, a number, a string: not runs, named as its argument', () => {
    for (const value of [null, undefined, 5, 'runs.jsonl']) {
      expect(placeOf(() => sessionTrees(value as never))).toMatchObject({ file: '<sessionTrees arguments>', field: 'traces' });
    }
  });

  it('an element that is not a run, in an array or any other iterable: named by its index', () => {
    expect(placeOf(() => sessionTrees([run(), null] as never))).toEqual({ file: '<sessionTrees arguments>', field: 'traces[1]', code: 'invalid_input' });
    function* runs() {
      yield run();
      yield {} as Trace;
    }
    expect(placeOf(() => sessionTrees(runs()))).toEqual({ file: '<sessionTrees arguments>', field: 'traces[1]', code: 'invalid_input' });
    expect(sessionTrees(new Set([run()])).trees).toHaveLength(1);
  });
});

describe('replaySessionTree and treeReplayer', () => {
  const tree = (): SessionTree => sessionTrees([run()]).trees[0]!;

  it('replaySessionTree: a tree that is not one, an agent that is null, options that are not', () => {
    expect(placeOf(() => replaySessionTree(null as never, engineOptions()))).toMatchObject({ file: '<replaySessionTree arguments>', field: 'tree' });
    const broken = { ...tree(), agents: [null, { agentId: 7, kind: 'boss', runs: 'x' }] } as never;
    const error = userErrorOf(() => replaySessionTree(broken, engineOptions()));
    expect(error.issues.map((issue) => issue.field)).toEqual(['tree.agents[0]', 'tree.agents[1].agentId', 'tree.agents[1].kind', 'tree.agents[1].runs']);
    expect(placeOf(() => replaySessionTree(tree(), null as never))).toMatchObject({ file: '<replaySessionTree options>' });
    const { pricingOf: _, ...noPricing } = engineOptions();
    expect(placeOf(() => replaySessionTree(tree(), noPricing as never))).toEqual({ file: '<replaySessionTree options>', field: 'pricingOf', code: 'missing_input' });
    expect(placeOf(() => replaySessionTree(tree(), { ...engineOptions(), cacheOf: 'off' } as never))).toMatchObject({ field: 'cacheOf', code: 'invalid_input' });
  });

  it('a well-formed tree and options still replay', () => {
    expect(replaySessionTree(tree(), engineOptions()).totals.steps).toBe(1);
  });

  it('treeReplayer: an agent whose runs hold a null, a tree without notes', () => {
    const options = { strategy: FULL_HISTORY, prices: MINI_TABLE };
    const agent = tree().agents[0]!;
    expect(placeOf(() => treeReplayer({ ...tree(), agents: [{ ...agent, runs: [null as never] }] }, options))).toMatchObject({ file: '<treeReplayer arguments>', field: 'tree.agents[0].runs[0]' });
    const { notes: _, ...noNotes } = tree();
    expect(placeOf(() => treeReplayer(noNotes as never, options))).toMatchObject({ file: '<treeReplayer arguments>', field: 'tree.notes' });
  });
});

describe('a hand-built tree of agents with no runs', () => {
  it('a loop of parents among them is still refused, at no header', () => {
    const tree: SessionTree = { sessionId: 'h', agents: [{ agentId: 'x', kind: 'subagent', parentAgentId: 'y', runs: [] }, { agentId: 'y', kind: 'subagent', parentAgentId: 'x', runs: [] }], notes: [] };
    const error = userErrorOf(() => treeReplayer(tree, { strategy: FULL_HISTORY, prices: MINI_TABLE }));
    expect(error.issues[0]).toMatchObject({ field: 'agent.parentAgentId', code: 'parent_loop' });
    expect(error.issues[0]!.message).toContain("agents x and y are each other's parents (x → y → x; y's at no run)");
  });
});
