/**
 * sweep and check, as every other command: inputs --skip-bad left out and inputs given twice are in the
 * report's `warnings` (JSON), not only on stderr — for sweep with one worker or two (the same report), and
 * in a shard, which merge reads back.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, tempDir } from './run.js';

const TRACE = 'scenarios/long-exploration.jsonl';

interface Warning {
  code: string;
  files?: string[];
  issues?: { file?: string; code: string }[];
}

function badFile(): string {
  const bad = join(tempDir(), 'bad.jsonl');
  writeFileSync(bad, 'not a trace\n');
  return bad;
}

describe('sweep: inputs left out or given twice', () => {
  it('are in the JSON warnings, the same with --workers 2, and in a shard merge reads', async () => {
    const bad = badFile();
    const args = ['sweep', TRACE, bad, TRACE, '--skip-bad', '--grid', 'max-steps=5,10', '--format', 'json'];
    const one = await cli(...args, '--workers', '1');
    const two = await cli(...args, '--workers', '2');
    expect(one.code, one.stderr).toBe(0);
    expect(two.stdout).toBe(one.stdout);
    const warnings = JSON.parse(one.stdout).warnings as Warning[];
    expect(warnings.find((w) => w.code === 'repeated_inputs')?.files).toEqual([TRACE]);
    const skipped = warnings.find((w) => w.code === 'skipped_inputs');
    expect(skipped?.files).toEqual([bad]);
    expect(skipped?.issues?.[0]?.file).toBe(bad);
    // Said once on stderr, as the inputs were read.
    expect(one.stderr.match(/skipped 1 of 2 input files/g)).toHaveLength(1);
    const dir = tempDir();
    const shard = await cli(...args, '--shard', '1/1', '--out', join(dir, 's1.json'));
    expect(shard.code, shard.stderr).toBe(0);
    const merged = await cli('merge', join(dir, 's1.json'), '--format', 'json');
    expect(merged.code, merged.stderr).toBe(0);
    expect(JSON.parse(merged.stdout).warnings.map((w: Warning) => w.code)).toEqual(expect.arrayContaining(['repeated_inputs', 'skipped_inputs']));
  });
});

describe('check: inputs given twice', () => {
  it('are in the JSON warnings', async () => {
    const r = await cli('check', 'scenarios/keeps-asking.yaml', 'scenarios/keeps-asking.yaml', '--format', 'json');
    expect(r.stderr).toMatch(/given more than once/);
    const warnings = JSON.parse(r.stdout).warnings as Warning[];
    expect(warnings.find((w) => w.code === 'repeated_inputs')?.files).toEqual(['scenarios/keeps-asking.yaml']);
  });
});
