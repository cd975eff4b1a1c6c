/**
 * Codex sub-agents: a spawned thread's rollout names its parent thread (session_meta `source.subagent.
 * thread_spawn`, codex-rs/protocol `SubAgentSource::ThreadSpawn`), and the parent's `spawn_agent` output
 * names the thread it spawned (`{"agent_id": …}`). Rollouts written here from those shapes: a main
 * thread that spawns a sub-agent, which spawns its own (depth 2); read as one session tree.
 */
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadTraceFiles } from '../../src/import/index.js';
import { sessionTrees } from '../../src/tree/group.js';
import type { Trace } from '../../src/trace/types.js';
import { cli, tempDir } from '../cli/run.js';
import { collectAsync } from '../helpers.js';

const MAIN = '019a0000-0000-7000-8000-00000000000a';
const CHILD = '019a0000-0000-7000-8000-00000000000b';
const GRANDCHILD = '019a0000-0000-7000-8000-00000000000c';

/** A rollout of one thread: `calls` model calls, each a spawn (output naming `spawned`) or a shell call, then an answer. */
function rollout(thread: string, options: { source?: unknown; spawns?: (string | null)[]; startMs: number }): string {
  let ms = options.startMs;
  const at = (step: number) => new Date((ms += step)).toISOString();
  const lines: unknown[] = [];
  const line = (type: string, payload: unknown, step: number) => lines.push({ timestamp: at(step), type, payload });
  line('session_meta', { id: thread, timestamp: at(0), cwd: '/w', originator: 'codex_cli_rs', cli_version: '0.60.0', instructions: null, ...(options.source === undefined ? {} : { source: options.source }) }, 0);
  line('turn_context', { cwd: '/w', approval_policy: 'never', sandbox_policy: { type: 'read-only' }, model: 'gpt-5', effort: 'medium', summary: 'auto' }, 5);
  line('event_msg', { type: 'user_message', message: `work for ${thread}`, kind: 'plain' }, 1);
  let total = 0;
  const count = (input: number, output: number) => {
    total += input + output;
    line('event_msg', { type: 'token_count', info: { total_token_usage: { input_tokens: total, cached_input_tokens: 0, output_tokens: 0, reasoning_output_tokens: 0, total_tokens: total }, last_token_usage: { input_tokens: input, cached_input_tokens: 0, output_tokens: output, reasoning_output_tokens: 0, total_tokens: input + output } } }, 20);
  };
  (options.spawns ?? []).forEach((spawned, i) => {
    const callId = `call_${thread.slice(-1)}${i}`;
    line('response_item', { type: 'function_call', name: 'spawn_agent', arguments: JSON.stringify({ message: 'look into it' }), call_id: callId }, 300);
    count(1000 + i, 50);
    const output = spawned === null ? 'spawn failed: too many agents' : JSON.stringify({ agent_id: spawned });
    line('response_item', { type: 'function_call_output', call_id: callId, output }, 100);
  });
  line('response_item', { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'done' }] }, 400);
  count(2000, 30);
  return lines.map((l) => JSON.stringify(l)).join('\n') + '\n';
}

const spawnedBy = (parent: string, depth: number, nickname?: string) => ({ subagent: { thread_spawn: { parent_thread_id: parent, depth, ...(nickname ? { agent_nickname: nickname } : {}), agent_role: 'explorer' } } });

function writeSession(which: ('main' | 'child' | 'grandchild')[]): string {
  const dir = tempDir();
  const files = {
    main: rollout(MAIN, { spawns: [CHILD, null], startMs: Date.UTC(2025, 10, 3, 9) }),
    child: rollout(CHILD, { source: spawnedBy(MAIN, 1, 'Euclid'), spawns: [GRANDCHILD], startMs: Date.UTC(2025, 10, 3, 9, 0, 1) }),
    grandchild: rollout(GRANDCHILD, { source: spawnedBy(CHILD, 2), startMs: Date.UTC(2025, 10, 3, 9, 0, 2) }),
  };
  for (const name of which) writeFileSync(join(dir, `rollout-2025-11-03T09-00-00-${name}.jsonl`), files[name]);
  return dir;
}

async function runsOf(dir: string): Promise<Trace[]> {
  return collectAsync(loadTraceFiles(readdirSync(dir).map((name) => join(dir, name))));
}

describe('Codex sub-agents', () => {
  it('a spawned rollout is a sub-agent of its parent thread; the spawn call names the thread it started', async () => {
    const runs = await runsOf(writeSession(['main', 'child', 'grandchild']));
    const byThread = (id: string) => runs.find((run) => run.header.agent?.agentId === id || (id === MAIN && run.header.agent?.agentId === 'main'))!;
    expect(byThread(MAIN).header.agent).toEqual({ sessionId: MAIN, agentId: 'main', kind: 'main' });
    // spawn_agent returns at launch and the parent waits later (`wait`): the sub-agent ran in the background.
    expect(byThread(CHILD).header.agent).toEqual({ sessionId: MAIN, agentId: CHILD, kind: 'subagent', parentAgentId: 'main', background: true });
    expect(byThread(CHILD).source).toMatch(/#agent-Euclid$/);
    // Depth 2: the parent is a sub-agent, named by its thread (the tree joins it there).
    expect(byThread(GRANDCHILD).header.agent).toEqual({ sessionId: CHILD, agentId: GRANDCHILD, kind: 'subagent', parentAgentId: CHILD, background: true });
    const spawns = byThread(MAIN).calls.flatMap((call) => call.toolCalls ?? []);
    expect(spawns.map((tool) => [tool.id, tool.startedAgentId])).toEqual([
      ['call_a0', CHILD],
      ['call_a1', undefined], // a failed spawn names no thread
    ]);
  });

  it('the three rollouts are one session tree, each sub-agent linked to the spawn call that started it', async () => {
    const { trees, loose } = sessionTrees(await runsOf(writeSession(['grandchild', 'child', 'main'])));
    expect(loose).toEqual([]);
    expect(trees).toHaveLength(1);
    const [tree] = trees;
    expect(tree!.sessionId).toBe(MAIN);
    expect(tree!.notes).toEqual([]);
    expect(tree!.agents.map((a) => [a.agentId, a.kind, a.parentAgentId, a.parentToolCallId])).toEqual([
      ['main', 'main', undefined, undefined],
      [CHILD, 'subagent', 'main', 'call_a0'],
      [GRANDCHILD, 'subagent', CHILD, 'call_b0'],
    ]);
  });

  it('a sub-agent without its parent among the inputs still joins a tree, with a note', async () => {
    const { trees } = sessionTrees(await runsOf(writeSession(['child'])));
    expect(trees).toHaveLength(1);
    expect(trees[0]!.notes.join('\n')).toContain('no main agent among the inputs');
  });

  it('sub-agents naming each other as parents (a damaged log) join one tree, without looping, which is refused (src/tree/treeIssues.ts)', () => {
    const run = (agentId: string, sessionId: string, parentAgentId: string): Trace => ({
      source: agentId,
      header: { type: 'header', schema: 'loopcost.trace/1', model: 'gpt-5', systemTokens: 10, goalTokens: 5, agent: { sessionId, agentId, kind: 'subagent', parentAgentId } },
      calls: [{ type: 'call', outputTokens: 5 }],
      end: { type: 'end', outcome: 'completed' },
    });
    expect(() => sessionTrees([run('A', 'B', 'B'), run('B', 'A', 'A'), run('C', 'C', 'main')])).toThrow("session A: agents B and A are each other's parents");
  });

  it('replay --tree reads the folder as one tree of three agents under one budget', async () => {
    const dir = writeSession(['main', 'child', 'grandchild']);
    const run = await cli('replay', '--tree', dir, '--format', 'json');
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout);
    expect(report.trees).toHaveLength(1);
    expect(report.trees[0].agents.map((a: { agent: string; parent?: string; parentToolCallId?: string }) => [a.agent, a.parent, a.parentToolCallId])).toEqual([
      ['main', undefined, undefined],
      [CHILD, 'main', 'call_a0'],
      [GRANDCHILD, CHILD, 'call_b0'],
    ]);
    expect(report.trees[0].notes ?? []).toEqual([]);
    // Six calls in all; a tree cap of 4 stops the sub-agent, and its own sub-agent with it. Its spawn call had
    // returned at launch (the sub-agent ran in the background): no call ends with it.
    const capped = JSON.parse((await cli('replay', '--tree', dir, '--max-steps', '4', '--format', 'json')).stdout);
    expect(capped.trees[0].agents.map((a: { agent: string; stopReason: string; endedToolCall?: unknown; background?: boolean }) => [a.agent, a.stopReason, a.endedToolCall, a.background])).toEqual([
      ['main', 'completed', undefined, undefined],
      [CHILD, 'max_steps', undefined, true],
      [GRANDCHILD, 'max_steps', undefined, true],
    ]);
  });
});
