/**
 * A Claude Code transcript whose time runs backwards (src/import/claudeCode/timeSteps.ts, the rule of
 * src/import/common/clockSkew.ts shared with mini-swe-agent): a line ending a model call dated more than 5 s
 * before the latest time of the lines before it, or a tool result more than 5 s before its tool call, is
 * refused at its `timestamp` (exit 2). Before, one call's lines re-dated to 2020 gave main.1 an elapsed time
 * of ~12 years and `--try timeout=600` stopped it after 1 step (the log completes 5), with no word. The
 * session is test/fixtures/claude-code (real, Claude Code 2.1.39): line 6 is the first prompt, lines 7–10 the
 * first call (two tool_use lines, 9 and 10), lines 11–12 their results, line 13 the next call; line 76 is the
 * last call of the first turn and line 88 the first call after the next prompt (line 87).
 */
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadTraceFiles } from '../../src/import/index.js';
import { cli, tempDir } from '../cli/run.js';
import { asyncUserErrorOf, collectAsync } from '../helpers.js';

const SESSION = 'ae4a77f8-aedd-4bc1-888f-c94edc91af04';
const FIXTURE = 'test/fixtures/claude-code';

/** A copy of the fixture whose lines (1-based) get the timestamps given (undefined: the field deleted). */
function redated(times: Record<number, string | undefined>): string {
  const dir = tempDir();
  cpSync(FIXTURE, dir, { recursive: true });
  const path = join(dir, `${SESSION}.jsonl`);
  const lines = readFileSync(path, 'utf8').split('\n');
  for (const [line, time] of Object.entries(times)) {
    const value = JSON.parse(lines[Number(line) - 1]!);
    if (time === undefined) delete value.timestamp;
    else value.timestamp = time;
    lines[Number(line) - 1] = JSON.stringify(value);
  }
  writeFileSync(path, lines.join('\n'));
  return path;
}

const lines = (from: number, to: number, time: string | undefined) => Object.fromEntries(Array.from({ length: to - from + 1 }, (_, i) => [from + i, time]));

async function issuesOf(path: string) {
  const error = await asyncUserErrorOf(() => collectAsync(loadTraceFiles([path])));
  return error.issues.map(({ line, field, code, message }) => ({ line, field, code, message }));
}

const mainRuns = async (path: string) => (await collectAsync(loadTraceFiles([path]))).filter((run) => run.header.agent?.agentId === 'main');

describe('Claude Code: time that runs backwards is refused at the line', () => {
  it('a call re-dated back (2020, among lines of 2026) is one issue at its first line', async () => {
    const issues = await issuesOf(redated(lines(7, 10, '2020-01-01T00:00:00Z')));
    expect(issues).toEqual([
      {
        line: 7,
        field: 'timestamp',
        code: 'end_before_start',
        message:
          "\"2020-01-01T00:00:00Z\" is 193068717.667 s (6.1 years) before line 6's 2026-02-12T14:11:57.667Z, the latest time of the lines before it: more than the 5 s of clock skew tolerated (time cannot run backwards; one of the two lines was re-dated or damaged), so the latency read across it would be wrong",
      },
    ]);
  });

  it('a call re-dated forward (2030) is refused where the log comes back: at the results of its tool calls', async () => {
    const issues = await issuesOf(redated(lines(7, 10, '2030-01-01T00:00:00Z')));
    expect(issues.map(({ line, field, code }) => ({ line, field, code }))).toEqual([
      { line: 11, field: 'timestamp', code: 'end_before_start' },
      { line: 12, field: 'timestamp', code: 'end_before_start' },
    ]);
    expect(issues[0]!.message).toMatch(/^"2026-02-12T14:12:03.925Z" is 122550476.075 s \(3.9 years\) before line 9's 2030-01-01T00:00:00.000Z, the time of the tool call it answers: /);
  });

  it("a turn's last call re-dated forward is refused at the next call, past a user prompt and a compaction", async () => {
    const issues = await issuesOf(redated({ 76: '2030-01-01T00:00:00Z' }));
    expect(issues.map(({ line }) => line)).toEqual([88]);
    expect(issues[0]!.message).toMatch(/ before line 76's 2030-01-01T00:00:00.000Z, the latest time of the lines before it: /);
  });

  it('a step back past 5 s is refused, one within it (clock skew) is read as recorded', async () => {
    // Line 12 (a tool result) is 14:12:04.978; line 13 (the next call's first) 5.001 s before it, then its lines 13–15 4.999 s.
    expect((await issuesOf(redated({ 13: '2026-02-12T14:11:59.977Z' }))).map(({ line }) => line)).toEqual([13]);
    const [first] = await mainRuns(redated({ ...lines(13, 15, '2026-02-12T14:11:59.979Z'), 11: '2026-02-12T14:11:58.000Z' }));
    // Line 11 answers line 9's tool call (14:12:02.413) 4.413 s before it: 0 ms, not negative.
    expect(first!.calls[0]!.toolCalls!.map((tool) => tool.latencyMs)).toEqual([0, 2007]);
    expect(first!.calls[1]!.latencyMs).toBe(0); // ends before it starts, within the skew: 0 ms
  });

  it('the shared real session, whose other lines step back 88 s (a /compact command written once it ran), is read as before', async () => {
    const runs = await mainRuns(join(FIXTURE, `${SESSION}.jsonl`));
    expect(runs[0]!.calls.map((call) => call.latencyMs)).toEqual([5304, 4679, 3027, 9218, 9295]);
  });

  it('the way out the hint gives: the lines dated wrong without a timestamp are read, their call with no latency', async () => {
    const [first] = await mainRuns(redated(lines(7, 10, undefined)));
    expect(first!.calls[0]!.latencyMs).toBeUndefined();
    expect(first!.calls[0]!.toolCalls!.map((tool) => tool.latencyMs)).toEqual([undefined, undefined]);
    expect(first!.calls[1]!.latencyMs).toBe(4679); // from line 12, the tool result before it, as in the log
  });

  it('the CLI exits 2 naming the file, line and field, with no stack trace', async () => {
    const path = redated(lines(7, 10, '2020-01-01T00:00:00Z'));
    const { code, stdout, stderr } = await cli('whatif', path, '--try', 'timeout=600', '--per-run');
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toContain(`${SESSION}.jsonl:line 7 field 'timestamp': "2020-01-01T00:00:00Z" is 193068717.667 s (6.1 years) before line 6's`);
    expect(stderr).toContain('delete the "timestamp" field of the lines dated wrong');
    expect(stderr).not.toMatch(/\n\s+at /);
  });
});
