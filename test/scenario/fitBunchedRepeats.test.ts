/**
 * Real runs bunch their repeats on one action and never re-run the action just run; `fit` writes each group's
 * `repeatFocus` (src/scenario/fitToolShares.ts) and a healthy entry that sets it draws its repeats so
 * (src/synthetic/behaviours/focusedRepeat.ts). Before, the profile of the 38 shared mini-swe-agent runs spread
 * its repeats over every earlier action: swept at max-repeat 2/3/5 it stopped 43.9% / 8.8% / 0.07% of the runs
 * that complete with no brakes (the recordings: 19, 11 and 6 of 28, 67.9% / 39.3% / 21.4%) and completed
 * 40.5% / 65.8% / 72.2% (the recordings: 23.7% / 44.7% / 57.9%); under repeat-mode consecutive it stopped 12
 * completing runs of 2,000 (the recordings, which never re-ran a command back to back: none).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { actionFingerprint } from '../../src/brakes/fingerprint.js';
import { loadTraceFiles } from '../../src/import/index.js';
import { collectInputs } from '../../src/io/collectInputs.js';
import type { Trace } from '../../src/trace/types.js';
import { collectAsync } from '../helpers.js';
import { cli, tempDir } from '../cli/run.js';
import { bunchedScenario, fittedProfile, SHARED_PRICES, SHARED_RUNS, sweptRows } from './fitSweeps.js';

const RUNS = SHARED_RUNS;
const PRICES = SHARED_PRICES;

/** `sweep input --grid g… extra…` on one thread, its JSON rows. */
const swept = (input: string, grid: string[], ...extra: string[]) => sweptRows(input, ...grid.flatMap((g) => ['--grid', g]), ...extra);
const fitted = fittedProfile;

/** The field in an entry (the profile's comments name it too). */
const SCALE_FIELD = /^ +repeatShareScale:/m;

/** The sampling sd of a share p of n runs. */
const sdOf = (p: number, n: number) => Math.sqrt((p * (1 - p)) / n);

/**
 * `input` swept at max-repeat 2/3/5 under repeat-mode total and consecutive, in one sweep (its runs made once,
 * replayed under each mode: a configuration's row is what a sweep of it alone gives), the rows of `mode`: the
 * tests on the 38 shared runs below (this file's and fitRepeatSpread's) read the same two sweeps.
 */
async function sweptRepeats(mode: 'total' | 'consecutive', input: string, ...extra: string[]) {
  const rows = await sweptRows(input, '--grid', 'max-repeat=2,3,5', '--grid', 'repeat-mode=total,consecutive', ...extra);
  const ofMode = rows.filter((row) => row.settings.endsWith(`,repeat-mode=${mode}`));
  expect(ofMode.map((row) => row.settings)).toEqual([2, 3, 5].map((limit) => `max-repeat=${limit},repeat-mode=${mode}`));
  return ofMode;
}

/** Each run's tool actions in order (failed calls left out, as fit reads them). */
async function actionsOf(file: string): Promise<string[][]> {
  const traces: Trace[] = await collectAsync(loadTraceFiles(collectInputs([file])));
  return traces.map((t) => t.calls.filter((c) => !c.failed).flatMap((c) => (c.toolCalls ?? []).map((tool) => actionFingerprint(tool.name, tool.arguments))));
}

describe('fit: repeats bunched on one action, as real runs bunch them', () => {
  it('on the 38 mini-swe-agent runs, swept at max-repeat 2/3/5, the profile stops and completes about as the recordings do', async () => {
    const profile = await fitted(RUNS, ...PRICES);
    const recorded = await sweptRepeats('total', RUNS, ...PRICES);
    const synthetic = await sweptRepeats('total', profile, '--runs', '2000', '--seed', '1', ...PRICES);
    expect(recorded.map((r) => r.falseStops)).toEqual([19, 11, 6]);
    for (const [i, r] of recorded.entries()) {
      const s = synthetic[i]!;
      expect(s.settings).toBe(r.settings);
      // A share of 28 completing runs has a sampling sd of ~9 points near 40%: held within 15 (now, with each run's
      // own repeat share, 0.7 / 3.7 / 7.8 points: fitRepeatSpread.test.ts; with the focus alone 10.8 / 10.0 / 10.8;
      // before 24.0 / 30.5 / 21.3 under).
      expect(Math.abs(s.falseStopRate - r.falseStopRate), r.settings).toBeLessThan(0.15);
      // Completion of 38 runs: sd ~8 points; held within 10 (now 1.0 / 3.6 / 4.5; with the focus alone 8.3 / 8.1 /
      // 6.6; before 16.8 / 21.1 / 14.3 over).
      expect(Math.abs(s.completionRate - r.completionRate), r.settings).toBeLessThan(0.1);
    }
    // The recordings never re-ran a command back to back: under repeat-mode consecutive nothing stops (before: 12 runs).
    const consecutive = await sweptRepeats('consecutive', profile, '--runs', '2000', '--seed', '1', ...PRICES);
    expect(consecutive[0]!.falseStops).toBe(0);
  });

  it('fitted to runs generated with bunched repeats, the profile sweeps as they do', async () => {
    const dir = tempDir();
    const scenario = bunchedScenario(dir, 'bunched', { runs: 300, seed: 5 });
    const generated = join(dir, 'gen.jsonl');
    expect((await cli('generate', scenario, '--out', generated)).code).toBe(0);
    // The agent's repeats: never the action just run, and bunched (a run's busiest action takes most of them).
    const runs = await actionsOf(generated);
    const backToBack = runs.reduce((n, actions) => n + actions.filter((a, i) => i > 0 && a === actions[i - 1]).length, 0);
    expect(backToBack).toBe(0);
    const busiest = runs.map((actions) => Math.max(...[...tally(actions).values()]));
    expect(busiest.filter((n) => n >= 4).length).toBeGreaterThan(150);
    const profile = await fitted(generated);
    const grid = ['max-repeat=2,3,5'];
    const recorded = await swept(generated, grid);
    const synthetic = await swept(profile, grid, '--runs', '2000', '--seed', '1');
    for (const [i, r] of recorded.entries()) {
      // 300 runs: a completion share's sd is under 3 points; held within 5 (now 1.8 / 0.2 / 2.2 points;
      // fitted without the focus, 36.1 / 56.3 / 29.1 points over).
      expect(Math.abs(synthetic[i]!.completionRate - r.completionRate), r.settings).toBeLessThan(0.05);
    }
  });
});

/**
 * fitRepeatSpread.test.ts's test on the 38 shared runs, here where the same profile and sweeps are made: runs differ
 * in how often they repeat, and `fit` writes a group's `repeatShareScale` (src/scenario/fitRepeatScale.ts). Before,
 * every run of a group repeated at the group's one share: swept at max-repeat 2/3/5, the profile stopped 78.7 / 49.3 /
 * 10.6% of the runs that complete with no brakes (the recordings: 67.9 / 39.3 / 21.4%), and completed 40.5 / 65.8 /
 * 72.2% (the recordings: 23.7 / 44.7 / 57.9%).
 */
describe('fit: each run its own repeat share, as real runs differ', () => {
  it('on the 38 mini-swe-agent runs, swept at max-repeat 2/3/5, the profile stops its completing runs as the recordings do, within their sampling noise', async () => {
    const profile = await fittedProfile(SHARED_RUNS, ...SHARED_PRICES);
    expect(readFileSync(profile, 'utf8')).toMatch(SCALE_FIELD);
    const recorded = await sweptRepeats('total', SHARED_RUNS, ...SHARED_PRICES);
    const synthetic = await sweptRepeats('total', profile, '--runs', '2000', '--seed', '1', ...SHARED_PRICES);
    expect(recorded.map((r) => r.falseStops)).toEqual([19, 11, 6]);
    // Each gap in sds of the recordings' own share of 28 completing runs (8.8 / 9.2 / 7.8 points; the 2,000
    // synthetic runs add about 1): now 0.08 / 0.40 / 1.01 sd (+0.7 / +3.7 / −7.8 points), root mean square 0.63;
    // before 1.23 / 1.09 / 1.40 sd (+10.8 / +10.0 / −10.8 points), root mean square 1.24, every one past 1 sd.
    // Held: together well within one sd (root mean square under 0.8), none past 1.2.
    const z = recorded.map((r, i) => {
      expect(synthetic[i]!.settings).toBe(r.settings);
      return (synthetic[i]!.falseStopRate - r.falseStopRate) / sdOf(r.falseStopRate, 28);
    });
    const rms = Math.sqrt(z.reduce((s, x) => s + x * x, 0) / z.length);
    expect(rms, z.map((x) => x.toFixed(2)).join(' / ')).toBeLessThan(0.8);
    for (const x of z) expect(Math.abs(x)).toBeLessThan(1.2);
    // Completion of 38 runs, sd ~8 points: now within 5 (−1.0 / −3.6 / +4.5 points; before −8.3 / −8.1 / +6.6).
    for (const [i, r] of recorded.entries()) expect(Math.abs(synthetic[i]!.completionRate - r.completionRate), r.settings).toBeLessThan(0.05);
  });
});

function tally(actions: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const a of actions) counts.set(a, (counts.get(a) ?? 0) + 1);
  return counts;
}
