/**
 * `check` without --skip-bad reads a sub-agent transcript a scenario names without its session (another
 * scenario names the session) on its own, after the other files. When that read fails on a bad file, what
 * the earlier read found — a scenario file its `traces:` left out, a sub-agent transcript missing — was
 * never said: the command failed with the bad file only. It is said before the error, as after a check.
 */
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, tempDir } from '../cli/run.js';

const SESSIONS = resolve('../shared/agent-logs/claude-code');
const AGENT = join(SESSIONS, 'ae4a77f8-aedd-4bc1-888f-c94edc91af04/subagents/agent-aac57f5.jsonl.gz');
/** A session whose sub-agent transcripts are not copied beside it: reading it warns of each missing one. */
const SESSION = join(SESSIONS, '258c7280-ae70-4798-800f-63464d01a85d.jsonl.gz');

function scenario(dir: string, name: string, traces: readonly string[]): string {
  const path = join(dir, `${name}.yaml`);
  writeFileSync(path, ['scenario: loopcost.scenario/1', `name: ${name}`, `traces: ${JSON.stringify(traces)}`, 'brakes: { max-steps: 30 }', 'expect:', '  runs: { steps: { max: 100 } }', ''].join('\n'));
  return path;
}

/** `tr/`: a good run and a scenario file (left out); `sess/`: a session without its sub-agents; `bad/`: a file that is not JSON. */
function inputs(): string {
  const dir = tempDir();
  for (const sub of ['tr', 'sess', 'bad']) mkdirSync(join(dir, sub));
  copyFileSync('scenarios/reference-sum-of-squares.jsonl', join(dir, 'tr', 'good.jsonl'));
  copyFileSync('scenarios/reference-sum-of-squares.yaml', join(dir, 'tr', 'other.yaml'));
  copyFileSync(SESSION, join(dir, 'sess', '258c7280-ae70-4798-800f-63464d01a85d.jsonl.gz'));
  writeFileSync(join(dir, 'bad', 'broken.jsonl'), '{bad\n');
  return dir;
}

describe('check: the notes of the first read are said before a later read fails', () => {
  it('a sub-agent transcript read on its own beside a bad file: the scenario file left out and the missing transcripts, then the error', async () => {
    const dir = inputs();
    const a = scenario(dir, 'a', [SESSIONS, 'tr', 'sess']);
    // The notes reading a's files says when the check goes on.
    const alone = await cli('check', a, '--format', 'json');
    expect(alone.code, alone.stderr).toBe(0);
    const notes = alone.stderr.split('\n').filter((line) => line !== '');
    expect(notes.some((line) => line.includes('left out 1 scenario file found among the trace files'))).toBe(true);
    expect(notes.some((line) => line.includes('has no transcript file'))).toBe(true);

    const r = await cli('check', a, scenario(dir, 'b', [AGENT, 'bad']), '--format', 'json');
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    const at = r.stderr.indexOf('broken.jsonl');
    expect(at).toBeGreaterThan(0);
    const before = r.stderr.slice(0, at);
    // (Every note of reading the inputs comes before the error; the session-parts note is said of the runs once all are read.)
    const parts = notes.findIndex((line) => line.includes('are parts of'));
    const partsEnd = parts < 0 ? parts : notes.findIndex((line, i) => i > parts && !/^\s/.test(line));
    const inputNotes = parts < 0 ? notes : [...notes.slice(0, parts), ...(partsEnd < 0 ? [] : notes.slice(partsEnd))];
    for (const note of inputNotes) expect(before).toContain(note);
    expect(r.stderr.slice(at)).toContain('nothing was written');
  });
});
