/**
 * A forked Claude Code session's link to a sub-agent of the session it was forked from (review of the
 * sub-agent identity check, M3 finding 1): when a session forks, Claude Code 2.1.216 symlinks the transcripts
 * of the sub-agents still running into the new session's `subagents/` folder; their lines keep the old
 * session's `sessionId` (anthropics/claude-code#79764). Such a tree was refused (exit 2, "restore the file that
 * session N wrote"): it is read, the sub-agent noted as the forked-from session's, and counted once when both
 * sessions are read together (in the tree of the session whose folder holds it). A copy (no link), a link to
 * another agent's transcript, and a link whose lines name a third session stay refused.
 * Fixture: test/fixtures/claude-code copied to a temporary folder, the fork made here.
 */
import { cpSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { InputIssue } from '../../src/errors.js';
import { importClaudeCodeText } from '../../src/import/claudeCode.js';
import { loadTraceFiles } from '../../src/import/index.js';
import { cli, tempDir } from '../cli/run.js';
import { asyncUserErrorOf, collectAsync } from '../helpers.js';

const OLD = 'ae4a77f8-aedd-4bc1-888f-c94edc91af04';
/** The fork's id: sorts before OLD, so that the last rule of copiedCalls (first by name) would make the fork keep the calls both hold. */
const NEW = '11112222-aedd-4bc1-888f-c94edc91af04';
const AGENT = 'aac57f5';
const FIXTURE_DIR = 'test/fixtures/claude-code';

interface Fork {
  dir: string;
  old: string;
  fork: string;
  /** The old session's sub-agent file, and where the fork's `subagents/` folder has it. */
  target: string;
  place: string;
}

/** The fixture session and a fork of it beside it: the old file copied under the new id, its `subagents/` folder made, nothing in it yet. */
function forkedSession(): Fork {
  const dir = tempDir();
  cpSync(FIXTURE_DIR, dir, { recursive: true });
  const old = join(dir, `${OLD}.jsonl`);
  const fork = join(dir, `${NEW}.jsonl`);
  writeFileSync(fork, readFileSync(old, 'utf8').replaceAll(OLD, NEW));
  mkdirSync(join(dir, NEW, 'subagents'), { recursive: true });
  return { dir, old, fork, target: join(dir, OLD, 'subagents', `agent-${AGENT}.jsonl`), place: join(dir, NEW, 'subagents', `agent-${AGENT}.jsonl`) };
}

/** The fork with its link to the old session's sub-agent, as Claude Code makes it for one still running. */
function linkedFork(): Fork {
  const fork = forkedSession();
  symlinkSync(fork.target, fork.place);
  return fork;
}

async function issuesOf(session: string): Promise<InputIssue[]> {
  return (await asyncUserErrorOf(() => collectAsync(loadTraceFiles([session])))).issues;
}

type TreeAgent = { agent: string; parent: string; calls: number; costUsd: number };

describe('a forked session whose subagents/ folder links a sub-agent of the session it was forked from', () => {
  it('read alone: imported, the sub-agent linked to its Task call and noted as the forked-from session\'s (was exit 2)', async () => {
    const { fork } = linkedFork();
    const runs = await collectAsync(loadTraceFiles([fork]));
    const agent = runs.filter((run) => run.header.agent?.agentId === AGENT);
    expect(agent.flatMap((run) => run.calls)).toHaveLength(3);
    expect(agent[0]!.header.agent).toMatchObject({ sessionId: NEW, parentAgentId: 'main' });
    expect(agent[0]!.header.importedFrom!.notes).toContain(
      `agent-${AGENT}.jsonl is a link to sub-agent ${AGENT}'s transcript in session ${OLD}'s subagents/ folder, the session this one was forked from (Claude Code links a sub-agent still running at a fork into the new session's folder; its lines keep the old session's id): read as this session's sub-agent`,
    );
    const run = await cli('replay', '--tree', fork);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).not.toContain('restore the agent-');
    expect(run.stderr).not.toMatch(/sub-agent aac57f5 .*has no transcript file/);
  });

  it('the text path (importClaudeCodeText) reads it too', () => {
    const { fork } = linkedFork();
    const runs = importClaudeCodeText(readFileSync(fork, 'utf8'), fork);
    expect(runs.filter((run) => run.header.agent?.agentId === AGENT).flatMap((run) => run.calls)).toHaveLength(3);
  });

  it('read with the session it was forked from (a folder): its calls counted once, in the old session\'s tree, linked there', async () => {
    const { dir, old } = linkedFork();
    const alone = await cli('replay', '--tree', old, '--format', 'json');
    expect(alone.code, alone.stderr).toBe(0);
    const oldUsd = JSON.parse(alone.stdout).summary.costUsd as number;
    const both = await cli('replay', '--tree', dir, '--format', 'json');
    expect(both.code, both.stderr).toBe(0); // was 2
    const report = JSON.parse(both.stdout);
    expect(report.summary.trees).toBe(1);
    expect(report.summary.costUsd).toBeCloseTo(oldUsd, 10);
    const agents = (report.trees as { sessionId: string; agents: TreeAgent[] }[]).flatMap((tree) => tree.agents.map((agent) => ({ ...agent, sessionId: tree.sessionId })));
    expect(agents.filter((agent) => agent.agent === AGENT).map((agent) => [agent.sessionId, agent.parent, agent.calls])).toEqual([[OLD, 'main', 3]]);
    expect(both.stderr).toContain(`${NEW}.jsonl: all 13 calls are copies of calls of ${OLD}.jsonl`);
    expect(both.stderr).not.toMatch(/sub-agent aac57f5 .*has no transcript file/);
  });

  it('read with it, named in either order: the same total, the sub-agent once, in the old session\'s tree', async () => {
    const { old, fork } = linkedFork();
    const totals: number[] = [];
    for (const files of [[old, fork], [fork, old]]) {
      const run = await cli('replay', '--tree', ...files, '--format', 'json');
      expect(run.code, run.stderr).toBe(0);
      const report = JSON.parse(run.stdout);
      const trees = report.trees as { sessionId: string; agents: TreeAgent[] }[];
      expect(trees.flatMap((tree) => tree.agents.filter((agent) => agent.agent === AGENT).map(() => tree.sessionId))).toEqual([OLD]);
      totals.push(report.summary.costUsd as number);
    }
    expect(totals[0]).toBe(totals[1]);
  });
});

describe('what stays refused in a forked session\'s subagents/ folder', () => {
  it('a copy of the old session\'s sub-agent (no link), the old session beside it: sessionId refused at line 1', async () => {
    const { fork, target, place } = forkedSession();
    cpSync(target, place);
    const issues = await issuesOf(fork);
    expect(issues.map((issue) => [issue.file, issue.line, issue.field])).toEqual([[place, 1, 'sessionId']]);
  });

  it('a link to the old session\'s main transcript: isSidechain refused (the session counted twice)', async () => {
    const { fork, old, place } = forkedSession();
    symlinkSync(old, place);
    const issues = await issuesOf(fork);
    expect(issues.map((issue) => [issue.file, issue.field])).toContainEqual([place, 'isSidechain']);
  });

  it('a link to another sub-agent\'s transcript in the old session\'s folder: agentId refused', async () => {
    const { fork, target, place } = forkedSession();
    const lines = readFileSync(target, 'utf8').trim().split('\n').map((text) => ({ ...JSON.parse(text), agentId: 'a881341' }));
    writeFileSync(target, lines.map((value) => JSON.stringify(value)).join('\n') + '\n');
    symlinkSync(target, place);
    const issues = await issuesOf(fork);
    expect(issues.map((issue) => [issue.line, issue.field])).toEqual([[1, 'agentId']]);
  });

  it('a link whose lines name a third session, not the one whose folder holds it: sessionId refused', async () => {
    const { fork, target, place } = forkedSession();
    const third = '99999999-aedd-4bc1-888f-c94edc91af04';
    writeFileSync(target, readFileSync(target, 'utf8').replaceAll(OLD, third));
    symlinkSync(target, place);
    const issues = await issuesOf(fork);
    expect(issues.map((issue) => [issue.line, issue.field])).toEqual([[1, 'sessionId']]);
    expect(issues[0]!.message).toContain(`sessionId is "${third}"`);
  });
});
