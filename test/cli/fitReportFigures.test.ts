/**
 * `fit --report`'s table shows its figures as every text table does: prompt tokens as a token count with
 * thousands separators (interpolated quantiles rounded to the token: `30,867`, not `30866.5`), money as money,
 * steps to a tenth (an interpolated step count is a figure of its own). JSON keeps the numbers.
 */
import { describe, expect, it } from 'vitest';
import { fitFigureText } from '../../src/cli/actions/fit.js';
import { cli } from './run.js';

describe("fit --report's figures", () => {
  it('formats each metric as its kind', () => {
    expect(fitFigureText('promptTokensAtLastCall', 30866.5)).toBe('30,867');
    expect(fitFigureText('promptTokensAtLastCall', 108206)).toBe('108,206');
    expect(fitFigureText('stepsPerRun', 105.25)).toBe('105.3');
    expect(fitFigureText('costPerRunUsd', 0.0472)).toBe('$0.0472');
  });

  it('the table on the shared fixture shows prompt tokens with separators and no fraction; JSON keeps numbers', async () => {
    const r = await cli('fit', 'test/fixtures/mini-swe-agent', '--report', '--runs', '50');
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stderr.split('\n').filter((line) => line.startsWith('promptTokensAtLastCall'));
    expect(lines).toHaveLength(5);
    // metric, quantile, recorded, synthetic, gap: the two figures are whole token counts.
    const figures = lines.flatMap((line) => line.split(/\s{2,}/).slice(2, 4));
    expect(figures).toHaveLength(10);
    for (const figure of figures) expect(figure).toMatch(/^\d{1,3}(,\d{3})*$/);
    expect(figures.some((figure) => figure.includes(','))).toBe(true);
    const json = await cli('fit', 'test/fixtures/mini-swe-agent', '--report', '--runs', '50', '--format', 'json');
    const rows = (JSON.parse(json.stderr) as { rows: { metric: string; recorded: unknown }[] }).rows.filter((row) => row.metric === 'promptTokensAtLastCall');
    for (const row of rows) expect(typeof row.recorded).toBe('number');
  });
});
