/** The projection: its mean matches runs × days × mean cost, its quantiles are ordered below the worst case, seeded output repeats. */
import { describe, expect, it } from 'vitest';
import { NO_BRAKES, REFERENCE_PRESET } from '../../src/brakes/config.js';
import { upperShareBound } from '../../src/population/projectConfidence.js';
import { capBoundShare, projectSpend, runsToClaim, suggestCapPico } from '../../src/population/project.js';
import { largestCallPico, ONLY_STEPS, worstCaseRun } from '../../src/population/worstCase.js';
import { picoToUsd } from '../../src/money.js';
import { handPriced, MINI } from '../helpers.js';
import { cli } from '../cli/run.js';

/**
 * One simulated day of 10 trials, for the projections whose per-run figures, settings, worst case or suggested cap a
 * test reads (none of which the simulated days change): the file's 2,000 runs a day over 30 days cost most of a call.
 */
const FEW_DAYS = ['--days', '1', '--trials', '10'];

describe('projection', () => {
  // A lopsided population: most runs cheap, a few loop and cost ten times more.
  const costs = Array.from({ length: 60 }, (_, i) => (i % 15 === 0 ? 90_000_000_000 : 5_000_000_000 + i * 100_000_000));
  const mean = costs.reduce((a, b) => a + b, 0) / costs.length / 1e12;

  it('mean period spend = runs/day × days × mean cost per run within its sampling error, quantiles ordered', () => {
    const p = projectSpend(costs, { runsPerDay: 500, days: 30, seed: 3, trials: 300 });
    // Each of the 300 periods resamples the 60 runs first (projectDays.ts PeriodDraws): the mean period is off
    // by the mean of 300 resample means, whose relative spread is cv / √(60 · 300) (cv ≈ 1.5 here: 4 of those).
    const cv = Math.sqrt(costs.reduce((a, c) => a + (c / 1e12 - mean) ** 2, 0) / costs.length) / mean;
    const within = (4 * cv) / Math.sqrt(60 * 300);
    expect(within).toBeLessThan(0.05);
    expect(Math.abs(p.perPeriod.mean - 500 * 30 * mean) / (500 * 30 * mean)).toBeLessThan(within);
    expect(Math.abs(p.perDay.mean - 500 * mean) / (500 * mean)).toBeLessThan(within);
    expect(p.perPeriod.p50).toBeLessThanOrEqual(p.perPeriod.p95);
    expect(p.perPeriod.p95).toBeLessThanOrEqual(p.perPeriod.p99);
    const worst = worstCaseRun(REFERENCE_PRESET, [MINI], { uncounted: ONLY_STEPS }).perRunUsd!;
    expect(p.perPeriod.p99).toBeLessThanOrEqual(worst * 500 * 30);
    expect(p.confidence.meanPerRunUsd[0]).toBeLessThanOrEqual(mean);
    expect(p.confidence.meanPerRunUsd[1]).toBeGreaterThanOrEqual(mean);
    expect(projectSpend(costs, { runsPerDay: 500, days: 30, seed: 3, trials: 300 })).toEqual(p);
    expect(projectSpend(costs, { runsPerDay: 500, days: 30, seed: 4, trials: 300 })).not.toEqual(p);
  });

  it('day and period totals are exact past 2^53 picodollars (a float sum drops units there)', () => {
    // $4,503.60 a run, odd: three of them (a day) and six (a period) are not representable as doubles.
    const cost = 2 ** 52 + 1;
    const p = projectSpend([cost, cost], { runsPerDay: 3, days: 2, seed: 1, trials: 4, resamples: 3 });
    expect(BigInt(cost + cost + cost)).not.toBe(3n * BigInt(cost)); // what a float sum would hold
    for (const q of [p.perDay.mean, p.perDay.p50, p.perDay.p95, p.perDay.p99]) expect(q).toBe(picoToUsd(3n * BigInt(cost)));
    for (const q of [p.perPeriod.mean, p.perPeriod.p50, p.perPeriod.p99]) expect(q).toBe(picoToUsd(6n * BigInt(cost)));
  });

  it('worst case per run: budget + largest call (check), budget (predict), step cap × largest call, else unbounded', () => {
    const largest = largestCallPico(MINI)!;
    // A provider refuses a prompt + max_tokens past the window: the largest prompt is the window less max_tokens.
    expect(largest).toBe((128_000 - 4096) * MINI.base.input + 4096 * MINI.base.output);
    expect(worstCaseRun({ ...NO_BRAKES, maxCostPico: 1e12 }, [MINI], { uncounted: ONLY_STEPS }).perRunUsd).toBe((1e12 + largest) / 1e12);
    expect(worstCaseRun({ ...NO_BRAKES, maxCostPico: 1e12, budgetMode: 'predict' }, [MINI], { uncounted: ONLY_STEPS }).perRunUsd).toBe(1);
    const steps = worstCaseRun({ ...NO_BRAKES, maxSteps: 3 }, [MINI], { uncounted: ONLY_STEPS });
    expect(steps.perRunUsd).toBe((3 * largest) / 1e12);
    // The step cap's bound says what it rests on: runs that make no call it does not count.
    expect(steps.rule).toBe('3 steps at the largest prompt a provider answers (the context window less max_tokens) and max_tokens of output (these runs make no backtrack or compaction call, which a step cap does not count)');
    expect(worstCaseRun(NO_BRAKES, [MINI], { uncounted: ONLY_STEPS }).perRunUsd).toBeNull();
  });

  it('under a summary strategy: a summary call may precede every call (priced as its model), and predict mode does not bound it', () => {
    const largest = largestCallPico(MINI)!;
    const BIG = handPriced('big', { input: 1.5, output: 6 }, 128_000);
    const own = largestCallPico(MINI, 500)!;
    const big = largestCallPico(BIG, 500)!;
    expect(big).toBe((128_000 - 500) * BIG.base.input + 500 * BIG.base.output);
    const summary = { summaryTokens: 500 };
    expect(worstCaseRun({ ...NO_BRAKES, maxSteps: 3 }, [MINI], { uncounted: ONLY_STEPS, summary }).perRunUsd).toBe((3 * (largest + own)) / 1e12);
    expect(worstCaseRun({ ...NO_BRAKES, maxSteps: 3 }, [MINI], { uncounted: ONLY_STEPS, summary: { ...summary, pricing: BIG } }).perRunUsd).toBe((3 * (largest + big)) / 1e12);
    expect(worstCaseRun({ ...NO_BRAKES, maxCostPico: 1e12 }, [MINI], { uncounted: ONLY_STEPS, summary: { ...summary, pricing: BIG } }).perRunUsd).toBe((1e12 + Math.max(largest, big)) / 1e12);
    const predict = worstCaseRun({ ...NO_BRAKES, maxCostPico: 1e12, budgetMode: 'predict' }, [MINI], { uncounted: ONLY_STEPS, summary });
    expect(predict.perRunUsd).toBe(1e12 / 1e12);
    expect(predict.rule).toMatch(/refuses a call or a summary call whose bound would cross it/);
  });

  it('runs under a summary strategy with a dearer summary model stay within the worst case', async () => {
    // --preset none: the file's brakes (a budget among them) give way to the step cap alone.
    const flags = ['--context', 'summary:trigger=3000,keep=2,tokens=800,model=gpt-4o', '--preset', 'none', '--max-steps', '12', '--format', 'json'];
    const projected = JSON.parse((await cli('project', 'scenarios/recursive-verification.yaml', ...flags, ...FEW_DAYS)).stdout);
    const runs = JSON.parse((await cli('replay', 'scenarios/recursive-verification.yaml', ...flags, '--per-run')).stdout);
    const dearest = Math.max(...runs.runs.map((run: { costUsd: number }) => run.costUsd));
    expect(runs.summary.summaryCalls).toBeGreaterThan(0);
    expect(dearest).toBeLessThanOrEqual(projected.worstCase.perRunUsd);
    expect(projected.worstCase.rule).toMatch(/each after a summary call/);
  });

  it('the distribution-free bound and a suggested cap', () => {
    expect(capBoundShare(20)).toBeCloseTo(0.139, 3);
    expect(runsToClaim(0.02)).toBe(149);
    expect(capBoundShare(149)).toBeLessThanOrEqual(0.02);
    // A tiny share counted from log1p(−share): 1 − 1e-12 in doubles would give 2,995,798,545,770 (the exact count: 2,995,732,273,554, ±1 in doubles).
    expect(Math.abs(runsToClaim(1e-12) - 2_995_732_273_554)).toBeLessThanOrEqual(1);
    // At most 2% of 100 completing runs above the cap: the 98th smallest.
    const completed = Array.from({ length: 100 }, (_, i) => (i + 1) * 1000);
    expect(suggestCapPico(completed, 0.02)).toBe(98_000);
  });

  it("projects a scenario file under its own brakes, context and cache (the flags on top), as replay runs it; files that disagree each under their own", async () => {
    const projected = JSON.parse((await cli('project', 'scenarios/production-mix.yaml', ...FEW_DAYS, '--format', 'json')).stdout);
    const replayed = JSON.parse((await cli('replay', 'scenarios/production-mix.yaml', '--format', 'json')).stdout);
    expect(projected.settings).toMatchObject({ brakes: expect.stringMatching(/^max-steps=12,max-cost=0\.5,/), cache: 'on' });
    expect(projected.perRunUsd.mean).toBe(replayed.summary.meanCostPerRunUsd);
    expect(projected.perRunUsd.runs).toBe(replayed.summary.runs);
    expect(projected.worstCase.perRunUsd).not.toBeNull();
    const capped = JSON.parse((await cli('project', 'scenarios/production-mix.yaml', '--max-steps', '3', ...FEW_DAYS, '--format', 'json')).stdout);
    expect(capped.settings.brakes).toMatch(/^max-steps=3,max-cost=0\.5,/);
    // As sweep and replay run them (test/cli/projectParts.test.ts): before, files that disagreed were refused.
    const both = await cli('project', 'scenarios/production-mix.yaml', 'scenarios/flight-search.yaml', ...FEW_DAYS, '--format', 'json');
    expect(both.code, both.stderr).toBe(0);
    expect(JSON.parse(both.stdout).settings.cache).toBe("each scenario file's own");
    expect((await cli('project', 'scenarios/production-mix.yaml', 'scenarios/flight-search.yaml', '--cache', 'on', ...FEW_DAYS, '--format', 'json')).code).toBe(0);
  });

  it('loopcost project: same seed, byte-identical report', async () => {
    const args = ['project', 'scenarios/production-mix.yaml', '--runs', '40', '--preset', 'reference', '--runs-per-day', '100', '--days', '7', '--trials', '50', '--seed', '5', '--suggest-cap', '0.05', '--format', 'json'];
    const a = await cli(...args);
    const b = await cli(...args);
    expect(a.code, a.stderr).toBe(0);
    expect(b.stdout).toBe(a.stdout);
    const report = JSON.parse(a.stdout);
    expect(Object.keys(report)).toEqual(expect.arrayContaining(['perDayUsd', 'perPeriodUsd', 'worstCaseUsd', 'runsPerDay', 'days', 'seed']));
    expect(report.perPeriodUsd.p99).toBeLessThanOrEqual(report.worstCaseUsd);
  });

  it('recorded runs re-priced on a model whose window their prompts pass are said to be priced past what a provider accepts, unless the window brake stops them', async () => {
    // long-exploration's prompts pass 8,192 − 4,096 tokens at step 3 (and 8,192, gpt-4's window, at step 5).
    const args = ['project', 'scenarios/long-exploration.jsonl', '--model', 'gpt-4', '--days', '2', '--trials', '20', '--format', 'json'];
    const past = JSON.parse((await cli(...args)).stdout);
    const warning = past.warnings.find((w: { code: string }) => w.code === 'past_context_window');
    expect(warning.message).toMatch(/^prompts pass the context window less max_tokens of gpt-4 \(8,192 − 4,096 = 4,096 tokens\) in 1 of 1 runs: a provider refuses a call whose prompt \+ max_tokens passes the window/);
    const braked = JSON.parse((await cli(...args, '--context-window', 'model')).stdout);
    expect(braked.warnings.map((w: { code: string }) => w.code)).not.toContain('past_context_window');
    expect(braked.perRunUsd.mean).toBeLessThan(past.perRunUsd.mean);
  });

  it('synthetic runs end where the provider refuses a prompt past the window: a failed call paid nothing, no brake named', async () => {
    const args = ['replay', 'scenarios/recursive-verification.yaml', '--runs', '3', '--preset', 'none', '--per-run', '--format', 'json'];
    const report = JSON.parse((await cli(...args)).stdout);
    for (const run of report.runs) {
      expect(run.stopReason).toBe('provider_refused');
      expect(run.stopDetail).toMatch(/^the provider refused the call: prompt of \d+ tokens \+ max_tokens 4096 > context window 128000$/);
    }
    const braked = JSON.parse((await cli(...args, '--context-window', 'model')).stdout);
    expect(braked.runs.map((run: { stopReason: string }) => run.stopReason)).toEqual(['context_overflow', 'context_overflow', 'context_overflow']);
  });

  it('--seed on recorded runs alone seeds the simulated days, so it is not called useless (--runs still is)', async () => {
    const args = ['project', 'scenarios/long-exploration.jsonl', 'scenarios/reverify-forever.jsonl', '--days', '3', '--trials', '50', '--format', 'json'];
    const five = await cli(...args, '--seed', '5');
    const six = await cli(...args, '--seed', '6');
    expect(five.stderr).not.toContain('--seed');
    expect(JSON.parse(five.stdout).perPeriodUsd).not.toEqual(JSON.parse(six.stdout).perPeriodUsd);
    expect((await cli(...args, '--runs', '5')).stderr).toContain('--runs applies to scenario files; no input is one, so it does nothing');
  });

  it('--suggest-cap under predict mode names the mode it was verified in, and bounds the share it stops on new runs', async () => {
    const r = await cli('project', 'scenarios/production-mix.yaml', '--preset', 'none', '--max-cost', '1', '--budget-mode', 'predict', '--suggest-cap', '0.05', ...FEW_DAYS, '--format', 'json');
    expect(r.code, r.stderr).toBe(0);
    const cap = JSON.parse(r.stdout).suggestCap;
    expect(cap.text).toContain(`(--max-cost ${cap.capUsd} --budget-mode check), chosen so that at most 5.0% of the ${cap.completedRuns} runs`);
    expect(cap.text).toContain(`it stops ${cap.stopped} of those ${cap.completedRuns} runs`);
    const upper = upperShareBound(cap.stopped, cap.completedRuns);
    expect(upper).toBeGreaterThan(cap.stopped / cap.completedRuns);
    expect(cap.text).toContain(`on new runs it may stop up to ${(upper * 100).toFixed(1)}% (${cap.stopped} of ${cap.completedRuns}; one-sided 95% upper bound, exact binomial)`);
  });
});
