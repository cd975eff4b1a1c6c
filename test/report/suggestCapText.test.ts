/**
 * `project --suggest-cap` in words a newcomer can read: money as reports show it (the flag exact), that
 * the cap is chosen from what the runs cost with no brakes, what an upper bound above the share asked
 * means, and the value of the second cap (at the largest completing run). It used to print
 * `$0.30789375 … stops 5 of the 260 … (at most 2.0% asked) … may stop up to 4.4% … a cap at the largest
 * completing run …` with the second cap's value left out.
 */
import { describe, expect, it } from 'vitest';
import { suggestCapText } from '../../src/report/suggestCapText.js';
import { formatUsdNumber } from '../../src/report/money.js';
import { capBoundShare } from '../../src/population/project.js';
import { upperShareBound } from '../../src/population/projectConfidence.js';
import { wilsonInterval } from '../../src/population/recommend.js';
import { cli } from '../cli/run.js';

const FACTS = { share: 0.02, capPico: 307_893_750_000, largestPico: 412_345_678_901, completedRuns: 260, stopped: 5, upperShare: 0.044, boundShare: 0.0115, runsToClaim: 149, modeFlag: '' };

describe('project --suggest-cap text', () => {
  it('money at the places reports use, the flag exact; the second cap valued; the upper bound past the share asked explained', () => {
    const text = suggestCapText(FACTS);
    expect(text).toContain('Suggested per-run budget: $0.3079 (--max-cost 0.30789375), chosen so that at most 2.0% of the 260 runs that complete with no brakes cost more (their costs measured without the other brakes).');
    expect(text).toContain("Replayed with it under the projection's brakes, it stops 5 of those 260 runs (1.9%).");
    expect(text).toContain('on new runs it may stop up to 4.4% (5 of 260; one-sided 95% upper bound, exact binomial), above the 2.0% asked: 260 runs cannot show that it stops no more than that');
    expect(text).toContain('A cap at the largest completing run, $0.4123 (--max-cost 0.412345678901), stops none of them and may still stop up to 1.1% of new runs');
    expect(text).toContain('149 runs bring that bound to 2.0%, and you have 260).');
    expect(text).not.toMatch(/\$\d+\.\d{5,}/);
  });

  it('within the share asked, and too few runs for the second claim: said so', () => {
    const text = suggestCapText({ ...FACTS, completedRuns: 100, stopped: 0, upperShare: 0.0185, modeFlag: ' --budget-mode check' });
    expect(text).toContain('(--max-cost 0.30789375 --budget-mode check)');
    expect(text).toContain('(0 of 100; one-sided 95% upper bound, exact binomial), within the 2.0% asked.');
    expect(text).toContain('149 runs bring that bound to 2.0%: 49 more than the 100 you have).');
  });

  it("both bounds are one-sided 95%: the stopped share's (exact binomial) is the distribution-free bound's when it stops none", async () => {
    for (const n of [1, 20, 30, 149, 1000]) expect(upperShareBound(0, n)).toBeCloseTo(capBoundShare(n), 9);
    // 5 of 260: exact one-sided 95% 4.0%; a two-sided 95% Wilson upper end (one-sided 97.5%) is 4.4%, another kind.
    expect(upperShareBound(5, 260)).toBeCloseTo(0.0400, 4);
    expect(upperShareBound(5, 260)).toBeLessThan(wilsonInterval(5, 260)[1]);
    const r = await cli('project', 'scenarios/production-mix.yaml', '--runs', '30', '--days', '1', '--trials', '5', '--suggest-cap', '0.02', '--format', 'json');
    expect(r.code, r.stderr).toBe(0);
    const cap = JSON.parse(r.stdout).suggestCap;
    expect(cap.stoppedUpperShare).toBeCloseTo(upperShareBound(cap.stopped, cap.completedRuns), 12);
    expect(cap.text).toContain('one-sided 95% upper bound, exact binomial');
    expect(cap.text).toContain('(one-sided 95% too, distribution-free;');
    expect(cap.text).not.toContain('Wilson');
  });

  it('the command: the money in the text is the report formatter\'s, of the exact cap in JSON', async () => {
    const r = await cli('project', 'scenarios/production-mix.yaml', '--runs', '60', '--days', '2', '--trials', '20', '--suggest-cap', '0.02', '--format', 'json');
    expect(r.code, r.stderr).toBe(0);
    const cap = JSON.parse(r.stdout).suggestCap;
    expect(cap.text).toContain(`Suggested per-run budget: ${formatUsdNumber(cap.capUsd)} (--max-cost ${cap.capUsd}),`);
    expect(cap.text).toMatch(/A cap at the largest completing run, \$[\d.]+ \(--max-cost [\d.]+\), stops none of them/);
  });
});
