/**
 * A run that costs more than $9,007 (past exact picodollars) under some configuration: sweep, calibrate,
 * project and fit name its file, run and configuration (the batch tally found it: population/blameRun.ts),
 * and under --skip-bad sweep and fit leave its file out as any bad file, the same on 1 and 2 workers.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cli, tempDir } from './run.js';

const HEADER = '{"type":"header","schema":"loopcost.trace/1","model":"gpt-4o","systemTokens":10,"goalTokens":5}';
const END = '{"type":"end","outcome":"completed"}';
const native = (...calls: string[]): string => [HEADER, ...calls, END].join('\n') + '\n';

let dir = '';
beforeAll(() => {
  dir = join(tempDir(), 'e');
  mkdirSync(dir);
  writeFileSync(join(dir, 'bad.jsonl'), 'not json\n');
  writeFileSync(join(dir, 'dear.jsonl'), native('{"type":"call","inputTokens":100,"outputTokens":1000000000000}'));
  writeFileSync(join(dir, 'ok.jsonl'), native('{"type":"call","inputTokens":100,"outputTokens":5}', '{"type":"call","inputTokens":200,"outputTokens":5}'));
});

const NAMED = /dear\.jsonl field 'calls': run on gpt-4o with 1 recorded call: one run costs more than \$9,007 \(1 call\).*under configuration brakes none/;

describe('a run past $9,007 is a bad file', () => {
  it('sweep --skip-bad leaves its file out, named beside the other bad file, the same report on 1 and 2 workers', async () => {
    const one = await cli('sweep', dir, '--skip-bad', '--workers', '1');
    const two = await cli('sweep', dir, '--skip-bad', '--workers', '2');
    expect(one.code).toBe(0);
    expect(one.stderr).toMatch(/skipped 2 of 3 input files/);
    expect(one.stderr).toMatch(NAMED);
    expect(one.stderr).toMatch(/bad\.jsonl: is not a trace format/);
    expect(one.stdout).toMatch(/1\/1 100\.0%/);
    expect(two.code).toBe(0);
    expect(two.stdout).toBe(one.stdout);
    expect(two.stderr).toBe(one.stderr);
  });

  it('sweep without --skip-bad: exit 2 naming both bad files, nothing written', async () => {
    for (const workers of ['1', '2']) {
      const r = await cli('sweep', dir, '--workers', workers);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(NAMED);
      expect(r.stderr).toMatch(/2 of 3 input files have problems; nothing was written/);
      expect(r.stdout).toBe('');
    }
  });

  it('sweep --tree, calibrate and project name the run, its file and the configuration', async () => {
    for (const argv of [['sweep', '--tree'], ['calibrate'], ['project', '--days', '1']]) {
      const r = await cli(argv[0]!, dir, '--skip-bad', ...argv.slice(1));
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.stderr, argv.join(' ')).toMatch(/dear\.jsonl field 'calls': run on gpt-4o with 1 recorded call: one run costs more than \$9,007/);
      expect(r.stdout).toBe('');
    }
  });

  it('fit: the file is left out under --skip-bad, named with the other bad files without', async () => {
    const out = join(dir, '..', 'profile.yaml');
    const skipped = await cli('fit', dir, '--skip-bad', '--out', out);
    expect(skipped.code).toBe(0);
    expect(skipped.stderr).toMatch(/skipped 2 of 3 input files/);
    expect(skipped.stderr).toMatch(/dear\.jsonl field 'calls': .*one run costs more than \$9,007/);
    const refused = await cli('fit', dir, '--out', join(dir, '..', 'refused.yaml'));
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/dear\.jsonl field 'calls': .*one run costs more than \$9,007/);
    expect(refused.stderr).toMatch(/2 of 3 input files have problems; nothing was written/);
  });
});
