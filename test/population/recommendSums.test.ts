/**
 * The bootstrap's sums worked out from a nearby row (recommendSums.ts) equal each row summed whole over every
 * resample's draws, run by run: on seeded grids whose rows share most runs' outcomes (a step cap one higher,
 * a tighter limit), rows that share none, identical rows, and rows of one run. A failure names its seed.
 */
import { describe, expect, it } from 'vitest';
import { joinChoices, resampleCounts, sliceChoices, type RunOutcomes } from '../../src/population/recommendBootstrap.js';
import { resampleSums } from '../../src/population/recommendSums.js';
import { lcg } from '../helpers.js';

/** A grid of `rowCount` rows over `runs` runs: each row a fresh one, or an earlier row with a few runs changed. */
function grid(seed: number, rowCount: number, runs: number): RunOutcomes[] {
  const next = lcg(seed);
  const fresh = (): RunOutcomes => ({ completed: Uint8Array.from({ length: runs }, () => next(2)), costPico: Float64Array.from({ length: runs }, () => next(5_000_000) * 1_000) });
  const rows: RunOutcomes[] = [];
  for (let i = 0; i < rowCount; i++) {
    if (i === 0 || next(5) === 0) {
      rows.push(fresh());
      continue;
    }
    const base = rows[next(i)]!;
    const row = { completed: base.completed.slice(), costPico: base.costPico.slice() };
    for (let c = next(Math.max(1, Math.floor(runs / 3))); c > 0; c--) {
      const k = next(runs);
      row.completed[k] = next(2);
      row.costPico[k] = next(5_000_000) * 1_000;
    }
    rows.push(row);
  }
  return rows;
}

function wholeSums(row: RunOutcomes, counts: readonly Uint16Array[]): { completed: number[]; costPico: number[] } {
  const completed = counts.map((times) => times.reduce((sum, t, k) => sum + t * row.completed[k]!, 0));
  const costPico = counts.map((times) => times.reduce((sum, t, k) => sum + t * row.costPico[k]!, 0));
  return { completed, costPico };
}

describe('the bootstrap sums from a nearby row equal each row summed whole', () => {
  it('on 40 seeded grids', () => {
    for (let seed = 1; seed <= 40; seed++) {
      const runs = 1 + ((seed * 37) % 300);
      const rows = grid(seed, 1 + ((seed * 11) % 60), runs);
      const counts = resampleCounts(runs, { seed, resamples: 20 });
      const sums = resampleSums(rows, counts);
      rows.forEach((row, i) => {
        const whole = wholeSums(row, counts);
        expect([...sums[i]!.completed], `seed ${seed} row ${i}`).toEqual(whole.completed);
        expect([...sums[i]!.costPico], `seed ${seed} row ${i}`).toEqual(whole.costPico);
      });
    }
  });
});

describe('past 2^53 picodollars in a resample, the choice does not depend on how the grid is sliced', () => {
  it('4,000 runs of ~$1–5 each: a shard of [Z, A] and one of [Y, A2] (A2 = A) choose as one sweep does', () => {
    const runs = 4000;
    const next = lcg(7);
    const A: RunOutcomes = { completed: Uint8Array.from({ length: runs }, () => 1), costPico: Float64Array.from({ length: runs }, () => 1e12 + next(4_000_000) * 1_000_000 + next(1000)) };
    const Z: RunOutcomes = { completed: A.completed.slice(), costPico: A.costPico.slice() };
    for (let k = 0; k < runs; k += 5) Z.costPico[k] = Z.costPico[k]! + 123_457 + next(1000);
    const Y: RunOutcomes = { completed: new Uint8Array(runs), costPico: Float64Array.from({ length: runs }, () => next(1000)) };
    const A2: RunOutcomes = { completed: A.completed.slice(), costPico: A.costPico.slice() };
    const counts = resampleCounts(runs, { seed: 1, resamples: 200 });
    const sums = resampleSums([Z, A, Y, A2], counts);
    expect(Math.max(...sums[1]!.costPico)).toBeGreaterThan(2 ** 53);
    expect([...sums[3]!.costPico]).toEqual([...sums[1]!.costPico]);
    const whole = sliceChoices([Z, A, Y, A2], { from: 0, counts, target: 0.5 });
    const sharded = joinChoices([sliceChoices([Z, A], { from: 0, counts, target: 0.5 }), sliceChoices([Y, A2], { from: 2, counts, target: 0.5 })]);
    expect(sharded.map((c) => c.index)).toEqual(whole.map((c) => c.index));
    expect(new Set(whole.map((c) => c.index))).toEqual(new Set([1]));
  });
});
