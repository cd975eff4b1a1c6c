/**
 * Session trees no loop can have made — agents each other's parent (or one its own), one agent's part in
 * two runs — are refused as a UserError at the offending header (file, line, field), every problem of the
 * inputs told together, by every command that groups trees and by the library (src/tree/treeIssues.ts);
 * they used to replay with exit 0, a stop blamed on the other agent, two runs merged as `part 2 of 2`.
 */
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { NO_BRAKES } from '../../src/brakes/config.js';
import { FULL_HISTORY } from '../../src/context/strategy.js';
import type { AgentRef, Trace } from '../../src/trace/types.js';
import { sessionTrees, type SessionTree } from '../../src/tree/group.js';
import { replayTree, treeReplayer } from '../../src/tree/replayTree.js';
import { cli, tempDir } from '../cli/run.js';
import { treeFile } from './treeFile.js';
import { call, MINI_TABLE, toolCall, trace, userErrorOf } from '../helpers.js';

const dir = tempDir();
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const treeFileIn = (name: string, agents: AgentRef[]): string => treeFile(dir, name, agents);

const sub = (agentId: string, parentAgentId: string): AgentRef => ({ sessionId: 's', agentId, kind: 'subagent', parentAgentId, parentToolCallId: 't1' });
const MAIN: AgentRef = { sessionId: 's', agentId: 'main', kind: 'main' };

describe('the commands that group trees refuse a tree no loop made, naming each offending header', () => {
  const cycle = treeFileIn('cycle.jsonl', [MAIN, sub('a', 'b'), sub('b', 'a')]);
  const self = treeFileIn('self.jsonl', [{ ...sub('a', 'a'), sessionId: 'self' }]);
  const parts = treeFileIn('parts.jsonl', [{ ...MAIN, sessionId: 'p', part: 1 }, { ...MAIN, sessionId: 'p', part: 1 }]);

  it('replay --tree: agents each other’s parent (not a stop blamed on the other agent, exit 0)', async () => {
    const { code, stdout, stderr } = await cli('replay', '--tree', cycle, '--subagent-max-steps', '1');
    expect([code, stdout]).toEqual([2, '']);
    expect(stderr).toContain(`${cycle}#2:line 4 field 'agent.parentAgentId': session s: agents a and b are each other's parents (a → b → a; b's at ${cycle}#3 line 7)`);
    expect(stderr).toContain("(each sub-agent's parentAgentId names the agent whose tool call started it");
    expect(stderr).not.toMatch(/^\s+at /m);
  });

  it('replay --tree: an agent its own parent', async () => {
    const { code, stderr } = await cli('replay', '--tree', self);
    expect(code).toBe(2);
    expect(stderr).toContain(`${self}:line 1 field 'agent.parentAgentId': session self: agent a names itself as its parent`);
  });

  it('replay --tree: two runs that both say part 1 (not merged as part 2 of 2)', async () => {
    const { code, stdout, stderr } = await cli('replay', '--tree', parts);
    expect([code, stdout]).toEqual([2, '']);
    expect(stderr).toContain(`${parts}#2:line 4 field 'agent.part': session p: this run of agent main says part 1, as its run at ${parts}#1 line 1 says part 1`);
    expect(stderr).toContain('give each run once');
  });

  it('whatif --tree and sweep --tree refuse them too, every problem of the files told in one message', async () => {
    for (const args of [['whatif', '--tree', cycle, self, parts, '--try', 'max-steps=3'], ['sweep', '--tree', cycle, self, parts, '--grid', 'max-steps=1,3']]) {
      const { code, stdout, stderr } = await cli(...args);
      expect([code, stdout]).toEqual([2, '']);
      expect(stderr.match(/field 'agent\.parentAgentId'/g)).toHaveLength(2);
      expect(stderr.match(/field 'agent\.part'/g)).toHaveLength(1);
    }
  });
});

/** A run of `agent`, placed as a native reader places it. */
function run(agent: AgentRef, source: string, headerLine: number): Trace {
  const made = trace([call(10, [toolCall('Task', {}, 5, { id: 't1' })])], { outcome: 'completed', origin: 'recorded' });
  return { ...made, source, headerLine, header: { ...made.header, agent } };
}

describe('the library refuses them as one UserError, zod style', () => {
  const loop = [run(MAIN, 'f#1', 1), run(sub('a', 'b'), 'f#2', 4), run(sub('b', 'a'), 'f#3', 7)];
  const twice = [run({ ...MAIN, sessionId: 'p' }, 'g#1', 1), run({ ...MAIN, sessionId: 'p' }, 'g#2', 4)];

  it('sessionTrees: each problem an issue with its file, line, field and code', () => {
    const error = userErrorOf(() => sessionTrees([...loop, ...twice]));
    expect(error.issues.map(({ file, line, field, code }) => ({ file, line, field, code }))).toEqual([
      { file: 'f#2', line: 4, field: 'agent.parentAgentId', code: 'parent_loop' },
      { file: 'g#2', line: 4, field: 'agent.part', code: 'duplicate_part' },
    ]);
    expect(error.issues[1]!.message).toContain('says no part (read as part 1), as its run at g#1 line 1 says no part (read as part 1)');
  });

  it('replayTree, and treeReplayer given such a tree built by hand', () => {
    expect(userErrorOf(() => replayTree(loop, { brakes: NO_BRAKES, strategy: FULL_HISTORY, prices: MINI_TABLE })).issues[0]!.code).toBe('parent_loop');
    const tree: SessionTree = { sessionId: 'h', agents: [{ agentId: 'x', kind: 'subagent', parentAgentId: 'x', runs: [run(sub('x', 'x'), 'h', 1)] }], notes: [] };
    const error = userErrorOf(() => treeReplayer(tree, { strategy: FULL_HISTORY, prices: MINI_TABLE }));
    expect(error.issues[0]).toMatchObject({ file: 'h', line: 1, field: 'agent.parentAgentId', code: 'parent_loop' });
  });

  it('a tree a loop can make still groups: sub-agents of sub-agents, an agent’s parts 1 and 2', () => {
    const fine = [run(MAIN, 'k#1', 1), run(sub('a', 'main'), 'k#2', 4), run(sub('b', 'a'), 'k#3', 7), run({ ...sub('b', 'a'), part: 2 }, 'k#4', 10)];
    const { trees } = sessionTrees(fine);
    expect(trees.map((tree) => tree.agents.map((agent) => `${agent.agentId}:${agent.runs.length}`))).toEqual([['main:1', 'a:1', 'b:2']]);
  });
});
