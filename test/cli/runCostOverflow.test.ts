/**
 * A run that costs more than $9,007 (past exact picodollars) under some configuration: sweep, calibrate,
 * project and fit name its file, run and configuration (the batch tally found it: population/blameRun.ts),
 * and under --skip-bad they leave its file out as any bad file (sweep --tree / --target-completion, calibrate
 * and project too: cli/actions/sweepDrop.ts), the same on 1 and 2 workers.
 */
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
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
  // Two calls of $6,000 (600M output tokens at $10 a million): the run passes $9,007, no call on its own (that one is named by its line: test/trace/callPastExactCli.test.ts).
  writeFileSync(join(dir, 'dear.jsonl'), native('{"type":"call","inputTokens":100,"outputTokens":600000000,"toolCalls":[{"name":"t","arguments":{},"resultTokens":1}]}', '{"type":"call","inputTokens":100,"outputTokens":600000000}'));
  writeFileSync(join(dir, 'ok.jsonl'), native('{"type":"call","inputTokens":100,"outputTokens":5}', '{"type":"call","inputTokens":200,"outputTokens":5}'));
});

const NAMED = /dear\.jsonl field 'calls': run on gpt-4o with 2 recorded calls: one run costs more than \$9,007, beyond.*under configuration brakes none/;

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

  // The paths that read every run first (--tree, calibrate, project) or keep them for the halved step caps (--target-completion).
  const READ_FIRST = [['sweep', '--tree', '--grid', 'max-steps=2,4'], ['sweep', '--target-completion', '0.9', '--grid', 'max-steps=2,4'], ['calibrate'], ['project', '--days', '1']];
  const PLACED = /dear\.jsonl field 'calls': run on gpt-4o with 2 recorded calls: one run costs more than \$9,007/;

  it('sweep --tree / --target-completion, calibrate and project --skip-bad leave its file out, listed with the other bad file', async () => {
    for (const argv of READ_FIRST) {
      const r = await cli(argv[0]!, dir, '--skip-bad', ...argv.slice(1));
      expect(r.code, argv.join(' ')).toBe(0);
      expect(r.stderr, argv.join(' ')).toMatch(/skipped 2 of 3 input files with problems \(--skip-bad\):\n.*bad\.jsonl: is not a trace format.*\n.*dear\.jsonl field 'calls'/);
      expect(r.stderr, argv.join(' ')).toMatch(PLACED);
      expect(r.stdout, argv.join(' ')).not.toBe('');
    }
  });

  it('sweep --tree / --target-completion --skip-bad: the same report on 1 and 2 workers, of the good file only', async () => {
    for (const argv of READ_FIRST.slice(0, 2)) {
      const one = await cli(argv[0]!, dir, '--skip-bad', '--workers', '1', ...argv.slice(1));
      const two = await cli(argv[0]!, dir, '--skip-bad', '--workers', '2', ...argv.slice(1));
      expect(one.code, argv.join(' ')).toBe(0);
      expect(one.stdout, argv.join(' ')).toMatch(/1\/1 100\.0%/);
      expect(two.stdout, argv.join(' ')).toBe(one.stdout);
      expect(two.stderr, argv.join(' ')).toBe(one.stderr);
    }
  });

  it('sweep --tree / --target-completion, calibrate and project without --skip-bad: a file found bad when read fails them before any tally (with a target, as the runs are tallied); the run past $9,007 alone is named, exit 2, nothing written', async () => {
    const alone = join(dir, '..', 'alone');
    mkdirSync(alone);
    copyFileSync(join(dir, 'dear.jsonl'), join(alone, 'dear.jsonl'));
    copyFileSync(join(dir, 'ok.jsonl'), join(alone, 'ok.jsonl'));
    for (const argv of READ_FIRST) {
      const read = await cli(argv[0]!, dir, ...argv.slice(1));
      expect([read.code, read.stdout], argv.join(' ')).toEqual([2, '']);
      expect(read.stderr, argv.join(' ')).toMatch(/bad\.jsonl: is not a trace format/);
      // (With a target the runs are tallied unit by unit as they are read, as a streamed sweep's: both named.)
      const found = argv.includes('--target-completion') ? 2 : 1;
      expect(read.stderr, argv.join(' ')).toContain(`${found} of 3 input files have problems; nothing was written`);
      const tallied = await cli(argv[0]!, alone, ...argv.slice(1));
      expect([tallied.code, tallied.stdout], argv.join(' ')).toEqual([2, '']);
      expect(tallied.stderr, argv.join(' ')).toMatch(PLACED);
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
