/**
 * `project --suggest-cap` of a fitted profile: its bounds on new runs are of the runs the completing runs
 * stand for (a fitted profile's runs the recorded runs it was fitted to: population/standingRuns.ts
 * runsStandingFor over partsOfStrata), as the cap bound beside them is, so --runs cannot narrow them. Before,
 * the same report said a budget at the largest run "may stop up to 7.6% … in the 38 runs they stand for" and
 * a cap at the largest completing run "may still stop up to 0.21% … 59 runs bring that bound to 5.0%, and you
 * have 1444" (the 2000 synthetic runs of 38 recorded ones, each counted as a sample).
 */
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { capBoundShare } from '../../src/population/project.js';
import { upperShareBound } from '../../src/population/projectConfidence.js';
import { partsOfStrata, runsStandingFor } from '../../src/population/standingRuns.js';
import { cli, tempDir } from './run.js';
import type { SuggestedCap } from '../../src/report/projectReport.js';

const MINI = '../shared/traces/mini-swe-agent';

/** Each projection by its arguments, run once: two tests read the fitted profile's at --runs 400 (a seeded run gives the same report). */
const projected = new Map<string, ReturnType<typeof cli>>();

async function suggestCap(...inputs: string[]): Promise<SuggestedCap> {
  const argv = ['project', ...inputs, '--preset', 'none', '--days', '1', '--trials', '5', '--suggest-cap', '5%', '--format', 'json'];
  const key = JSON.stringify(argv);
  if (!projected.has(key)) projected.set(key, cli(...argv));
  const r = await projected.get(key)!;
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout).suggestCap;
}

describe('project --suggest-cap: the bounds are of the runs the completing runs stand for', () => {
  let profile = '';
  beforeAll(async () => {
    profile = join(tempDir(), 'prof.yaml');
    const fit = await cli('fit', MINI, '--out', profile);
    expect(fit.code, fit.stderr).toBe(0);
  });

  it("a fitted profile's: those of its recorded runs, whatever --runs draws", async () => {
    const few = await suggestCap(profile, '--runs', '400');
    const many = await suggestCap(profile, '--runs', '2000');
    for (const cap of [few, many]) {
      const stood = cap.standsFor!;
      // 38 recorded runs, about 28 of them complete (as the profile's runs do, drawn): not the 1444 of 2000 drawn.
      expect(stood.completedRuns).toBeGreaterThanOrEqual(24);
      expect(stood.completedRuns).toBeLessThanOrEqual(31);
      expect(cap.completedRuns).toBeGreaterThan(10 * stood.completedRuns);
      expect(cap.boundShare).toBe(capBoundShare(stood.completedRuns));
      expect(cap.stoppedUpperShare).toBe(upperShareBound(stood.stopped, stood.completedRuns));
      expect(cap.text.replace(/\s+/g, ' ')).toContain(`${cap.stopped} of ${cap.completedRuns}, as ${stood.stopped} of the ${stood.completedRuns} runs they stand for; one-sided 95% upper bound`);
      expect(cap.text).toContain(`59 runs bring that bound to 5.0%: ${59 - stood.completedRuns} more than the ${stood.completedRuns} they stand for; fit on more recorded runs).`);
      expect(cap.text).not.toContain('you have');
    }
    // Not narrowed by 5 times the runs: ~10.5% at both (it was 0.21% at 2000).
    expect(many.boundShare).toBeGreaterThan(0.08);
    expect(Math.abs(many.boundShare - few.boundShare)).toBeLessThan(0.02);
  });

  it('recorded runs beside it stand for themselves', async () => {
    // At --runs 400 (the profile's alone is the first test's): the bounds do not depend on --runs, 2000 only took longer.
    const cap = await suggestCap(profile, MINI, '--runs', '400');
    const alone = await suggestCap(profile, '--runs', '400');
    // The 28 recorded runs that complete, plus the profile's share of its 38.
    expect(cap.standsFor!.completedRuns).toBe(alone.standsFor!.completedRuns + 28);
  });

  it("a hand-written scenario's runs are their own sample (its line says no interval measures its guesses)", async () => {
    const cap = await suggestCap('scenarios/production-mix.yaml', '--runs', '60');
    expect(cap.standsFor).toBeUndefined();
    expect(cap.boundShare).toBe(capBoundShare(cap.completedRuns));
    expect(cap.text).toMatch(/59 runs bring that bound to 5\.0%(, and you have \d+|: \d+ more than the \d+ you have)\)\.$/);
  });
});

describe('runsStandingFor over project\'s strata', () => {
  const stratum = (runs: number, sampleRuns: number) => ({ costsPico: Array.from({ length: runs }, () => 1), sampleRuns });
  const standing = (strata: ReturnType<typeof stratum>[] | undefined, picked: boolean[]) => runsStandingFor(partsOfStrata(strata), picked);
  it("counts a part's k of N runs drawn as k × the runs it stands for / N, to the nearest whole run", () => {
    expect(standing(undefined, [true, false, true])).toBe(2);
    // 3 of 4 standing for 2 → 1.5, and 2 of 3 standing for themselves → 2: 3.5 → 4.
    expect(standing([stratum(4, 2), stratum(3, 3)], [true, true, true, false, true, false, true])).toBe(4);
    // A part stands for at most the runs drawn of it.
    expect(standing([stratum(2, 38)], [true, false])).toBe(1);
    expect(standing([stratum(2000, 38)], Array.from({ length: 2000 }, (_, i) => i < 1444))).toBe(27);
  });
});
