/**
 * check's messages in check's words (CI review): a directory with no scenario file says so — what check looks
 * for and what to do — not that it holds no trace files; a directory given as --baseline names the flag.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, tempDir } from '../cli/run.js';

const NONE = 'no scenario files (*.yaml with `scenario: loopcost.scenario/1`, or *.check.yaml) in';

describe('check on a directory that holds no scenario file', () => {
  it('an empty one: no scenario files in it, with what to do (exit 2)', async () => {
    const empty = join(tempDir(), 'empty');
    mkdirSync(empty);
    const r = await cli('check', empty);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${empty}: ${NONE} ${empty}: it holds no file check reads (give check the directory or files that hold your scenario files`);
    expect(r.stderr).not.toContain('trace files');
  });

  it('one holding only a compose.yml: no scenario files in it, not a trace file to name under traces:', async () => {
    const dir = join(tempDir(), 'onlycompose');
    mkdirSync(dir);
    writeFileSync(join(dir, 'compose.yml'), 'services:\n  app:\n    image: x\n');
    const r = await cli('check', dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${dir}: ${NONE} ${dir}: check reads scenario files`);
    expect(r.stderr).toContain('give check the directory or files that hold your scenario files');
    expect(r.stderr).not.toContain('brings in 1 trace file');
  });
});

describe('check --baseline DIRECTORY', () => {
  it('names --baseline, and the baseline file in it when there is one', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'loopcost-baseline.json'), '{}');
    const r = await cli('check', 'test/check/gateSignal-support.yaml', '--baseline', dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${dir} field '--baseline': is a directory, not a baseline file (give the baseline file’s path: --baseline ${join(dir, 'loopcost-baseline.json')})`);
  });
});
