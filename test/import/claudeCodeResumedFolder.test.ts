/**
 * A resumed Claude Code session with its own `<new>/subagents/` folder, whose file carries mostly the old
 * session's id (review of the sub-agent identity check, M3 finding 3): the conversation copied at the resume
 * keeps the old id, the resume's own lines carry the new one, and a sub-agent its own Task call started is
 * in the new session's folder, its lines under the new id. The tree takes the sub-agents' expected owner
 * from the session id the file's lines give (sessionTree.ts: its name's, once a line carries it), so that
 * sub-agent is read as the new session's, not refused, alone or beside the original.
 * Built from the real session 258c7280 (claudeCodeWildFixture.ts), whose tree costs $12.2407.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli } from '../cli/run.js';
import { COPY, copyFile, mainLines, SESSION, sessionFolder, subagentLines } from './claudeCodeWildFixture.js';

const BASELINE_USD = 12.2407;
const SUBAGENT = 'a881341';
/** Lines of the original copied at the resume (under its id): the rest (its Task call of a881341 at line 1473 among them) are the resume's own. */
const COPIED_LINES = 1400;
const round4 = (usd: number): number => Math.round(usd * 1e4) / 1e4;

type Line = Record<string, any>;

/** A line as the resumed session writes it: under its id, its response (if any) a new one (new message.id and requestId). */
function resumed(row: Line): Line {
  const own: Line = { ...row, sessionId: COPY };
  if (typeof row.requestId === 'string') own.requestId = `resumed_${row.requestId}`;
  if (typeof row.message?.id === 'string') own.message = { ...row.message, id: `resumed_${row.message.id}` };
  return own;
}

/** The folder with the original session and a resumed one beside it, with its own sub-agent folder. */
function resumedFolder(): string {
  const dir = sessionFolder();
  const rows = mainLines();
  const lines = [...rows.slice(0, COPIED_LINES), ...rows.slice(COPIED_LINES).map(resumed)];
  writeFileSync(copyFile(dir), lines.map((row) => JSON.stringify(row)).join('\n') + '\n');
  const folder = join(dir, COPY, 'subagents');
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, `agent-${SUBAGENT}.jsonl`), subagentLines().map((row) => JSON.stringify(resumed(row))).join('\n') + '\n');
  return dir;
}

type Tree = { sessionId: string; totals: { costUsd: number }; agents: { agent: string; parent: string; calls: number }[] };

async function trees(...args: string[]): Promise<Tree[]> {
  const run = await cli('replay', '--tree', ...args, '--format', 'json');
  expect(run.code, run.stderr).toBe(0);
  expect(run.stderr).not.toContain('not_this_subagent');
  expect(run.stderr).not.toMatch(new RegExp(`sub-agent ${SUBAGENT} .*has no transcript file`));
  return JSON.parse(run.stdout).trees as Tree[];
}

describe('a resumed session whose lines carry mostly the old id, with its own subagents/ folder', () => {
  it('read alone: one tree under the new id, its sub-agent read from its own folder and linked to its Task call', async () => {
    const dir = resumedFolder();
    const [tree, ...more] = await trees(copyFile(dir));
    expect(more).toEqual([]);
    expect(tree!.sessionId).toBe(COPY);
    expect(tree!.agents.filter((agent) => agent.agent === SUBAGENT).map((agent) => [agent.parent, agent.calls])).toEqual([['main', 3]]);
  });

  it('beside the original: its copied calls counted there, its own and its sub-agent\'s in its own tree', async () => {
    const dir = resumedFolder();
    const found = await trees(dir);
    expect(found.map((tree) => tree.sessionId).sort()).toEqual([COPY, SESSION].sort());
    const original = found.find((tree) => tree.sessionId === SESSION)!;
    expect(round4(original.totals.costUsd)).toBe(BASELINE_USD);
    for (const tree of found) expect(tree.agents.filter((agent) => agent.agent === SUBAGENT).map((agent) => [agent.parent, agent.calls])).toEqual([['main', 3]]);
  });
});
