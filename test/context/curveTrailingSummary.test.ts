/**
 * A curve whose run ends right after a summary call (the summary was made, then the budget stopped the
 * next call) counts that call in its total: it is not a step, so no row shows it, but it was paid.
 */
import { describe, expect, it } from 'vitest';
import { cli } from '../cli/run.js';

const LOOP = ['--model', 'gpt-4o', '--system-tokens', '500', '--output-tokens', '150', '--tool-tokens', '2050', '--steps', '40', '--context', 'summary:trigger=40000,keep=5,tokens=2000'];

describe('curve with a summary call after its last step', () => {
  it('totals the run, the summary call included, in the text, the JSON and the comparison', async () => {
    const json = JSON.parse((await cli('curve', ...LOOP, '--max-cost', '0.95', '--format', 'json')).stdout);
    const lastRow = json.rows[json.rows.length - 1];
    expect(json.stop.reason).toBe('budget');
    expect(json.summaryAfterLast).toBe(true);
    expect(json.totalCostUsd).toBe(1.01125);
    expect(lastRow.cumulativeCostUsd).toBeLessThan(json.totalCostUsd);
    const text = (await cli('curve', ...LOOP, '--max-cost', '0.95')).stdout;
    expect(text).toContain(`$1.0113 over ${lastRow.step} steps, with a summary call after step ${lastRow.step}\n`);
    const compared = JSON.parse((await cli('curve', ...LOOP.slice(0, -2), '--compare-context', 'full;summary:trigger=40000,keep=5,tokens=2000', '--max-cost', '0.95', '--format', 'json')).stdout);
    const summarised = compared.comparison.totals.find((total: { strategy: string }) => total.strategy.startsWith('summary:'));
    expect(summarised).toMatchObject({ costUsd: 1.01125, stopReason: 'budget' });
  });

  it('a run that ends on a step has no such call, and its total is the last row\'s', async () => {
    const json = JSON.parse((await cli('curve', ...LOOP, '--max-cost', '1.4', '--format', 'json')).stdout);
    expect(json.summaryAfterLast).toBeUndefined();
    expect(json.totalCostUsd).toBe(json.rows[json.rows.length - 1].cumulativeCostUsd);
  });
});

describe('curve --compare-context naming the run\'s own strategy', () => {
  it('runs it once, first', async () => {
    const json = JSON.parse((await cli('curve', ...LOOP.slice(0, -2), '--compare-context', 'full;window:5', '--format', 'json')).stdout);
    expect(json.comparison.strategies).toEqual(['full', 'window:5']);
    expect(json.comparison.totals.map((total: { strategy: string }) => total.strategy)).toEqual(['full', 'window:5']);
  });
});
