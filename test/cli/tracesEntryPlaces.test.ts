/**
 * A bad `traces:` entry of a scenario file is named at the scenario file, the entry's line and `traces[i]`:
 * a named pipe is refused at once, never opened (as README says; it was opened and waited on for 10 s), or
 * with --skip-bad listed and left out; a file of no trace format (`/etc/passwd`) is named at its entry too
 * (it was named alone, as if given on the command line).
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { canMakeFifo, cli, tempDir } from './run.js';

const scenario = (dir: string, name: string, entry: string) => {
  const path = join(dir, name);
  writeFileSync(path, ['scenario: loopcost.scenario/1', `name: ${name}`, 'model: gpt-4o-mini', 'traces:', `  - ${entry}`, 'expect: { runs: { steps: { max: 12 } } }'].join('\n') + '\n');
  return path;
};

describe("a scenario's traces: entry naming a named pipe", () => {
  // The first in-process `check` of a worker loads its modules (~5 s on a busy 2-core machine, close to the
  // 8 s bound below): loaded here, so the bound times the pipe's refusal alone (it was opened and waited on
  // for 10 s).
  beforeAll(async () => {
    await cli('check', join(tempDir(), 'absent.yaml'));
  }, 60_000);

  it.skipIf(!canMakeFifo())('is refused at once at the entry, never opened', async () => {
    const dir = tempDir();
    execFileSync('mkfifo', [join(dir, 'pipe.jsonl')]);
    const path = scenario(dir, 's.yaml', 'pipe.jsonl');
    const started = Date.now();
    const r = await cli('check', path);
    expect(Date.now() - started).toBeLessThan(8000);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(`${path}:line 5 field 'traces[0]': "pipe.jsonl" (${join(dir, 'pipe.jsonl')}): is a named pipe, which a scenario's traces: entry never opens`);
    expect(r.stderr).not.toMatch(/sent nothing/);
  }, 30_000);

  it.skipIf(!canMakeFifo())('with --skip-bad it is listed with the bad files, unopened', async () => {
    const dir = tempDir();
    execFileSync('mkfifo', [join(dir, 'pipe.jsonl')]);
    const path = scenario(dir, 's.yaml', 'pipe.jsonl');
    const started = Date.now();
    const r = await cli('check', path, '--skip-bad');
    expect(Date.now() - started).toBeLessThan(8000);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/skipped 1 of 1 input files with problems/);
    expect(r.stderr).toContain(`field 'traces[0]': "pipe.jsonl"`);
  }, 30_000);
});

describe("a scenario's traces: entry naming a file of no trace format", () => {
  it('is named at the scenario file, line and field', async () => {
    const dir = tempDir();
    const passwd = join(dir, 'passwd');
    writeFileSync(passwd, 'root:x:0:0:root:/root:/bin/bash\n');
    const path = scenario(dir, 's.yaml', passwd);
    const r = await cli('check', path);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(`${path}:line 5 field 'traces[0]': "${passwd}" (${passwd}): is not a trace format loopcost reads`);
  });
});
