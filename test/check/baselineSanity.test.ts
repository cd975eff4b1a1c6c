/**
 * A check baseline is read as strictly as it is written (review s24 r3): figures no runs make — a mean past
 * the max, a p50 past the p95, a completion rate no whole number of the runs makes, spend per completed run
 * with none completed, stop counts past the runs — were compared with and reported as drift (exit 1); they
 * are refused (exit 2), each naming file and field, all in one error, saying to write the baseline again.
 * A baseline with no scenario passed as "0 of 0 baseline scenarios matched"; it is refused too. And one rule
 * reads every tolerance: a bare `1` (100%, when `1%` was likely meant) is refused by the library's
 * parseTolerance and by `compare --tolerance` as by `check --tolerance`.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BASELINE_SCHEMA, BASELINE_SCHEMA_V2, parseBaseline, parseTolerance } from '../../src/check/baselineFile.js';
import { userErrorOf } from '../helpers.js';
import { cli, tempDir } from '../cli/run.js';

const PRICES = { name: 'genai-prices', version: '0.1.0', hash: 'abc' };
/** Four runs costing $1, $2, $3 and $4, the last two completed: figures as check measures them (population.ts). */
const FIGURES = {
  runs: 4,
  completionRate: 0.5,
  falseStopRate: 0.5,
  wastedShare: 0.3,
  costUsd: 10,
  costPerRunUsd: { mean: 2.5, p50: 2, p95: 4, max: 4 },
  costPerCompletedUsd: 5,
};
const SCENARIO = {
  source: 's.yaml',
  name: 's',
  settings: {},
  syntheticRuns: 4,
  recordedRuns: 0,
  figures: FIGURES,
  expectations: { 'runs.stopReason': { max_steps: 2, completed: 2 }, 'runs.costUsd': { min: 1, max: 4 }, 'population.costPerRunUsd.p95': 4 },
};
type Scenario = Omit<typeof SCENARIO, 'figures' | 'expectations'> & { figures: object; expectations: Record<string, unknown> };

const text = (scenarios: object[], baseline = BASELINE_SCHEMA) => JSON.stringify({ baseline, loopcost: '0.1.0', prices: PRICES, models: [], scenarios });
const edited = (figures: object, rest: Partial<Scenario> = {}): Scenario => ({ ...SCENARIO, ...rest, figures: { ...FIGURES, ...figures } });
const issuesOf = (scenarios: object[], baseline = BASELINE_SCHEMA) => userErrorOf(() => parseBaseline(text(scenarios, baseline), 'b.json')).issues;
const problems = (...scenarios: object[]) => issuesOf(scenarios).map((issue) => [issue.field, issue.code]);

describe('a baseline whose figures no runs make is refused', () => {
  it('figures as check writes them read', () => {
    expect(parseBaseline(text([SCENARIO]), 'b.json').scenarios[0]!.figures).toEqual(FIGURES);
    // No run completed: no spend per completed run, all of it wasted; no runs: nothing at all.
    const none = { completionRate: 0, falseStopRate: 1, wastedShare: 1, costPerCompletedUsd: null };
    expect(() => parseBaseline(text([edited(none, { expectations: {} })]), 'b.json')).not.toThrow();
    const empty = { runs: 0, completionRate: 0, falseStopRate: null, wastedShare: 0, costUsd: 0, costPerRunUsd: { mean: 0, p50: 0, p95: 0, max: 0 }, costPerCompletedUsd: null };
    expect(() => parseBaseline(text([edited(empty, { syntheticRuns: 0, expectations: { 'runs.costUsd': null, 'runs.stopReason': {} } })]), 'b.json')).not.toThrow();
  });

  it('a mean past the max: the field, what is wrong and what to do', () => {
    const issues = issuesOf([edited({ costPerRunUsd: { ...FIGURES.costPerRunUsd, mean: 5 } })]);
    expect(issues.map(({ file, field, code, message }) => ({ file, field, code, message }))).toEqual([
      { file: 'b.json', field: 'scenarios[0].figures.costPerRunUsd', code: 'inconsistent_figures', message: 'p50 2 ≤ p95 4 ≤ max 4 and mean 5 ≤ max do not hold' },
      { file: 'b.json', field: 'scenarios[0].figures.costUsd', code: 'inconsistent_figures', message: 'is 10, not costPerRunUsd.mean × runs (5 × 4)' },
    ]);
    expect(issues[0]!.hint).toBe('no runs make these figures (was the file edited?): write the baseline again with `loopcost check SCENARIOS --update-baseline b.json`');
  });

  it.each([
    ['a p50 past the p95', { costPerRunUsd: { ...FIGURES.costPerRunUsd, p95: 1.5 } }, 'figures.costPerRunUsd'],
    ['a max past what all runs cost', { costUsd: 4, costPerRunUsd: { mean: 1, p50: 0, p95: 5, max: 5 }, costPerCompletedUsd: 2, wastedShare: 0 }, 'figures.costPerRunUsd.max'],
    ['a completion rate no whole number of runs makes', { completionRate: 0.6 }, 'figures.completionRate'],
    ['spend per completed run with none completed', { completionRate: 0, wastedShare: 1, falseStopRate: 0 }, 'figures.costPerCompletedUsd'],
    ['none per completed run with runs completed', { costPerCompletedUsd: null }, 'figures.costPerCompletedUsd'],
    ['spend per completed run that is not the spend over them', { costPerCompletedUsd: 2.5 }, 'figures.costPerCompletedUsd'],
    ['spend wasted when every run completed', { completionRate: 1, costPerCompletedUsd: 2.5, falseStopRate: 0 }, 'figures.wastedShare'],
    ['false stops when every run completed', { completionRate: 1, costPerCompletedUsd: 2.5, wastedShare: 0 }, 'figures.falseStopRate'],
    ['a false stop rate of no runs', { runs: 0, completionRate: 0, costUsd: 0, costPerRunUsd: { mean: 0, p50: 0, p95: 0, max: 0 }, costPerCompletedUsd: null, wastedShare: 0 }, 'figures.falseStopRate'],
  ])('%s', (_, figures, field) => {
    const runs = 'runs' in figures ? { syntheticRuns: 0 } : {};
    expect(problems(edited(figures, { expectations: {}, ...runs }))).toEqual([[`scenarios[0].${field}`, 'inconsistent_figures']]);
  });

  it('what the scenario says of its runs besides: run counts, stop counts, cost ranges', () => {
    expect(problems(edited({}, { recordedRuns: 3 }))).toEqual([['scenarios[0].syntheticRuns', 'inconsistent_figures']]);
    expect(problems(edited({}, { expectations: { 'runs.stopReason': { completed: 5 } } }))).toEqual([['scenarios[0].expectations.runs.stopReason', 'inconsistent_figures']]);
    expect(problems(edited({}, { expectations: { 'behaviours.slow.costUsd': { min: 1, max: 9 } } }))).toEqual([['scenarios[0].expectations.behaviours.slow.costUsd.max', 'inconsistent_figures']]);
    expect(problems(edited({}, { expectations: { 'runs.steps': null } }))).toEqual([['scenarios[0].expectations.runs.steps', 'inconsistent_figures']]);
    // Format 2 held a run's cost range in picodollars: $4 is 4e12.
    const pico = (max: number) => ({ ...SCENARIO, expectations: { 'runs.costUsd': { min: 1e12, max } } });
    expect(() => parseBaseline(text([pico(4e12)], BASELINE_SCHEMA_V2), 'b.json')).not.toThrow();
    expect(issuesOf([pico(5e12)], BASELINE_SCHEMA_V2).map((issue) => issue.message)).toEqual(['is 5000000000000 picodollars, more than the most a run cost (figures.costPerRunUsd.max 4)']);
  });

  it('every problem of every scenario in one error, with the schema\'s own', () => {
    const first = edited({ completionRate: 0.6, costPerRunUsd: { ...FIGURES.costPerRunUsd, p50: 4.5 } });
    const second = { ...edited({ wastedShare: 2 }), source: 't.yaml' };
    expect(problems(first, second)).toEqual([
      ['scenarios[0].figures.costPerRunUsd', 'inconsistent_figures'],
      ['scenarios[0].figures.completionRate', 'inconsistent_figures'],
      ['scenarios[1].figures.wastedShare', 'too_big'],
    ]);
    // A figure out of its range is the schema's to say; the figures are held to each other once each is in it.
    expect(problems(edited({}, { syntheticRuns: -3 }))).toEqual([['scenarios[0].syntheticRuns', 'too_small']]);
  });

  it('no scenario: refused, saying a baseline with none gates nothing and what to do', () => {
    const [issue, ...more] = issuesOf([]);
    expect(more).toEqual([]);
    expect(issue).toEqual({
      file: 'b.json',
      field: 'scenarios',
      line: expect.any(Number),
      code: 'no_scenarios',
      message: 'holds no scenario: a baseline with none gates nothing (every check against it passes, 0 of 0 scenarios matched)',
      hint: 'write it with `loopcost check SCENARIOS --update-baseline b.json` over the scenarios it is to gate',
    });
  });
});

describe('check --baseline with figures edited into ones no runs make', () => {
  async function written(): Promise<{ file: string; baseline: string }> {
    const dir = tempDir();
    const file = join(dir, 'ref.yaml');
    writeFileSync(file, readFileSync('scenarios/reference-sum-of-squares.yaml', 'utf8').replace(/runs: 10\b/, 'runs: 3'));
    const baseline = join(dir, 'baseline.json');
    const wrote = await cli('check', file, '--update-baseline', baseline);
    expect(wrote.code, wrote.stderr).toBe(0);
    return { file, baseline };
  }

  it('mean past the max and p50 past the p95: exit 2, naming file and fields, nothing on stdout', async () => {
    const { file, baseline } = await written();
    const stored = JSON.parse(readFileSync(baseline, 'utf8'));
    const costs = stored.scenarios[0].figures.costPerRunUsd;
    stored.scenarios[0].figures.costPerRunUsd = { ...costs, mean: costs.max * 2, p50: costs.max * 3 };
    writeFileSync(baseline, JSON.stringify(stored, null, 2));
    const r = await cli('check', file, '--baseline', baseline);
    expect([r.code, r.stdout]).toEqual([2, '']);
    expect(r.stderr).toMatch(new RegExp(`${baseline}:line \\d+ field 'scenarios\\[0\\]\\.figures\\.costPerRunUsd': p50 ${costs.max * 3} ≤ p95`));
    expect(r.stderr).toMatch(new RegExp(`${baseline}:line \\d+ field 'scenarios\\[0\\]\\.figures\\.costUsd': is `));
    expect(r.stderr).toContain(`--update-baseline ${baseline}`);
  });

  it('no scenario: exit 2, not a pass of 0 of 0', async () => {
    const { file, baseline } = await written();
    writeFileSync(baseline, JSON.stringify({ ...JSON.parse(readFileSync(baseline, 'utf8')), scenarios: [] }));
    const r = await cli('check', file, '--baseline', baseline);
    expect([r.code, r.stdout]).toEqual([2, '']);
    expect(r.stderr).toMatch(new RegExp(`${baseline}:line \\d+ field 'scenarios': holds no scenario`));
  });
});

describe('one rule for every tolerance: a bare 1 or more is refused', () => {
  it('parseTolerance (the library) refuses 1 and 5, saying what they would mean; 100% and fractions are read', () => {
    expect(userErrorOf(() => parseTolerance('1')).issues[0]).toMatchObject({ field: '--tolerance', message: "'1' would mean 100%: write 1% or 0.01" });
    expect(userErrorOf(() => parseTolerance('5')).issues[0]!.message).toBe("'5' would mean 500%: write 5% or 0.05");
    expect([parseTolerance('100%'), parseTolerance('0.5'), parseTolerance('1%')]).toEqual([1, 0.5, 0.01]);
  });

  it('compare --tolerance 1 is refused as check refuses it', async () => {
    const run = 'scenarios/reference-sum-of-squares.jsonl';
    const r = await cli('compare', run, '--tolerance', '1');
    expect([r.code, r.stdout]).toEqual([2, '']);
    expect(r.stderr).toContain("<command line> field '--tolerance': '1' would mean 100%: write 1% or 0.01");
    expect((await cli('compare', run, '--tolerance', '100%')).code).toBe(0);
  });
});
