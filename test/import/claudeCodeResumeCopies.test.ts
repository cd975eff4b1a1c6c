/**
 * A resumed or forked Claude Code session's file read with the session it copied (review S, finding A):
 * a copy file whose every call is counted in the original is read and said, not refused, named or in a
 * folder; a copy given the new session's id stays out of the original's tree without splitting it, and a
 * resume's own calls form its own session, with no false "no transcript" warning for the copied Task call.
 * Built from the real session 258c7280 (claudeCodeWildFixture.ts), whose tree costs $12.2407.
 */
import { describe, expect, it } from 'vitest';
import { cli } from '../cli/run.js';
import { COPY, copyFile, mainLines, SESSION, sessionFile, sessionFolder, withResumeCopy } from './claudeCodeWildFixture.js';

const BASELINE_USD = 12.2407; // $12.2257 before the sub-agent's last output was its Task result's (997 tokens, not 1)
const round4 = (usd: number): number => Math.round(usd * 1e4) / 1e4;

/** The command run in process (test/cli/run.ts cli: main's exit code and output, as bin/loopcost.js would give them). */
async function loopcost(...args: string[]): Promise<{ status: number; stdout: string; stderr: string }> {
  const { code, stdout, stderr } = await cli(...args);
  return { status: code, stdout, stderr };
}

const copyLine = (calls: number): RegExp =>
  new RegExp(`^loopcost: .*${COPY}\\.jsonl: all ${calls} calls are copies of calls of ${SESSION}\\.jsonl \\(the same message\\.id, requestId and usage: a resumed or forked session's file opens with a copy of the conversation it goes on from\\): counted there once; left out$`, 'm');

describe('a file whose every call is a copy of another file\'s', () => {
  it('named beside that file: read, its calls counted once (there), said as copies, exit 0', async () => {
    const dir = sessionFolder();
    withResumeCopy(dir);
    for (const files of [[sessionFile(dir), copyFile(dir)], [copyFile(dir), sessionFile(dir)]]) {
      const result = await loopcost('replay', ...files, '--format', 'json');
      expect(result.status, result.stderr).toBe(0); // was 2: "holds no model call … nothing was written"
      expect(round4(JSON.parse(result.stdout).summary.totalCostUsd)).toBe(BASELINE_USD);
      expect(result.stderr).toMatch(copyLine(40));
      expect(result.stderr).not.toContain('no model call');
    }
  });

  it('in a folder: the left-out line says it is a copy, not a session of no model call', async () => {
    const dir = sessionFolder();
    withResumeCopy(dir);
    const result = await loopcost('replay', dir, '--format', 'json');
    expect(result.status, result.stderr).toBe(0);
    expect(result.stderr).toMatch(copyLine(40));
    expect(result.stderr).not.toContain('summary-only or empty sessions'); // was the only line
  });
});

describe('a resumed session whose copy carries the new session id', () => {
  it('a whole copy under the new id: one tree, the sub-agent linked in it, no false "no transcript" warning', async () => {
    const dir = sessionFolder();
    withResumeCopy(dir, { whole: true });
    const result = await loopcost('replay', '--tree', dir, '--format', 'json');
    expect(result.status, result.stderr).toBe(0);
    expect(result.stderr).not.toContain('has no transcript file'); // was a warning on the copy's tree
    expect(result.stderr).toMatch(copyLine(152));
    const report = JSON.parse(result.stdout);
    expect(round4(report.summary.costUsd)).toBe(BASELINE_USD);
    expect(report.summary.trees).toBe(1); // was 2: the copy's tree and the original's
  });

  it('with calls of its own after the copy: the copied calls stay in the original tree, its own form the resumed session', async () => {
    const dir = sessionFolder();
    const own = mainLines().find((row) => row.type === 'assistant' && row.message.model === 'claude-opus-4-6')!;
    const ownCall = { ...own, sessionId: COPY, requestId: 'req_resumed_own', message: { ...own.message, id: 'msg_resumed_own' }, timestamp: '2026-02-12T09:00:00.000Z' };
    withResumeCopy(dir, { whole: true, ownLines: [ownCall] });
    const alone = await loopcost('replay', copyFile(dir), '--format', 'json');
    const ownUsd = JSON.parse(alone.stdout).runs.at(-1).costUsd as number;
    const result = await loopcost('replay', '--tree', dir, '--format', 'json');
    expect(result.status, result.stderr).toBe(0);
    expect(result.stderr).not.toContain('has no transcript file');
    const report = JSON.parse(result.stdout);
    const trees = report.trees as { sessionId: string; agents: { agent: string; calls: number }[] }[];
    const original = trees.find((tree) => tree.sessionId === SESSION)!;
    expect(original.agents.map((agent) => agent.agent)).toContain('a881341');
    expect(trees.find((tree) => tree.sessionId === COPY)!.agents.map((agent) => [agent.agent, agent.calls])).toEqual([['main', 1]]);
    expect(round4(report.summary.costUsd - ownUsd)).toBe(BASELINE_USD);
  });
});
