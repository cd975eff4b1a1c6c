/**
 * The paired bootstrap behind how sure a sweep's recommendation is (src/population/recommendBootstrap.ts):
 * seeded and repeatable, paired (one draw of the runs for every configuration), the choice rule of
 * recommend.ts, and slices of the grid (shards, threads) joined giving the whole grid's choices.
 */
import { describe, expect, it } from 'vitest';
import { recommendedIndex } from '../../src/population/recommend.js';
import { choiceSureness, joinChoices, resampleCounts, sliceChoices, type RunOutcomes } from '../../src/population/recommendBootstrap.js';
import { howSureOf, joinResampled, MAX_RESAMPLED_CELLS, resampledSlice } from '../../src/population/recommendSureness.js';
import { Rng } from '../../src/synthetic/random.js';

function outcomes(costs: readonly number[], completed: readonly number[]): RunOutcomes {
  return { costPico: Float64Array.from(costs), completed: Uint8Array.from(completed) };
}

/** `rows` configurations over `runs` runs, seeded: costs spread over three orders of magnitude, completion by a per-row rate. */
function randomRows(runs: number, rows: number, seed: number): RunOutcomes[] {
  const rng = Rng.stream(seed, 0, 1);
  const base = Array.from({ length: runs }, () => 10 ** (6 + 3 * rng.next()));
  return Array.from({ length: rows }, (_, r) => outcomes(base.map((c) => Math.round(c * (1 + r / 10) * (0.5 + rng.next()))), base.map(() => (rng.next() < 0.4 + r / 20 ? 1 : 0))));
}

describe('recommendation bootstrap', () => {
  it('is seeded: the same seed draws the same resamples, another seed others; every resample draws as many runs', () => {
    const a = resampleCounts(50, { seed: 7, resamples: 20 });
    expect(resampleCounts(50, { seed: 7, resamples: 20 })).toEqual(a);
    expect(resampleCounts(50, { seed: 8, resamples: 20 })).not.toEqual(a);
    for (const counts of a) expect(counts.reduce((n, k) => n + k, 0)).toBe(50);
  });

  it('chooses as recommend.ts does on the runs themselves (each drawn once)', () => {
    const rows = randomRows(40, 8, 3);
    const once = [new Uint16Array(40).fill(1)];
    for (const target of [0.3, 0.5, 0.7]) {
      const figures = rows.map((row) => {
        const completed = row.completed.reduce((n, k) => n + k, 0);
        const cost = row.costPico.reduce((n, k) => n + k, 0);
        return { completionRate: completed / 40, costPerCompletedUsd: completed === 0 ? null : cost / completed, costUsd: cost };
      });
      expect(sliceChoices(rows, { from: 0, counts: once, target })[0]!.index).toBe(recommendedIndex(figures, target) ?? -1);
    }
  });

  it('is paired: a setting cheaper than another on every run is chosen in every resample, however spread the runs', () => {
    const costs = Array.from({ length: 30 }, (_, k) => (k % 7 === 0 ? 1e12 : 1e6 * (k + 1)));
    const done = costs.map(() => 1);
    const dearer = outcomes(costs.map((c) => c + 1000), done);
    const cheaper = outcomes(costs, done);
    const choices = sliceChoices([dearer, cheaper], { from: 0, counts: resampleCounts(30, { seed: 1, resamples: 100 }), target: 0.5 });
    expect(choiceSureness(choices, 1)).toEqual({ resamples: 100, sameChoice: 1, noneReached: 0, rivals: [] });
  });

  it('slices of the grid joined give the whole grid\'s choices (a merge of shards as one sweep)', () => {
    const rows = randomRows(60, 9, 11);
    const counts = resampleCounts(60, { seed: 5, resamples: 50 });
    const whole = sliceChoices(rows, { from: 0, counts, target: 0.5 });
    const parts = [[0, 2], [2, 7], [7, 9]].map(([from, to]) => sliceChoices(rows.slice(from, to), { from: from!, counts, target: 0.5 }));
    expect(joinChoices(parts)).toEqual(whole);
    expect(joinChoices([parts[2]!, parts[0]!, parts[1]!])).toEqual(whole);
  });

  it('names the rows other resamples choose, most chosen first; a tie goes to the earlier row', () => {
    const same = outcomes([5, 5, 5, 5], [1, 1, 1, 1]);
    const choices = sliceChoices([same, same], { from: 0, counts: resampleCounts(4, { seed: 2, resamples: 10 }), target: 1 });
    expect(choices.every((choice) => choice.index === 0)).toBe(true);
    const mixed = [{ index: 2, completed: 1, costPico: 1 }, { index: 4, completed: 1, costPico: 1 }, { index: 2, completed: 1, costPico: 1 }, { index: -1, completed: 0, costPico: 0 }];
    expect(choiceSureness(mixed, 2)).toEqual({ resamples: 4, sameChoice: 0.5, noneReached: 1, rivals: [{ index: 4, share: 0.25 }] });
  });

  it('rows that complete nothing, or repeat the row before, are not resampled: the choices are those of resampling every row', () => {
    const base = randomRows(50, 6, 17);
    const never = outcomes(Array.from({ length: 50 }, () => 1), Array.from({ length: 50 }, () => 0));
    const rows = [base[0]!, base[0]!, never, base[1]!, base[2]!, base[2]!, base[2]!, never, base[3]!, base[4]!, base[4]!, base[5]!];
    const counts = resampleCounts(50, { seed: 4, resamples: 60 });
    // By hand: each resample's figures of every row, and recommend.ts's choice among them.
    const byHand = counts.map((drawn) => {
      const figures = rows.map((row) => {
        let completed = 0;
        let cost = 0;
        drawn.forEach((times, k) => ((completed += times * row.completed[k]!), (cost += times * row.costPico[k]!)));
        return { completionRate: completed / 50, costPerCompletedUsd: completed === 0 ? null : cost / completed, costUsd: cost };
      });
      return recommendedIndex(figures, 0.45) ?? -1;
    });
    expect(sliceChoices(rows, { from: 0, counts, target: 0.45 }).map((choice) => choice.index)).toEqual(byHand);
    // A slice starting on a repeated row resamples it (the row before is another slice's): joined, the same.
    const parts = [sliceChoices(rows.slice(0, 5), { from: 0, counts, target: 0.45 }), sliceChoices(rows.slice(5), { from: 5, counts, target: 0.45 })];
    expect(joinChoices(parts).map((choice) => choice.index)).toEqual(byHand);
  });

  it('in words: the share picking the recommendation, the runners-up, more runs when unsure; not worked out past the most resampled', () => {
    const rows = randomRows(30, 5, 9);
    const settings = rows.map((_, i) => `max-steps=${i + 1}`);
    const whole = resampledSlice(rows, { from: 0, configurations: 5, target: 0.4, seed: 3 });
    expect(joinResampled([resampledSlice(rows.slice(0, 2), { from: 0, configurations: 5, target: 0.4, seed: 3 }), resampledSlice([], { from: 2, configurations: 5, target: 0.4, seed: 3 }), resampledSlice(rows.slice(2), { from: 2, configurations: 5, target: 0.4, seed: 3 })])).toEqual(whole);
    const chosen = choiceSureness(whole.choices!, 0).sameChoice >= choiceSureness(whole.choices!, 1).sameChoice ? 0 : 1;
    const sure = howSureOf(whole, { chosen, settings });
    // Said as a pick's stability, not its chance of being best; a runner-up picked more often than the pick is said to be preferred.
    expect(sure.text).toMatch(/^How sure: (picked in [\d.]+% of 200 paired resamples of these runs \(seed 3\)|resamples prefer \S+ \(picked in [\d.]+% of 200 paired resamples of these runs, seed 3\) to this pick \([\d.]+%\)) — how stable the pick is, not the chance it is best/);
    expect(sure.pickedShare! + sure.runnersUp.reduce((n, r) => n + r.share, 0)).toBeLessThanOrEqual(1);
    if (sure.pickedShare! < 0.9) expect(sure.text).toMatch(/more runs would\.$/);
    const sameEverywhere = resampledSlice([outcomes([1, 2, 3], [1, 1, 1]), outcomes([5, 5, 5], [1, 1, 1])], { from: 0, configurations: 2, target: 0.5, seed: 1 });
    expect(howSureOf(sameEverywhere, { chosen: 0, settings: ['a', 'b'] }).text).toBe('How sure: picked in 100.0% of 200 paired resamples of these runs (seed 1) — how stable the pick is, not the chance it is best.');
    const past = resampledSlice(rows, { from: 0, configurations: Math.ceil(MAX_RESAMPLED_CELLS / 30) + 1, target: 0.4, seed: 3 });
    expect(past.choices).toBeNull();
    expect(howSureOf(joinResampled([past, whole]), { chosen, settings }).text).toContain('How sure: not worked out');
  });
});
