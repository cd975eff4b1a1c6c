/**
 * `scenario_settings_unused` (a scenario file's brakes and context a sweep or calibration replaced) is said
 * on stderr for every format: a table piped to a file would hide it or carry it into the report. A JSON
 * report keeps it in `warnings` too; the table leaves it out. And calibrate says in its own words, as
 * sweep's footer does, that its synthetic runs take each configuration's settings, not their files'.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, oneEntryScenario, tempDir } from './run.js';

const UNUSED = /which this (sweep|calibration) does not use/;
const joined = (text: string) => text.replace(/\n {2,}/g, ' ');

describe('scenario_settings_unused: on stderr whatever the format', () => {
  const dir = tempDir();
  const triage = oneEntryScenario(dir, 'triage.yaml', { runs: '20', brakes: '{ max-steps: 12, max-cost: 0.1 }', context: '{ context: full, cache: on }' });
  const line = `warning: ${triage} sets max-cost 0.1 and cache on, which this sweep does not use (every configuration is the grid and the flags given): to keep them, add --max-cost 0.1 --cache on\n`;

  it('a table: on stderr, not in the report', async () => {
    const r = await cli('sweep', triage, '--grid', 'max-steps=5,10');
    expect(r.code, r.stderr).toBe(0);
    expect(joined(r.stdout)).not.toMatch(UNUSED);
    expect(joined(r.stderr)).toBe(line);
  });

  it('JSON: in its warnings and on stderr', async () => {
    const r = await cli('sweep', triage, '--grid', 'max-steps=5,10', '--format', 'json');
    expect(JSON.parse(r.stdout).warnings.filter((w: { code: string }) => w.code === 'scenario_settings_unused')).toHaveLength(1);
    expect(joined(r.stderr)).toBe(line);
  });

  it('a table written with --out: not in the file, once on stderr', async () => {
    const out = join(dir, 'sweep.txt');
    const r = await cli('sweep', triage, '--grid', 'max-steps=5,10', '--out', out);
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(out, 'utf8')).not.toMatch(UNUSED);
    expect(joined(r.stderr).split('\n').filter((l) => UNUSED.test(l))).toHaveLength(1);
  });

  it('calibrate: on stderr, not in its table; its own footer says the files\' settings are replaced', async () => {
    const r = await cli('calibrate', triage, '--grid', 'max-repeat=2,3');
    expect(r.code, r.stderr).toBe(0);
    expect(joined(r.stdout)).not.toMatch(UNUSED);
    expect(joined(r.stderr)).toMatch(/sets max-steps 12, max-cost 0\.1 and cache on, which this calibration does not use/);
    expect(joined(r.stdout).replace(/\n/g, ' ')).toContain("Synthetic runs are judged under each configuration's brakes, context and cache, not their scenario files' (the files give the population, runs, seed and latency).");
  });

  it('calibrate of recorded runs alone has no such footer', async () => {
    const r = await cli('calibrate', 'scenarios/reference-sum-of-squares.jsonl', '--grid', 'max-repeat=2,3');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).not.toContain('not their scenario files');
  });
});
