/**
 * How sure `sweep --target-completion`'s recommendation is, end to end: a line under the recommendation and
 * `recommendation.howSure` in JSON, from paired resamples of the runs in the order of the files — the same
 * whichever thread read which file (--workers 1 and 2, several files, or the same runs in one file), through
 * --shard and merge, and seeded by --seed; a tampered shard's resamples refused.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { sweepUnits } from '../../src/cli/actions/sweepUnits.js';
import { cli, tempDir } from './run.js';

const GRID = ['--grid', 'max-steps=4,6,8,12,30', '--grid', 'max-repeat=2,4', '--target-completion', '0.3'];
let dir = '';
let many = '';
let parts: string[] = [];

interface HowSure {
  seed: number;
  resamples: number;
  pickedShare: number | null;
  runnersUp: { settings: string; share: number }[];
  text: string;
}
const howSureOf = (stdout: string): HowSure => (JSON.parse(stdout) as { recommendation: { howSure: HowSure } }).recommendation.howSure;

beforeAll(async () => {
  dir = tempDir();
  many = join(dir, 'many.jsonl');
  const generated = await cli('generate', 'scenarios/production-mix.yaml', '--runs', '80', '--seed', '3', '--out', many);
  expect(generated.code, generated.stderr).toBe(0);
  // The same runs in four files of 20, of different sizes on disk (the queue takes the largest first, not in file order).
  const lines = readFileSync(many, 'utf8').split('\n').filter((line) => line !== '');
  const runs: string[][] = [];
  for (const line of lines) (line.includes('"type":"header"') ? runs.push([line]) : runs.at(-1)!.push(line));
  parts = [0, 1, 2, 3].map((k) => join(dir, `part${k}.jsonl`));
  parts.forEach((file, k) => writeFileSync(file, runs.slice(k * 20, (k + 1) * 20).flat().join('\n') + '\n'));
});

describe('sweep: how sure the recommendation is', () => {
  it('is the same with --workers 1 and 2 over several files and a scenario, and over the same runs in one file', async () => {
    const args = [...parts, 'scenarios/production-mix.yaml', '--runs', '9', ...GRID, '--format', 'json'];
    const one = await cli('sweep', ...args, '--workers', '1');
    const two = await cli('sweep', ...args, '--workers', '2');
    expect(one.code, one.stderr).toBe(0);
    expect(two.stdout).toBe(one.stdout);
    const sure = howSureOf(one.stdout);
    expect(sure).toMatchObject({ seed: 1, resamples: 200 });
    expect(sure.pickedShare).toBeGreaterThan(0);
    expect(sure.pickedShare).toBeLessThanOrEqual(1);
    // Run k is the same run in every configuration however the files were taken: one file of the same runs, in the same order, resamples them alike.
    const whole = await cli('sweep', many, 'scenarios/production-mix.yaml', '--runs', '9', ...GRID, '--format', 'json', '--workers', '2');
    expect(howSureOf(whole.stdout)).toEqual(sure);
  });

  it("scenario runs alone, cut in chunks the threads share: each chunk its own place, the same on 1 and 2 threads", async () => {
    const units = sweepUnits(['a.jsonl'], [10], [9, 5], 2);
    const orders = units.filter((unit) => unit.files.length === 0).map((unit) => unit.order);
    expect(orders).toHaveLength(8);
    expect(orders.every((order, k) => order >= 1 && (k === 0 || order > orders[k - 1]!))).toBe(true);
    const args = ['scenarios/production-mix.yaml', '--runs', '60', ...GRID, '--format', 'json'];
    const one = await cli('sweep', ...args, '--workers', '1');
    expect(one.code, one.stderr).toBe(0);
    expect((await cli('sweep', ...args, '--workers', '2')).stdout).toBe(one.stdout);
  });

  it('says it in a line under the recommendation, and that more runs would tell when the runs cannot', async () => {
    const table = await cli('sweep', ...parts, ...GRID, '--workers', '2');
    expect(table.code, table.stderr).toBe(0);
    const sure = howSureOf((await cli('sweep', ...parts, ...GRID, '--workers', '1', '--format', 'json')).stdout);
    const text = table.stdout.slice(table.stdout.indexOf('→ For at least'));
    expect(text.replace(/\s+/g, ' ')).toContain(sure.text);
    expect(sure.text).toMatch(/^How sure: picked in [\d.]+% of 200 paired resamples of these runs \(seed 1\)/);
    if (sure.pickedShare! < 0.9) expect(sure.text).toContain('more runs would');
    // Four runs: any resample may pick another.
    const few = await cli('sweep', parts[0]!, ...GRID, '--format', 'json', '--workers', '1');
    const fewSure = howSureOf(few.stdout);
    expect(fewSure.pickedShare).toBeLessThan(0.9);
    expect(fewSure.runnersUp.length).toBeGreaterThan(0);
    expect(fewSure.text).toContain(`${fewSure.runnersUp.length === 1 ? 'runner-up' : 'runners-up'} ${fewSure.runnersUp[0]!.settings} in`);
    expect(fewSure.text).toMatch(/more runs would\.$/);
  });

  it('--seed draws other resamples (named), and is no flag that does nothing without scenario files', async () => {
    const seeded = await cli('sweep', ...parts, ...GRID, '--format', 'json', '--workers', '1', '--seed', '9');
    expect(seeded.code, seeded.stderr).toBe(0);
    expect(seeded.stderr).not.toContain('--seed');
    const sure = howSureOf(seeded.stdout);
    expect(sure.seed).toBe(9);
    expect(sure.text).toContain('(seed 9)');
    expect(howSureOf((await cli('sweep', ...parts, ...GRID, '--format', 'json', '--workers', '2', '--seed', '9')).stdout)).toEqual(sure);
  });

  it('shards carry their resamples; merged, the same as one sweep; a tampered one refused', async () => {
    const args = [...parts, 'scenarios/production-mix.yaml', '--runs', '9', ...GRID];
    const one = await cli('sweep', ...args, '--format', 'json', '--workers', '2');
    const shards = [1, 2, 3].map((k) => join(dir, `shard${k}.json`));
    for (const [k, out] of shards.entries()) {
      const shard = await cli('sweep', ...args, '--workers', String(1 + (k % 2)), '--shard', `${k + 1}/3`, '--out', out);
      expect(shard.code, shard.stderr).toBe(0);
      const resampled = (JSON.parse(readFileSync(out, 'utf8')) as { shard: { resampled: { choices: unknown[] } } }).shard.resampled;
      expect(resampled.choices).toHaveLength(200);
    }
    const merged = await cli('merge', ...shards, '--format', 'json');
    expect(merged.code, merged.stderr).toBe(0);
    expect(howSureOf(merged.stdout)).toEqual(howSureOf(one.stdout));
    // A choice of a configuration outside the shard's slice.
    const report = JSON.parse(readFileSync(shards[0]!, 'utf8')) as { shard: { to: number; resampled: { choices: number[][] } } };
    report.shard.resampled.choices[3]![0] = report.shard.to + 1;
    const tampered = join(dir, 'tampered.json');
    writeFileSync(tampered, JSON.stringify(report));
    const refused = await cli('merge', tampered, shards[1]!, shards[2]!);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('shard.resampled.choices[3]');
  });
});
