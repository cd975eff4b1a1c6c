/**
 * Session trees whose runs contradict what they say of an agent (src/tree/treeIssues.ts) — parts of one
 * agent that say different kinds or parents, a main agent with a parent, a sub-agent named `main` — are
 * refused like the other impossible trees: one UserError, each issue at the offending header (file, line,
 * field). They used to replay with exit 0: the first run's kind and parent won unsaid. And a sub-agent whose
 * `parentToolCallId` is no tool call of its parent (src/tree/group.ts) is kept with one note for the tree
 * naming the agent and the id: it used to replay unlinked with none. The importers' trees (the shared
 * Claude Code sessions) still read, without that note.
 */
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { loadTraceFiles } from '../../src/import/index.js';
import type { AgentRef, Trace } from '../../src/trace/types.js';
import { sessionTrees, type SessionTree } from '../../src/tree/group.js';
import { treeReplayer } from '../../src/tree/replayTree.js';
import { cli, tempDir } from '../cli/run.js';
import { treeFile } from './treeFile.js';
import { call, MINI_TABLE, toolCall, trace, userErrorOf } from '../helpers.js';
import { FULL_HISTORY } from '../../src/context/strategy.js';

const dir = tempDir();
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const treeFileIn = (name: string, agents: AgentRef[]): string => treeFile(dir, name, agents);

const MAIN: AgentRef = { sessionId: 's', agentId: 'main', kind: 'main' };
const sub = (agentId: string, parentAgentId: string, extra: Partial<AgentRef> = {}): AgentRef => ({ sessionId: 's', agentId, kind: 'subagent', parentAgentId, parentToolCallId: 't1', ...extra });

describe('replay --tree refuses runs that contradict what they say of an agent, every problem told together', () => {
  const file = treeFileIn('contradictions.jsonl', [
    MAIN,
    sub('a', 'main', { part: 1 }),
    // Part 2 of a says it is a main agent (lines 7–9).
    { sessionId: 's', agentId: 'a', kind: 'main', part: 2 },
    sub('b', 'main', { part: 1 }),
    // Part 2 of b says a started it (lines 13–15).
    sub('b', 'a', { part: 2 }),
    // A main agent with a parent (line 16), and a sub-agent named main (line 19), in sessions of their own.
    { sessionId: 'm', agentId: 'main', kind: 'main', parentAgentId: 'lead' },
    { sessionId: 'n', agentId: 'lead', kind: 'main' },
    { sessionId: 'n', agentId: 'main', kind: 'subagent', parentAgentId: 'lead', parentToolCallId: 't1' },
  ]);

  it('exit 2, each issue at its header: no report, no stack (it used to replay with exit 0, the first run winning)', async () => {
    const { code, stdout, stderr } = await cli('replay', '--tree', file);
    expect([code, stdout]).toEqual([2, '']);
    expect(stderr).toContain(`${file}#3:line 7 field 'agent.kind': session s: this run of agent a says kind main, its run at ${file}#2 line 4 kind subagent`);
    expect(stderr).toContain(`${file}#5:line 13 field 'agent.parentAgentId': session s: this run of agent b says parent a, its run at ${file}#4 line 10 parent main`);
    expect(stderr).toContain(`${file}#6:line 16 field 'agent.parentAgentId': session m: main agent main names lead as its parent: the main agent is the one no agent started`);
    expect(stderr).toContain(`${file}#8:line 22 field 'agent.agentId': session n: this run says sub-agent main: main is the main agent's id`);
    expect(stderr).toContain('an agent is one kind, with one parent, in every run of it');
    expect(stderr).not.toMatch(/^\s+at /m);
  });
});

/** A run of `agent` with one Task call `t1`, placed as a native reader places it. */
function run(agent: AgentRef, source: string, headerLine: number): Trace {
  const made = trace([call(10, [toolCall('Task', {}, 5, { id: 't1' })])], { outcome: 'completed', origin: 'recorded' });
  return { ...made, source, headerLine, header: { ...made.header, agent } };
}

describe('the library refuses them too (sessionTrees, a tree built by hand)', () => {
  it('sessionTrees: each an issue with its file, line, field and code; a part that leaves out the parent its first part names is one', () => {
    const runs = [run(MAIN, 'f#1', 1), run(sub('a', 'main'), 'f#2', 4), run({ ...sub('a', 'main'), parentAgentId: undefined, parentToolCallId: undefined, part: 2 }, 'f#3', 7), run({ ...MAIN, sessionId: 'x', parentAgentId: 'p' }, 'g', 1)];
    const error = userErrorOf(() => sessionTrees(runs));
    expect(error.issues.map(({ file, line, field, code }) => ({ file, line, field, code }))).toEqual([
      { file: 'f#3', line: 7, field: 'agent.parentAgentId', code: 'conflicting_agent' },
      { file: 'g', line: 1, field: 'agent.parentAgentId', code: 'main_with_parent' },
    ]);
    expect(error.issues[0]!.message).toContain('this run of agent a says no parent, its run at f#2 line 4 parent main');
  });

  it('treeReplayer: a main agent with a parent, built by hand with no header of its own', () => {
    const bare = trace([call(10)], { outcome: 'completed' });
    const tree: SessionTree = { sessionId: 'h', agents: [{ agentId: 'main', kind: 'main', parentAgentId: 'boss', runs: [{ ...bare, source: 'h' }] }], notes: [] };
    expect(userErrorOf(() => treeReplayer(tree, { strategy: FULL_HISTORY, prices: MINI_TABLE })).issues[0]).toMatchObject({ file: 'h', field: 'agent.parentAgentId', code: 'main_with_parent' });
  });

  it('a tree a loop can make still groups, as before: parts that agree, a sub-agent of a sub-agent', () => {
    const fine = [run(MAIN, 'k#1', 1), run({ ...MAIN, part: 2 }, 'k#2', 4), run(sub('a', 'main'), 'k#3', 7), run(sub('b', 'a'), 'k#4', 10), run({ ...sub('b', 'a'), part: 2 }, 'k#5', 13)];
    const { trees } = sessionTrees(fine);
    expect(trees.map((tree) => [tree.agents.map((agent) => `${agent.agentId}:${agent.runs.length}`), tree.notes])).toEqual([[['main:2', 'a:1', 'b:2'], []]]);
  });
});

describe("a sub-agent's parentToolCallId that is no call of its parent: kept, told once for the tree", () => {
  const runs = () => [run(MAIN, 'u#1', 1), run({ ...sub('a', 'main'), parentToolCallId: 't9' }, 'u#2', 4), run({ ...sub('b', 'main'), parentToolCallId: 't8' }, 'u#3', 7), run(sub('c', 'main'), 'u#4', 10)];

  it('sessionTrees: one note naming each such agent and its id (c, linked by t1, not named); the tree still groups', () => {
    const { trees } = sessionTrees(runs());
    expect(trees[0]!.agents.map((agent) => [agent.agentId, agent.parentAgentId, agent.parentToolCallId])).toEqual([
      ['main', undefined, undefined],
      ['a', 'main', 't9'],
      ['b', 'main', 't8'],
      ['c', 'main', 't1'],
    ]);
    expect(trees[0]!.notes).toEqual([
      "session s: sub-agent a's parentToolCallId t9 is no tool call of main; sub-agent b's parentToolCallId t8 is no tool call of main: each replays unlinked, its start tied to no call of its parent (its calls count toward the tree)",
    ]);
  });

  it('replay --tree --format json: the note once in the tree, exit 0', async () => {
    const file = treeFileIn('unmatched.jsonl', [MAIN, sub('a', 'main', { parentToolCallId: 't9' })]);
    const { code, stdout } = await cli('replay', '--tree', file, '--format', 'json');
    expect(code).toBe(0);
    const said = "session s: sub-agent a's parentToolCallId t9 is no tool call of main: it replays unlinked";
    expect(stdout.split(said).length - 1).toBe(1);
  });

  it("the shared Claude Code sessions still read: every sub-agent linked to a call of its parent, no such note", async () => {
    const read: Trace[] = [];
    for await (const trace of loadTraceFiles(['../shared/agent-logs/claude-code/258c7280-ae70-4798-800f-63464d01a85d.jsonl.gz', '../shared/agent-logs/claude-code/ae4a77f8-aedd-4bc1-888f-c94edc91af04.jsonl.gz'])) read.push(trace);
    const { trees } = sessionTrees(read);
    expect(trees.map((tree) => [tree.agents.map((agent) => `${agent.agentId}:${agent.kind}:${agent.parentAgentId ?? '-'}`), tree.notes])).toEqual([
      [['main:main:-', 'a881341:subagent:main'], []],
      [['main:main:-', 'aac57f5:subagent:main'], []],
    ]);
  });
});
