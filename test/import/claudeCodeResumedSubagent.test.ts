/**
 * A Claude Code sub-agent resumed by a later Task call (`Task({resume: id})`; test/fixtures/claude-code-resumed):
 * Claude Code continues it in the same `agent-<id>.jsonl`, so the file holds two runs, each started by its own
 * Task call. Each part of the sub-agent is tied to the call that started or resumed its run, and a stop in the
 * resumed run ends the call that resumed it. Before, the first call's link stood for every run: a stop in the
 * second run was reported as ending tu1, which had already returned.
 */
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadTraceFiles } from '../../src/import/index.js';
import type { Trace } from '../../src/trace/types.js';
import { cli, tempDir } from '../cli/run.js';
import { collectAsync } from '../helpers.js';

const SESSION = 'aaaaaaaa-0000-0000-0000-000000000001';
const FIXTURE_DIR = 'test/fixtures/claude-code-resumed';
const SUBAGENT = 'a1b2c3d';

const subagentParts = (runs: Trace[]) => runs.filter((run) => run.header.agent?.agentId === SUBAGENT);

/** The tree's rows of `replay --tree --format json` with a per-agent step limit. */
async function replayTree(dir: string, maxSteps: number): Promise<{ agent: string; endedToolCall?: string }[]> {
  const r = await cli('replay', '--tree', dir, '--subagent-max-steps', String(maxSteps), '--format', 'json');
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout).trees[0].agents;
}

describe('a resumed Claude Code sub-agent', async () => {
  const runs = await collectAsync(loadTraceFiles([join(FIXTURE_DIR, `${SESSION}.jsonl`)]));

  it('each run of it is tied to the Task call that started or resumed it', () => {
    const parts = subagentParts(runs);
    expect(parts.map((run) => [run.header.agent?.part, run.header.agent?.parentToolCallId, run.calls.length])).toEqual([
      [1, 'tu1', 2],
      [2, 'tu2', 2],
    ]);
    expect(parts[0]!.header.importedFrom!.notes).toContain("sub-agent a1b2c3d ran 2 times (resumed: tu1, tu2): each run's parts are tied to the tool call that started or resumed it");
  });

  it('a stop in the resumed run ends the call that resumed it; one in the first run the call that started it', async () => {
    const stopped = async (maxSteps: number) => (await replayTree(FIXTURE_DIR, maxSteps)).find((agent) => agent.agent === SUBAGENT)!.endedToolCall;
    expect(await stopped(3)).toBe('main/tu2 ended with max_steps'); // was main/tu1
    expect(await stopped(2)).toBe('main/tu2 ended with max_steps'); // refused before the resumed run's first call
    expect(await stopped(1)).toBe('main/tu1 ended with max_steps');
  });

  it('without dates, the runs are tied to the calls in order, turn by turn', async () => {
    const dir = tempDir();
    cpSync(FIXTURE_DIR, dir, { recursive: true });
    for (const file of [join(dir, `${SESSION}.jsonl`), join(dir, SESSION, 'subagents', `agent-${SUBAGENT}.jsonl`)]) {
      const lines = readFileSync(file, 'utf8').trim().split('\n').map((line) => JSON.parse(line));
      writeFileSync(file, lines.map(({ timestamp: _t, ...line }) => JSON.stringify(line)).join('\n') + '\n');
    }
    const undated = await collectAsync(loadTraceFiles([join(dir, `${SESSION}.jsonl`)]));
    expect(subagentParts(undated).map((run) => run.header.agent?.parentToolCallId)).toEqual(['tu1', 'tu2']);
  });

  it('a run that ends mid-turn is cut there, so that no part spans two Task calls', async () => {
    const dir = tempDir();
    cpSync(FIXTURE_DIR, dir, { recursive: true });
    const file = join(dir, SESSION, 'subagents', `agent-${SUBAGENT}.jsonl`);
    // The first run's answer dropped: it ends on its Bash call, and the resumed run's prompt follows.
    const lines = readFileSync(file, 'utf8').trim().split('\n').filter((line) => !line.includes('"msg_x2"'));
    writeFileSync(file, lines.join('\n') + '\n');
    const parts = subagentParts(await collectAsync(loadTraceFiles([join(dir, `${SESSION}.jsonl`)])));
    expect(parts.map((run) => [run.header.agent?.parentToolCallId, run.calls.length, run.end.status])).toEqual([
      ['tu1', 1, 'ended mid-turn'],
      ['tu2', 2, 'end_turn'],
    ]);
  });
});
