/**
 * Runs differ in how often they repeat: `fit` writes a group's `repeatShareScale` (src/scenario/fitRepeatScale.ts)
 * and a healthy entry that sets it draws each run's repeat share as repeatShare × a scale drawn per run
 * (src/synthetic/behaviours/healthy.ts). Before, every run of a group repeated at the group's one share: swept
 * at max-repeat 2/3/5, the profile of the 38 shared mini-swe-agent runs stopped 78.7 / 49.3 / 10.6% of the runs
 * that complete with no brakes (too many with a few repeats, too few with many; the recordings: 19, 11 and 6 of
 * 28, 67.9 / 39.3 / 21.4%), and completed 40.5 / 65.8 / 72.2% (the recordings: 23.7 / 44.7 / 57.9%). That test, on
 * the 38 shared runs, is in fitBunchedRepeats.test.ts, which fits and sweeps them once for both.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, tempDir } from '../cli/run.js';
import { bunchedScenario, fittedProfile, sweptRows } from './fitSweeps.js';

/** The field in an entry (the profile's comments name it too). */
const SCALE_FIELD = /^ +repeatShareScale:/m;

describe('fit: each run its own repeat share, as real runs differ', () => {
  it('fitted to runs generated with a spread of repeat shares, the profile writes one and sweeps as they do; runs of one share get none', async () => {
    const dir = tempDir();
    const generated = join(dir, 'spread.jsonl');
    const spread = ['    repeatShareScale: { kind: empirical, quantiles: [0, 0.25, 0.5, 1, 1.5, 3] }'];
    expect((await cli('generate', bunchedScenario(dir, 'spread', { runs: 400, seed: 11, extra: spread }), '--out', generated)).code).toBe(0);
    const profile = await fittedProfile(generated);
    const text = readFileSync(profile, 'utf8');
    expect(text).toMatch(SCALE_FIELD);
    const grid = ['--grid', 'max-repeat=2,3,5'];
    const recorded = await sweptRows(generated, ...grid);
    const synthetic = await sweptRows(profile, ...grid, '--runs', '2000', '--seed', '1');
    // 400 runs: a completion share's sd is under 2.5 points; held within 5 (now 0.5 / 1.3 / 0.4 points).
    for (const [i, r] of recorded.entries()) expect(Math.abs(synthetic[i]!.completionRate - r.completionRate), r.settings).toBeLessThan(0.05);
    // The same profile with every run at its group's one share misses by far more (19.4 / 17.8 / 1.7 points).
    const oneShare = join(dir, 'one-share.yaml');
    writeFileSync(oneShare, text.replace(/ {4}repeatShareScale:\n {6}kind: empirical\n {6}quantiles: \[[^\]]*\]\n/g, ''));
    expect(readFileSync(oneShare, 'utf8')).not.toMatch(SCALE_FIELD);
    const without = await sweptRows(oneShare, ...grid, '--runs', '2000', '--seed', '1');
    const gap = (rows: typeof recorded) => Math.max(...rows.map((s, i) => Math.abs(s.completionRate - recorded[i]!.completionRate)));
    expect(gap(without)).toBeGreaterThan(gap(synthetic) + 0.05);

    const plain = join(dir, 'plain.jsonl');
    expect((await cli('generate', bunchedScenario(dir, 'plain', { runs: 400, seed: 11 }), '--out', plain)).code).toBe(0);
    expect(readFileSync(await fittedProfile(plain), 'utf8')).not.toMatch(SCALE_FIELD);
  });
});
