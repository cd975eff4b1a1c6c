/**
 * import of inputs that read cleanly but hold no model call (a Claude Code transcript whose assistant lines
 * are not marked as such) refuses, exit 2 naming the file, and writes no file: a native file of no runs is
 * refused when read ("is empty"), so writing one would hand the user a file loopcost itself refuses. Such
 * an input is refused when read, by every command (test/import/noModelCall.test.ts): beside good files it
 * is a bad file, left out with --skip-bad.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, ONE_CALL_RUN, tempDir } from './run.js';

const COMPACTION = 'test/fixtures/claude-code/ae4a77f8-aedd-4bc1-888f-c94edc91af04/subagents/agent-acompact-946d2b.jsonl';

/** The transcript with its assistant lines' `type` renamed: every line still reads, none is a model call. */
function withoutCalls(text: string): string {
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      const record = JSON.parse(line) as Record<string, unknown>;
      if (record.type !== 'assistant') return line;
      const { type, ...rest } = record;
      return JSON.stringify({ ...rest, type_x: type });
    })
    .join('\n');
}

describe('import of inputs with no model call', () => {
  it('exits 2 naming the file, and writes no file', async () => {
    const dir = tempDir();
    const input = join(dir, 'no-calls.jsonl');
    writeFileSync(input, withoutCalls(readFileSync(COMPACTION, 'utf8')) + '\n');
    const out = join(dir, 'out.jsonl');
    const r = await cli('import', input, '--out', out);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${input}: holds no model call: no run to read`);
    expect(existsSync(out)).toBe(false);
  });

  it('a file with no call beside one with calls is a bad file: --skip-bad imports the calls', async () => {
    const dir = tempDir();
    const empty = join(dir, 'a-no-calls.jsonl');
    writeFileSync(empty, withoutCalls(readFileSync(COMPACTION, 'utf8')) + '\n');
    writeFileSync(join(dir, 'b-run.jsonl'), ONE_CALL_RUN);
    const out = join(dir, 'out.jsonl');
    const refused = await cli('import', empty, join(dir, 'b-run.jsonl'), '--out', out);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('1 of 2 input files have problems');
    expect(existsSync(out)).toBe(false);
    const r = await cli('import', empty, join(dir, 'b-run.jsonl'), '--out', out, '--skip-bad');
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('1 run from 1 file written');
    expect((await cli('replay', out)).code).toBe(0);
  });
});
