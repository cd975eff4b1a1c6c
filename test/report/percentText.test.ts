/**
 * A share as a percentage (src/report/percentText.ts): `project --suggest-cap 1e-10` said "at most 0.0%
 * asked", the share rounded to one decimal. One decimal from 1% up, two significant digits below: a share
 * above 0 never reads as 0.
 */
import { describe, expect, it } from 'vitest';
import { percentText, signedPercentText, styledPercentText } from '../../src/report/percentText.js';

describe('percentText', () => {
  it('one decimal from 1% up, as before', () => {
    expect([0.02, 0.01, 0.793, 0.139, 1].map(percentText)).toEqual(['2.0%', '1.0%', '79.3%', '13.9%', '100.0%']);
  });

  it('below 1%: two significant digits, never 0.0% for a share above 0', () => {
    expect([0.005, 0.0015, 0.00012345, 1e-10, 1e-16].map(percentText)).toEqual(['0.5%', '0.15%', '0.012%', '1e-8%', '1e-14%']);
    for (const share of [5e-324, 1e-300, 3e-12, 4.9e-4, 0.0099]) expect(percentText(share)).not.toMatch(/^0(\.0+)?%$/);
    expect(percentText(0)).toBe('0.0%');
  });

  it('one short of 1: never 100.0% for a share below 1 (4,999 of 5,000 is 99.98%)', () => {
    expect([4999 / 5000, 0.9996, 0.99999999, 0.9994].map(percentText)).toEqual(['99.98%', '99.96%', '99.999999%', '99.9%']);
    expect(styledPercentText(0.99996, { decimals: 2, trim: true })).toBe('99.996%');
    expect(signedPercentText(-0.9999)).toBe('-99.99%');
  });
});

describe("sweep's target in words", () => {
  it('a tiny --target-completion reads as itself, not 0.0%', async () => {
    const { cli } = await import('../cli/run.js');
    const tiny = await cli('sweep', 'scenarios/reverify-forever.jsonl', '--grid', 'max-steps=1,2', '--target-completion', '1e-9');
    expect(tiny.code).toBe(0);
    expect(tiny.stdout).toMatch(/No configuration completes at least 1e-7% of runs\./);
    const usual = await cli('sweep', 'scenarios/reverify-forever.jsonl', '--grid', 'max-steps=1,2', '--target-completion', '0.9');
    expect(usual.stdout).toMatch(/No configuration completes at least 90\.0% of runs\./);
  });
});

describe("project's budget bound in words", () => {
  it('a bound below 0.05% reads as itself (it said 0.0%)', async () => {
    const { cli } = await import('../cli/run.js');
    const r = await cli('project', 'scenarios/flight-search.yaml', '--runs', '7000', '--days', '1', '--trials', '10');
    expect(r.code).toBe(0);
    expect(r.stdout.replace(/\s+/g, ' ')).toMatch(/may stop up to 0\.043% of new runs/);
  });

  it('just under 1% rounds to 1.0%, as 1% and up are said', () => {
    expect([0.00996, 0.0099, 0.00994].map(percentText)).toEqual(['1.0%', '0.99%', '0.99%']);
  });
});
