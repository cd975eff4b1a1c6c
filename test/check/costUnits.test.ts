/**
 * A value named `…Usd` holds USD wherever check writes it: a run's cost range (`runs.costUsd`,
 * `behaviours.<name>.costUsd`) in the JSON report's `expectations[].measured` and in a baseline's
 * `expectations`, as every `…Usd` figure beside it. Formats 1 and 2 held that range in picodollars under the
 * same name: they are still read, converted (format 3 is where the stored meaning changed).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseBaseline } from '../../src/check/baseline.js';
import { UserError } from '../../src/errors.js';
import { cli, tempDir } from '../cli/run.js';

const REFERENCE = 'scenarios/reference-sum-of-squares.yaml';
const RECURSIVE = 'scenarios/recursive-verification.yaml';

type Range = { min: number; max: number };
interface Written {
  baseline: string;
  scenarios: { expectations: Record<string, unknown>; figures: { costPerRunUsd: { max: number } } }[];
}

/** The file as format 2 wrote it: every run's cost range in whole picodollars. */
function asFormatTwo(file: Written): Written {
  const scenarios = file.scenarios.map((s) => ({
    ...s,
    expectations: Object.fromEntries(
      Object.entries(s.expectations).map(([key, value]) => {
        const range = value as Range | null;
        return key.endsWith('.costUsd') && range !== null ? [key, { min: Math.round(range.min * 1e12), max: Math.round(range.max * 1e12) }] : [key, value];
      }),
    ),
  }));
  return { ...file, baseline: 'loopcost.check-baseline/2', scenarios };
}

function userError(run: () => unknown): UserError {
  try {
    run();
  } catch (error) {
    if (error instanceof UserError) return error;
    throw error;
  }
  throw new Error('no UserError');
}

describe('a run cost range is held in USD, as its name says', () => {
  it('the JSON report measures runs.costUsd in USD: the same number as the costPerRunUsd figures', async () => {
    const r = await cli('check', REFERENCE, RECURSIVE, '--format', 'json');
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout);
    const [reference, recursive] = report.scenarios;
    const runs = reference.expectations.find((e: { expectation: string }) => e.expectation === 'runs.costUsd');
    // Every run of the healthy loop costs the same: $0.00069975 (not 699750000 picodollars).
    expect(runs.measured).toEqual({ min: 0.00069975, max: 0.00069975 });
    expect(runs.measured.max).toBe(reference.figures.costPerRunUsd.max);
    const behaviour = recursive.expectations.find((e: { expectation: string }) => e.expectation === 'behaviours.never satisfied.costUsd');
    expect(behaviour.measured.max).toBe(recursive.figures.costPerRunUsd.max);
    expect(behaviour.measured.max).toBeLessThan(0.02);
  });

  it('a baseline is written as format 3 with the range in USD; a format 2 file (picodollars) is read converted and renews to the same bytes', async () => {
    const dir = tempDir();
    const current = join(dir, 'b.json');
    expect((await cli('check', REFERENCE, RECURSIVE, '--update-baseline', current)).code).toBe(0);
    const text = readFileSync(current, 'utf8');
    const written = JSON.parse(text) as Written;
    expect(written.baseline).toBe('loopcost.check-baseline/3');
    expect(written.scenarios[0]!.expectations['runs.costUsd']).toEqual({ min: 0.00069975, max: 0.00069975 });
    expect((written.scenarios[1]!.expectations['behaviours.never satisfied.costUsd'] as Range).max).toBe(written.scenarios[1]!.figures.costPerRunUsd.max);

    const old = join(dir, 'old.json');
    const two = asFormatTwo(written);
    expect(two.scenarios[0]!.expectations['runs.costUsd']).toEqual({ min: 699750000, max: 699750000 });
    writeFileSync(old, JSON.stringify(two, null, 2) + '\n');
    const read = parseBaseline(readFileSync(old, 'utf8'), old);
    expect(read.baseline).toBe('loopcost.check-baseline/3');
    expect(read.scenarios.map((s) => s.expectations)).toEqual(written.scenarios.map((s) => s.expectations));

    const renewed = await cli('check', REFERENCE, RECURSIVE, '--baseline', old, '--tolerance', '0', '--update-baseline', old);
    expect(renewed.code, renewed.stdout).toBe(0);
    expect(renewed.stdout).toMatch(/all 18 figures within tolerance/);
    expect(readFileSync(old, 'utf8')).toBe(text);
  });

  it('each format is read in its own unit: picodollars in a format 3 file, or USD in a format 2 one, are refused naming the field', async () => {
    const dir = tempDir();
    const current = join(dir, 'b.json');
    expect((await cli('check', REFERENCE, '--update-baseline', current)).code).toBe(0);
    const written = JSON.parse(readFileSync(current, 'utf8')) as Written;
    const two = asFormatTwo(written);

    const picoInThree = JSON.stringify({ ...two, baseline: 'loopcost.check-baseline/3' });
    expect(userError(() => parseBaseline(picoInThree, 'b.json')).issues[0]).toMatchObject({ file: 'b.json', field: 'scenarios[0].expectations.runs.costUsd.min', message: expect.stringMatching(/the most one run can cost: this format holds a run.s cost in USD \(format 2 held picodollars\)$/) });
    const usdInTwo = JSON.stringify({ ...written, baseline: 'loopcost.check-baseline/2' });
    expect(userError(() => parseBaseline(usdInTwo, 'b.json')).issues[0]).toMatchObject({ file: 'b.json', field: 'scenarios[0].expectations.runs.costUsd.min', message: expect.stringMatching(/^is [\d.e-]+: must be a whole number of picodollars/) });
    const unknown = JSON.stringify({ ...written, baseline: 'loopcost.check-baseline/4' });
    expect(userError(() => parseBaseline(unknown, 'b.json')).issues[0]!.message).toBe('is not a check baseline format loopcost reads (loopcost.check-baseline/3, loopcost.check-baseline/2 or loopcost.check-baseline/1)');
  });
});
