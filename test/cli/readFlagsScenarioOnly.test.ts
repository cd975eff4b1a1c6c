/**
 * The read flags (--max-input-mb, --max-line-mb, --cache-dir) are refused alike whatever the inputs: check and
 * serve --check on scenario files alone read no trace file, and took `--max-line-mb -1` or a file as --cache-dir
 * (exit 0) where replay refused them.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, tempDir } from './run.js';

const SCENARIO = 'scenarios/flight-search.yaml';

function expectRefused(r: { code: number; stderr: string }, field: RegExp): void {
  expect(r.code).toBe(2);
  expect(r.stderr).toMatch(field);
  expect(r.stderr).not.toMatch(/internal error|\n\s+at /);
}

describe('read flags on scenario files alone', () => {
  it('check and serve --check refuse a bad --max-line-mb, --max-input-mb and a file as --cache-dir, as replay does', async () => {
    const file = join(tempDir(), 'a-file.jsonl');
    writeFileSync(file, 'x');
    for (const command of [['check'], ['serve', '--check'], ['replay']]) {
      const [name, ...rest] = command;
      expectRefused(await cli(name!, SCENARIO, ...rest, '--max-line-mb', '-1'), /field '--max-line-mb'/);
      expectRefused(await cli(name!, SCENARIO, ...rest, '--max-input-mb', 'abc'), /field '--max-input-mb'/);
      expectRefused(await cli(name!, SCENARIO, ...rest, '--cache-dir', file), /field '--cache-dir': '.*a-file\.jsonl' is not a directory/);
    }
  });

  it('good read flags still pass', async () => {
    const r = await cli('check', SCENARIO, '--max-line-mb', '64', '--cache-dir', join(tempDir(), 'cache'));
    expect(r.code).toBe(0);
  });
});
