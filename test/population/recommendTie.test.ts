/**
 * Ties in a sweep's recommendation go to the tighter brakes (src/population/recommendTie.ts), alike in the
 * report's choice (recommend.ts), in every resample (recommendBootstrap.ts) and in slices joined (shards
 * merged); and how sure the choice is says what the resamples prefer, how often the pick falls below the
 * target, and refers to the tie the recommendation names (recommendSureness.ts, recommendTie.ts tieSentence).
 */
import { describe, expect, it } from 'vitest';
import { recommendedIndex, tiedIndices, type RankedRow } from '../../src/population/recommend.js';
import { choiceSureness, joinChoices, resampleCounts, sliceChoices, type RunOutcomes } from '../../src/population/recommendBootstrap.js';
import { belowTargetShare, howSureOf, joinResampled, resampledSlice } from '../../src/population/recommendSureness.js';
import { GRID_ORDER, TIGHTNESS_ORDER, tieOrderOf, tieSentence } from '../../src/population/recommendTie.js';
import type { GridAxis } from '../../src/population/grid.js';
import { Rng } from '../../src/synthetic/random.js';

const outcomes = (costs: readonly number[], completed: readonly number[]): RunOutcomes => ({ costPico: Float64Array.from(costs), completed: Uint8Array.from(completed) });

/** The grid's configurations' settings, first axis slowest (as gridConfigurations makes them). */
function cells(grid: readonly GridAxis[]): string[] {
  return grid.reduce<string[]>((acc, axis) => acc.flatMap((prefix) => axis.values.map((v) => (prefix === '' ? '' : `${prefix},`) + `${axis.key}=${v}`)), ['']);
}

describe('the tie order', () => {
  it('puts the tighter brakes first, whatever the grid order: a smaller step cap, a budget before a step cap, stop before skip, a limit before none', () => {
    const steps = [{ key: 'max-steps', values: ['80', '40'] }];
    expect(tieOrderOf((i) => cells(steps)[i]!, steps)(1, 0)).toBeLessThan(0);
    const both = [{ key: 'max-steps', values: ['10', '40'] }, { key: 'max-cost', values: ['5', '2'] }];
    const order = tieOrderOf((i) => cells(both)[i]!, both);
    // max-steps=40,max-cost=2 (3) goes before max-steps=10,max-cost=5 (0): the budget is compared first; then the step cap.
    expect(order(3, 0)).toBeLessThan(0);
    expect(order(1, 3)).toBeLessThan(0);
    expect(order(2, 0)).toBeGreaterThan(0);
    const action = [{ key: 'repeat-action', values: ['skip', 'stop'] }];
    expect(tieOrderOf((i) => cells(action)[i]!, action)(1, 0)).toBeLessThan(0);
    const presets = [{ key: 'preset', values: ['none', 'reference'] }];
    expect(tieOrderOf((i) => cells(presets)[i]!, presets)(1, 0)).toBeLessThan(0);
  });

  it('falls back to grid order where no limit differs (a context, a model), and is a total order', () => {
    const grid = [{ key: 'context', values: ['window:5', 'full'] }, { key: 'max-steps', values: ['30', '20', '10'] }];
    const settings = cells(grid);
    const order = tieOrderOf((i) => settings[i]!, grid);
    expect(order(0, 3)).toBeLessThan(0);
    const sorted = settings.map((_, i) => i).sort(order);
    expect(sorted.map((i) => settings[i])).toEqual(['context=window:5,max-steps=10', 'context=full,max-steps=10', 'context=window:5,max-steps=20', 'context=full,max-steps=20', 'context=window:5,max-steps=30', 'context=full,max-steps=30']);
    for (const a of sorted) for (const b of sorted) expect(Math.sign(order(a, b)) + Math.sign(order(b, a))).toBe(0);
  });

  it('recommend.ts: of rows tied on cost per completed run and spend, the tighter brakes; grid order without a tie order', () => {
    const grid = [{ key: 'max-steps', values: ['80', '40', '20'] }];
    const rows: RankedRow[] = [
      { completionRate: 0.7, costPerCompletedUsd: 0.01, costUsd: 1 },
      { completionRate: 0.7, costPerCompletedUsd: 0.01, costUsd: 1 },
      { completionRate: 0.5, costPerCompletedUsd: 0.008, costUsd: 0.6 },
    ];
    expect(recommendedIndex(rows, 0.6)).toBe(0);
    const index = recommendedIndex(rows, 0.6, { tieOrder: tieOrderOf((i) => cells(grid)[i]!, grid) });
    expect(index).toBe(1);
    expect(tiedIndices(rows, index!, 0.6)).toEqual([0]);
    expect(tiedIndices(rows, 2, 0.4)).toEqual([]);
  });
});

describe('ties in the resamples', () => {
  const grid = [{ key: 'max-steps', values: ['80', '40'] }];
  const order = tieOrderOf((i) => cells(grid)[i]!, grid);

  it('rows the same run for run: every resample picks the tighter, a later row (it picked the first by grid order)', () => {
    const same = outcomes([5, 7, 9, 11], [1, 1, 0, 1]);
    const counts = resampleCounts(4, { seed: 2, resamples: 30 });
    const choices = sliceChoices([same, same], { from: 0, counts, target: 0.5, tieOrder: order });
    expect(choices.filter((c) => c.index >= 0).every((c) => c.index === 1)).toBe(true);
    expect(choiceSureness(choices, 1).sameChoice).toBeGreaterThan(0.5);
    // Grid order as before without a tie order.
    expect(sliceChoices([same, same], { from: 0, counts, target: 0.5 }).filter((c) => c.index >= 0).every((c) => c.index === 0)).toBe(true);
    // In two slices (two shards), joined with the same order: the same choices.
    const parts = [sliceChoices([same], { from: 0, counts, target: 0.5, tieOrder: order }), sliceChoices([same], { from: 1, counts, target: 0.5, tieOrder: order })];
    expect(joinChoices(parts, order)).toEqual(choices);
    expect(joinChoices(parts, GRID_ORDER)).not.toEqual(choices);
  });

  it('on seeded grids with repeated rows: each resample chooses as recommend.ts does with the tie order; slices joined the same', () => {
    const steps = [{ key: 'max-steps', values: ['9', '3', '7', '1', '8', '2', '6', '4'] }];
    const tie = tieOrderOf((i) => cells(steps)[i]!, steps);
    for (let seed = 1; seed <= 20; seed++) {
      const rng = new Rng(seed);
      const distinct = Array.from({ length: 3 }, () => outcomes(Array.from({ length: 12 }, () => rng.int(1, 3) * 1e6), Array.from({ length: 12 }, () => (rng.chance(0.6) ? 1 : 0))));
      const rows = Array.from({ length: 8 }, () => distinct[rng.int(0, 2)]!);
      const counts = resampleCounts(12, { seed, resamples: 40 });
      const byHand = counts.map((drawn) => {
        const figures = rows.map((row) => {
          let completed = 0;
          let cost = 0;
          drawn.forEach((times, k) => ((completed += times * row.completed[k]!), (cost += times * row.costPico[k]!)));
          return { completionRate: completed / 12, costPerCompletedUsd: completed === 0 ? null : cost / completed, costUsd: cost };
        });
        return recommendedIndex(figures, 0.5, { tieOrder: tie }) ?? -1;
      });
      const whole = sliceChoices(rows, { from: 0, counts, target: 0.5, tieOrder: tie });
      expect(whole.map((c) => c.index), `seed ${seed}`).toEqual(byHand);
      const parts = [sliceChoices(rows.slice(0, 3), { from: 0, counts, target: 0.5, tieOrder: tie }), sliceChoices(rows.slice(3), { from: 3, counts, target: 0.5, tieOrder: tie })];
      expect(joinChoices(parts, tie), `seed ${seed}`).toEqual(whole);
    }
  });
});

describe('how sure, in words', () => {
  it('the share of resamples that fall below the target is the binomial one the draws give', () => {
    // 19 of 38 on a target of 50%: P(Binomial(38, 1/2) ≤ 18).
    expect(belowTargetShare(19, 38, 0.5)).toBeCloseTo(0.4357, 4);
    expect(belowTargetShare(38, 38, 0.5)).toBe(0);
    expect(belowTargetShare(1, 1, 1)).toBe(0);
    // Against the draws themselves: 19 of 38 completed, counted over 4,000 resamples.
    const completed = Array.from({ length: 38 }, (_, k) => (k < 19 ? 1 : 0));
    const counts = resampleCounts(38, { seed: 5, resamples: 4000 });
    const below = counts.filter((drawn) => drawn.reduce((n, times, k) => n + times * completed[k]!, 0) / 38 < 0.5).length / 4000;
    expect(Math.abs(below - belowTargetShare(19, 38, 0.5))).toBeLessThan(0.03);
  });

  it('names a runner-up picked more often than the pick as what resamples prefer, and why the pick is unsure', () => {
    // Row 0 completes 5 of 10 (the target) cheaply; row 1 completes 8 of 10, a little dearer per completed run.
    const pick = outcomes([1, 1, 1, 1, 1, 9, 9, 9, 9, 9], [1, 1, 1, 1, 1, 0, 0, 0, 0, 0]);
    const other = outcomes([1.6, 1.6, 1.6, 1.6, 1.6, 1.6, 1.6, 1.6, 9, 9], [1, 1, 1, 1, 1, 1, 1, 1, 0, 0]);
    const resampled = resampledSlice([pick, other], { from: 0, configurations: 2, target: 0.5, seed: 1 });
    const sure = howSureOf(resampled, { chosen: 0, settings: ['max-steps=5', 'max-steps=10'], completed: 5, runs: 10, target: 0.5 });
    expect(sure.runnersUp[0]!.share).toBeGreaterThan(sure.pickedShare!);
    expect(sure.text).toMatch(/^How sure: resamples prefer max-steps=10 \(picked in [\d.]+% of 200 paired resamples of these runs, seed 1\) to this pick \([\d.]+%\) — how stable the pick is, not the chance it is best/);
    expect(sure.text).not.toContain('runner-up');
    expect(sure.text).toContain(`its 5/10 sits on the target of 50.0%: in 37.7% of resamples it falls below it`);
    expect(sure.belowTargetShare).toBeCloseTo(0.377, 3);
    expect(sure.text).toMatch(/not sure, these runs do not tell it from max-steps=10; more runs would\.$/);
  });

  it('refers to the tie (said once, in the recommendation), so that a pick the runs cannot tell from another never reads as sure by the runs alone', () => {
    const same = outcomes([5, 7, 9, 11], [1, 1, 0, 1]);
    const grid = [{ key: 'max-steps', values: ['80', '40'] }];
    const order = tieOrderOf((i) => cells(grid)[i]!, grid);
    const slices = [resampledSlice([same], { from: 0, configurations: 2, target: 0.5, seed: 1, tieOrder: order }), resampledSlice([same], { from: 1, configurations: 2, target: 0.5, seed: 1, tieOrder: order })];
    const sure = howSureOf(joinResampled(slices, order), { chosen: 1, settings: cells(grid), completed: 3, runs: 4, target: 0.5, tiedWith: ['max-steps=80'] });
    expect(sure.text).toContain('picked over the configuration it ties with by the tie rule, not by the runs');
    // The tied configurations are named in the recommendation's text only (tieSentence), not listed again here.
    expect(sure.text).not.toContain('max-steps=80');
    const many = howSureOf(joinResampled(slices, order), { chosen: 1, settings: cells(grid), tiedWith: ['a', 'b', 'c', 'd'] });
    expect(many.text).toContain('picked over the 4 configurations it ties with by the tie rule, not by the runs');
  });

  it('the tie sentence names at most 3 tied configurations and says the order from TIGHTNESS_ORDER', () => {
    expect(tieSentence(['max-steps=80'])).toBe(
      'It ties on these runs with max-steps=80 (the same completions and spend): of tied configurations the one with the tighter brakes is recommended (the lower budget, then token cap, step cap, timeout and the other limits; else the first in the grid).',
    );
    expect(tieSentence(['a', 'b', 'c', 'd', 'e'])).toContain('It ties on these runs with a, b, c and 2 more (the same completions and spend)');
    expect(tieSentence(['a'])).toContain(`the lower ${TIGHTNESS_ORDER[0]}, then ${TIGHTNESS_ORDER.slice(1, 4).join(', ')} and the other limits`);
  });
});
