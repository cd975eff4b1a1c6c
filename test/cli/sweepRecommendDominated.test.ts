/**
 * sweep's recommendation weighed against the same runs with no brakes: the README's own example (the 38
 * mini-swe-agent runs, --grid max-steps=50,100,200 --grid max-repeat=3,5 at 50%) picks 100/5, 19/38 at
 * $0.0858 per completed run, while no brakes completes 28/38 at $0.0778 — worse on both, which the pick now
 * says (text and JSON `recommendation.noBrakes.dominates`); and a target no configuration reaches says what is
 * reachable: the most any configuration completes, what its runs complete with no brakes, and why the rest never do.
 */
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cli, tempDir } from './run.js';

const MINI = '../shared/traces/mini-swe-agent';
let prices = '';

interface NoBrakes {
  runs: number;
  completed: number;
  costUsd: number;
  costPerCompletedUsd: number | null;
  dominates: boolean;
}

beforeAll(async () => {
  prices = join(tempDir(), 'prices.json');
  const derived = await cli('prices', 'derive', MINI, '--out', prices);
  expect(derived.code, derived.stderr).toBe(0);
}, 120_000);

describe('sweep: a pick worse than no brakes on both measures says so', { timeout: 120_000 }, () => {
  it("the README's example: 100/5 at 19/38 is beaten by no brakes at 28/38 and less per completed run", async () => {
    const r = await cli('sweep', MINI, '--prices-override', prices, '--grid', 'max-steps=50,100,200', '--grid', 'max-repeat=3,5', '--target-completion', '0.5', '--workers', '1', '--format', 'json');
    expect(r.code, r.stderr).toBe(0);
    const rec = (JSON.parse(r.stdout) as { recommendation: { settings: string; costPerCompletedUsd: number; text: string; noBrakes: NoBrakes } }).recommendation;
    expect(rec.settings).toBe('max-steps=100,max-repeat=5');
    expect(rec.noBrakes).toMatchObject({ runs: 38, completed: 28, dominates: true });
    expect(rec.noBrakes.costPerCompletedUsd!).toBeLessThan(rec.costPerCompletedUsd);
    expect(rec.text).toContain('No brakes beats it on both: 28/38 complete (73.7%) at $0.0778 per completed run ($2.1779 in all) — brakes here only cut runs.');
  });

  it('a pick cheaper per completed run than no brakes is not said to be beaten', async () => {
    const r = await cli('sweep', MINI, '--prices-override', prices, '--grid', 'max-same-error=2,3,5', '--grid', 'same-error-mode=consecutive,total', '--target-completion', '0.6', '--workers', '1', '--format', 'json');
    const rec = (JSON.parse(r.stdout) as { recommendation: { text: string; noBrakes: NoBrakes } }).recommendation;
    expect(rec.noBrakes).toMatchObject({ completed: 28, dominates: false });
    expect(rec.text).toContain('With no brakes: 28/38 complete (73.7%) at $0.0778 per completed run');
    expect(rec.text).not.toContain('beats it');
  });
});

describe('sweep: a target none reaches says what is reachable', { timeout: 120_000 }, () => {
  it('names the most any configuration completes, the no-brakes share and the runs that end unfinished unbraked', async () => {
    const r = await cli('sweep', MINI, '--prices-override', prices, '--grid', 'max-steps=10,200', '--target-completion', '0.9', '--workers', '1');
    expect(r.code, r.stderr).toBe(0);
    const said = r.stdout.replace(/\s+/g, ' ');
    expect(said).toContain('No configuration completes at least 90.0% of runs. The most reached: max-steps=200, 28/38 complete (73.7%) at $0.0778 per completed run. With no brakes its runs: 28/38 complete (73.7%).');
    expect(said).toContain('Of its runs, 10 end unfinished with no brake stopping them (trace_end 10:');
  });
});
