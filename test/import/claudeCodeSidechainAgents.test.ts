/**
 * Sub-agents written inside the session's own transcript (older Claude Code: sidechain lines, no agent files;
 * test/fixtures/claude-code-sidechain holds two, each started by its own Task call): each is an agent of its
 * own, linked to the Task call whose prompt is its first prompt, as the separate-file layout gives them, so a
 * per-agent limit binds each sub-agent. Before, all sidechain lines were one agent `sidechain`, unlinked: two
 * sub-agents of 2 steps each were stopped at 2 of 4 by `--subagent-max-steps 2`.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadTraceFiles } from '../../src/import/index.js';
import type { Trace } from '../../src/trace/types.js';
import { cli, tempDir } from '../cli/run.js';
import { collectAsync } from '../helpers.js';

const SESSION = 'aaaaaaaa-0000-0000-0000-000000000005';
const SESSION_FILE = join('test/fixtures/claude-code-sidechain', `${SESSION}.jsonl`);

const agents = (runs: Trace[]) => runs.map((run) => [run.header.agent?.agentId, run.header.agent?.parentAgentId, run.header.agent?.parentToolCallId, run.calls.length]);

/** The fixture with `edit` applied to each sidechain line (parsed), in a temporary folder. */
async function importEdited(edit: (line: any, k: number) => any): Promise<Trace[]> {
  const file = join(tempDir(), `${SESSION}.jsonl`);
  let k = 0;
  const lines = readFileSync(SESSION_FILE, 'utf8').trim().split('\n').map((text) => JSON.parse(text));
  writeFileSync(file, lines.map((line) => JSON.stringify(line.isSidechain ? edit(line, k++) : line)).join('\n') + '\n');
  return collectAsync(loadTraceFiles([file]));
}

describe('sub-agents of sidechain lines in the session transcript', async () => {
  const runs = await collectAsync(loadTraceFiles([SESSION_FILE]));

  it('one agent per sub-agent, each linked to the Task call whose prompt is its first', () => {
    expect(agents(runs)).toEqual([
      ['main', undefined, undefined, 3],
      ['sidechain-1', 'main', 'tu0', 2],
      ['sidechain-2', 'main', 'tu1', 2],
    ]);
    expect(runs[1]!.header.importedFrom!.notes).toEqual([
      '2 calls of sidechain lines in the session transcript (older Claude Code wrote sub-agents there) (sub-agent 1 of 2 there): one sub-agent, linked to Task call tu0, whose prompt is its first prompt',
    ]);
  });

  it('a per-agent step limit binds each sub-agent, not their sum', async () => {
    const r = await cli('replay', '--tree', SESSION_FILE, '--subagent-max-steps', '2', '--format', 'json');
    expect(r.code, r.stderr).toBe(0);
    const rows = JSON.parse(r.stdout).trees[0].agents as { agent: string; stopReason?: string; steps: number }[];
    expect(rows.map((row) => [row.agent, row.stopReason])).toEqual([
      ['main', 'completed'],
      ['sidechain-1', 'completed'],
      ['sidechain-2', 'completed'],
    ]);
  });

  it('lines that name their agent (agentId) are that agent, linked by the Task call its prompt asked', async () => {
    const named = await importEdited((line, k) => ({ ...line, agentId: k < 4 ? 'a000' : 'a111' }));
    expect(agents(named).slice(1)).toEqual([
      ['a000', 'main', 'tu0', 2],
      ['a111', 'main', 'tu1', 2],
    ]);
  });

  it('lines chained by parentUuid stay with their sub-agent when the two interleave', async () => {
    const text = readFileSync(SESSION_FILE, 'utf8').trim().split('\n').map((line) => JSON.parse(line));
    const side = text.filter((line) => line.isSidechain);
    // Two sub-agents' lines chained (uuid → parentUuid), then interleaved: a0 b0 a1 b1 a2 b2 a3 b3.
    const chained = side.map((line, k) => ({ ...line, uuid: `u${k}`, parentUuid: k % 4 === 0 ? null : `u${k - 1}` }));
    const mixed = [0, 1, 2, 3].flatMap((k) => [chained[k], chained[k + 4]]);
    const main = text.filter((line) => !line.isSidechain);
    const file = join(tempDir(), `${SESSION}.jsonl`);
    writeFileSync(file, [main[0], main[1], main[3], ...mixed, main[2], main[4], main[5]].map((line) => JSON.stringify(line)).join('\n') + '\n');
    const interleaved = await collectAsync(loadTraceFiles([file]));
    expect(interleaved.slice(1).map((run) => [run.header.agent?.agentId, run.header.agent?.parentToolCallId, run.calls.map((call) => call.toolCalls?.[0]?.id ?? 'answer')])).toEqual([
      ['sidechain-1', 'tu0', ['ts0', 'answer']],
      ['sidechain-2', 'tu1', ['ts1', 'answer']],
    ]);
  });

  it('a sub-agent no Task call asked is imported unlinked, with a note', async () => {
    const unasked = await importEdited((line) => (line.type === 'user' && typeof line.message.content === 'string' ? { ...line, message: { ...line.message, content: `${line.message.content}!` } } : line));
    expect(agents(unasked).slice(1).map(([id, , call]) => [id, call])).toEqual([
      ['sidechain-1', undefined],
      ['sidechain-2', undefined],
    ]);
    expect(unasked[1]!.header.importedFrom!.notes![0]).toContain('not linked to a Task call: no Task call of the session asked its first prompt');
  });
});
