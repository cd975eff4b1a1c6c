/**
 * `curve` under a summary strategy: its rows are the steps 1…N in order, a summary call marked on the step
 * after it — numbered by steps, not by calls, now that a summary call is one of the run's calls (its row
 * numbered so: loop/summary.ts).
 */
import { describe, expect, it } from 'vitest';
import { parseContextSpec } from '../../src/context/strategy.js';
import { curveRun } from '../../src/replay/curve.js';
import { MINI_TABLE } from '../helpers.js';

describe('curve under a summary strategy', () => {
  it('rows 1…N by step, each summary call a mark on the step after it', () => {
    const spec = { model: 'mini', systemTokens: 100, outputTokens: 100, toolTokens: 200, steps: 8 };
    const run = curveRun(spec, parseContextSpec('summary:trigger=700,keep=1,tokens=50'), MINI_TABLE);
    expect(run.summaryCalls).toBeGreaterThan(1);
    expect(run.rows.map((row) => row.step)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(run.rows.filter((row) => row.summaryBefore).length).toBe(run.summaryCalls - (run.summaryAfterLast ? 1 : 0));
  });
});
