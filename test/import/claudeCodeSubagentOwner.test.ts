/**
 * A session tree reads `<session>/subagents/agent-<id>.jsonl` (and a 2.0.x `agent-<id>.jsonl` beside the
 * session) as sub-agent `<id>` of that session: a file there whose lines say it is another agent's — the
 * session's own transcript copied over it, another session's sub-agent, an edited `sessionId` — is refused
 * (exit 2) naming the file, line and field (hostile-input review HX1). Fixtures: copies of
 * test/fixtures/claude-code and test/fixtures/claude-code-20, edited here.
 */
import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { InputIssue } from '../../src/errors.js';
import { importClaudeCodeText } from '../../src/import/claudeCode.js';
import { loadTraceFiles } from '../../src/import/index.js';
import { cli, tempDir } from '../cli/run.js';
import { asyncUserErrorOf, collectAsync } from '../helpers.js';
import { AGENT as AGENT_20, projectCopy, SESSION as SESSION_20 } from './claudeCode20Fixture.js';

const SESSION = 'ae4a77f8-aedd-4bc1-888f-c94edc91af04';
const OTHER_SESSION = '258c7280-ae70-4798-800f-63464d01a85d';
const AGENT = 'aac57f5';
const FIXTURE_DIR = 'test/fixtures/claude-code';

/** A copy of the fixture tree in a temporary folder: its session file and its sub-agent file. */
function treeCopy(): { session: string; subagent: string; compaction: string } {
  const dir = tempDir();
  cpSync(FIXTURE_DIR, dir, { recursive: true });
  const subagents = join(dir, SESSION, 'subagents');
  return { session: join(dir, `${SESSION}.jsonl`), subagent: join(subagents, `agent-${AGENT}.jsonl`), compaction: join(subagents, 'agent-acompact-946d2b.jsonl') };
}

/** A file's JSON lines, edited one by one (`edit` gets the object and its 1-based line number). */
function rewrite(file: string, edit: (value: Record<string, unknown>, line: number) => void, from = file): void {
  const lines = readFileSync(from, 'utf8').trim().split('\n');
  writeFileSync(file, lines.map((text, i) => {
    const value = JSON.parse(text) as Record<string, unknown>;
    edit(value, i + 1);
    return JSON.stringify(value);
  }).join('\n') + '\n');
}

/** The first line of the session file that is of the main chain (`isSidechain: false`). */
function firstMainChainLine(session: string): number {
  return readFileSync(session, 'utf8').split('\n').findIndex((text) => text.includes('"isSidechain":false')) + 1;
}

async function issuesOf(session: string): Promise<InputIssue[]> {
  return (await asyncUserErrorOf(() => collectAsync(loadTraceFiles([session])))).issues;
}

describe('a sub-agent file that is not that sub-agent\'s is refused where the tree reads it', () => {
  it('(a) the session file copied over the sub-agent file: refused at its first main-chain line, field isSidechain (was counted twice)', async () => {
    const copy = treeCopy();
    cpSync(copy.session, copy.subagent);
    const issues = await issuesOf(copy.session);
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatchObject({ file: copy.subagent, line: firstMainChainLine(copy.session), field: 'isSidechain', code: 'not_this_subagent' });
    expect(issues[0]!.message).toBe(`isSidechain is false: the file holds session ${SESSION}'s own transcript (a main-chain line), not sub-agent ${AGENT} of session ${SESSION}, whose file its name and place make it`);
    expect(issues[0]!.hint).toContain(`restore the agent-${AGENT}.jsonl that session ${SESSION} wrote`);
  });

  it('(b) another session\'s sub-agent under this name: agentId and sessionId each named at line 1; the file removed, as the hint says, its calls are warned of as left out (exit 0)', async () => {
    const copy = treeCopy();
    rewrite(copy.subagent, (value) => Object.assign(value, { agentId: 'a881341', sessionId: OTHER_SESSION }));
    const issues = await issuesOf(copy.session);
    expect(issues.map((issue) => [issue.file, issue.line, issue.field])).toEqual([
      [copy.subagent, 1, 'agentId'],
      [copy.subagent, 1, 'sessionId'],
    ]);
    expect(issues[0]!.message).toContain(`the file holds sub-agent a881341 of session ${OTHER_SESSION}, not sub-agent ${AGENT} of session ${SESSION}`);
    const run = await cli('replay', '--tree', copy.session, '--max-cost', '2');
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`${copy.subagent}:line 1 field 'agentId': agentId is "a881341"`);
    expect(run.stderr).toContain('or remove this file: the sub-agent\'s calls are then warned of as left out');
    expect(run.stderr).not.toMatch(/\n\s+at /); // no stack trace
    rmSync(copy.subagent);
    const removed = await cli('replay', '--tree', copy.session, '--max-cost', '2');
    expect(removed.code, removed.stderr).toBe(0);
    expect(removed.stderr).toMatch(new RegExp(`sub-agent ${AGENT} \\(started by tool call \\S+, ${SESSION}\\.jsonl line \\d+\\) has no transcript file \\(looked for as [^)]*agent-${AGENT}\\.jsonl or \\.jsonl\\.gz[^)]*\\): its calls and their cost are left out of the totals`));
  });

  it('(c) only the sessionId edited: refused at line 1, field sessionId', async () => {
    const copy = treeCopy();
    rewrite(copy.subagent, (value) => Object.assign(value, { sessionId: '11111111-aedd-4bc1-888f-c94edc91af04' }));
    const issues = await issuesOf(copy.session);
    expect(issues.map((issue) => [issue.line, issue.field])).toEqual([[1, 'sessionId']]);
    expect(issues[0]!.message).toContain(`sessionId is "11111111-aedd-4bc1-888f-c94edc91af04": the file holds sub-agent ${AGENT} of session 11111111-aedd-4bc1-888f-c94edc91af04, not sub-agent ${AGENT} of session ${SESSION}`);
  });

  it('every line is checked: one line of another agent midway is named by its line; the text path (importClaudeCodeText) refuses it too', async () => {
    const copy = treeCopy();
    rewrite(copy.subagent, (value, line) => (line === 7 ? Object.assign(value, { agentId: 'a881341' }) : undefined));
    expect((await issuesOf(copy.session)).map((issue) => [issue.line, issue.field])).toEqual([[7, 'agentId']]);
    expect(() => importClaudeCodeText(readFileSync(copy.session, 'utf8'), copy.session)).toThrow(/agent-aac57f5\.jsonl:line 7 field 'agentId'/);
  });

  it('a compaction file is held to its name too (agentId acompact-…)', async () => {
    const copy = treeCopy();
    rewrite(copy.compaction, (value) => Object.assign(value, { agentId: 'acompact-000000' }));
    expect((await issuesOf(copy.session)).map((issue) => [issue.file, issue.line, issue.field])).toEqual([[copy.compaction, 1, 'agentId']]);
  });

  it('a line lacking the three fields is not held to them: the tree imports as before', async () => {
    const copy = treeCopy();
    rewrite(copy.subagent, (value) => {
      if (value.type === 'progress') for (const field of ['sessionId', 'agentId', 'isSidechain']) delete value[field];
    });
    const runs = await collectAsync(loadTraceFiles([copy.session]));
    expect(runs.filter((run) => run.header.agent?.agentId === AGENT).flatMap((run) => run.calls)).toHaveLength(3);
  });

  it('the same file read on its own (no tree) still imports, as the agent its lines name', async () => {
    const copy = treeCopy();
    rewrite(copy.subagent, (value) => Object.assign(value, { agentId: 'a881341', sessionId: OTHER_SESSION }));
    const runs = await collectAsync(loadTraceFiles([copy.subagent]));
    expect(runs.map((run) => run.header.agent)).toEqual([{ sessionId: OTHER_SESSION, agentId: 'a881341', kind: 'subagent' }]);
  });

  it('Claude Code 2.0.x: an agent file beside the session that names it but holds another agent is refused', async () => {
    const copy = projectCopy();
    rewrite(copy.agent, (value, line) => (line === 2 ? Object.assign(value, { agentId: 'a0ther00' }) : undefined));
    const issues = await issuesOf(copy.session);
    expect(issues.map((issue) => [issue.file, issue.line, issue.field])).toEqual([[copy.agent, 2, 'agentId']]);
    expect(issues[0]!.message).toContain(`not sub-agent ${AGENT_20} of session ${SESSION_20}`);
  });
});
