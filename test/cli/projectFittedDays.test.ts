/**
 * `project` of a fitted profile: each simulated period resamples its synthetic runs as the recorded runs it
 * was fitted to (projectDays.ts StratifiedPeriodDraws), so the per-day and per-period spread does not narrow
 * as --runs grow (before, the period's bootstrap drew as many runs as were simulated: the 38 mini-swe-agent
 * runs' profile gave a day's p95 − mean of $1.40 at --runs 500 and $1.11 at 5,000, 200 runs a day). And a
 * hand-written scenario file (one fit did not write: no `# Fitted by loopcost fit to N recorded runs` line)
 * is said to rest on its guessed weights and sizes, in text and JSON.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, tempDir } from './run.js';

interface Quantiles {
  mean: number;
  p95: number;
}

const json = async (...argv: string[]) => {
  const r = await cli('project', ...argv, '--format', 'json');
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
};
const spread = (q: Quantiles) => q.p95 - q.mean;

describe('project of a fitted profile: the spread of days and periods', () => {
  it.each([
    ['run by run', '500'],
    ['by counts', '2000'],
  ])('days %s: the p95 − mean of a day and of a period agree at --runs 500 and 5000', async (_way, runsPerDay) => {
    const dir = tempDir();
    const recorded = join(dir, 'gen.jsonl');
    const profile = join(dir, 'prof.yaml');
    expect((await cli('generate', 'scenarios/flight-search.yaml', '--runs', '30', '--out', recorded)).code).toBe(0);
    expect((await cli('fit', recorded, '--out', profile)).code).toBe(0);
    const at = (runs: string) => json(profile, '--runs', runs, '--runs-per-day', runsPerDay, '--days', '10');
    const [few, many] = [await at('500'), await at('5000')];
    // Both draw 30 runs a period: what differs is the simulation's noise (1,000 periods: a p95 within ~4%) and
    // how the 500 and 5,000 synthetic runs' spread differ (~5%); three seeds gave 0.98–1.05 at 2,000 a day.
    // Resampled as 500 and 5,000 runs (before), the day's spread at 5,000 was √((N + N²/5000)/(N + N²/500)) of
    // 500's: 0.74 at 500 a day, 0.53 at 2,000; the period's narrows more.
    for (const figure of ['perDayUsd', 'perPeriodUsd'] as const) expect(Math.abs(spread(many[figure]) / spread(few[figure]) - 1)).toBeLessThan(0.15);
    expect(many.confidence.standsFor).toBe(30);
    expect(many.notes).toContainEqual(expect.stringContaining("the fitted profile's runs only as many as the recorded runs it was fitted to"));
    expect(many.handWritten).toBeUndefined();
  });
});

describe('a hand-written scenario file: the figures rest on its guesses', () => {
  it('said in text and JSON for a file fit did not write, naming it and its runs; not for recorded runs or a fitted profile', async () => {
    const text = (await cli('project', 'scenarios/production-mix.yaml', '--runs', '40', '--trials', '20')).stdout.replace(/\s+/g, ' ');
    expect(text).toContain(
      "Hand-written scenarios: scenarios/production-mix.yaml's 40 synthetic runs are drawn from the behaviours, weights and sizes written in the file, fitted to no recorded runs: every figure here holds only as far as those guesses do, and no interval measures them (more --runs narrow only the simulation's own noise).",
    );
    const mixed = await json('scenarios/production-mix.yaml', 'scenarios/flight-search.yaml', 'scenarios/long-exploration.jsonl', '--runs', '40', '--trials', '20');
    expect(mixed.handWritten.scenarios).toEqual([
      { source: 'scenarios/production-mix.yaml', syntheticRuns: 40 },
      { source: 'scenarios/flight-search.yaml', syntheticRuns: 40 },
    ]);
    expect(mixed.handWritten.text).toMatch(/^Hand-written scenarios: the 80 synthetic runs of scenarios\/production-mix\.yaml \(40\), scenarios\/flight-search\.yaml \(40\) are drawn from/);
    const recorded = await json('scenarios/long-exploration.jsonl', '--trials', '20');
    expect(recorded.handWritten).toBeUndefined();
    expect((await cli('project', 'scenarios/long-exploration.jsonl', '--trials', '20')).stdout).not.toContain('Hand-written');
  });

  it('a fitted profile beside a hand-written file: only the hand-written one is named', async () => {
    const dir = tempDir();
    const recorded = join(dir, 'gen.jsonl');
    const profile = join(dir, 'prof.yaml');
    expect((await cli('generate', 'scenarios/flight-search.yaml', '--runs', '20', '--out', recorded)).code).toBe(0);
    expect((await cli('fit', recorded, '--out', profile)).code).toBe(0);
    const r = await json(profile, 'scenarios/production-mix.yaml', '--runs', '30', '--trials', '20');
    expect(r.fittedProfiles.map((f: { source: string }) => f.source)).toEqual([profile]);
    expect(r.handWritten.scenarios).toEqual([{ source: 'scenarios/production-mix.yaml', syntheticRuns: 30 }]);
  });
});
