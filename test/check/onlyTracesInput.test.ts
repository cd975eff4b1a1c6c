/**
 * `check` given a directory (or glob) of trace files alone: check leaves a directory's trace files out
 * (`check --help`), so the refusal names the input as given — `runs: no scenario files … in runs`, and
 * how many other files it brings in — not the first trace file in it, which the user never named. A trace file named on its
 * own is refused as itself, as before.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, ONE_CALL_RUN, tempDir } from '../cli/run.js';

describe('check on inputs that hold no scenario file', () => {
  const dir = tempDir();
  const runs = join(dir, 'runs');
  mkdirSync(runs);
  for (const name of ['a.jsonl', 'b.jsonl']) writeFileSync(join(runs, name), ONE_CALL_RUN);

  it('a directory of traces: named as given, with how many trace files it brought in', async () => {
    const r = await cli('check', runs);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(`loopcost: ${runs}: no scenario files (*.yaml with \`scenario: loopcost.scenario/1\`, or *.check.yaml) in ${runs}: check reads scenario files; the 2 other files it brings in (read as recorded traces) run only when a scenario file names them under \`traces:\``);
    expect(r.stderr).not.toContain('a.jsonl');
  });

  it('a glob too', async () => {
    const glob = join(runs, 'a*.jsonl');
    const r = await cli('check', glob);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${glob}: no scenario files (*.yaml with \`scenario: loopcost.scenario/1\`, or *.check.yaml) in ${glob}: check reads scenario files; the 1 other file it brings in`);
  });

  it('a trace file named on its own is refused as itself', async () => {
    const r = await cli('check', join(runs, 'a.jsonl'));
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('a.jsonl: is not a scenario file: check reads scenario files');
  });
});
