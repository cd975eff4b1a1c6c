/**
 * A synthetic run's no-brake baseline sends the configuration's max_tokens (population/run.ts
 * syntheticBaselineKey), so a grid over --max-output-tokens gives rows of different baselines: the note lists
 * each max-output-tokens value's spend with no brakes (before: only the least and the most, as if no setting
 * that is not a brake were swept), and the legend names max_tokens among what `saved` is against.
 */
import { describe, expect, it } from 'vitest';
import { baselineCostText, SAVED_LEGEND } from '../../src/report/sweepBaselines.js';

describe("sweep's saved baselines under a grid over max-output-tokens", () => {
  it("lists each max-output-tokens value's baseline and says saved is not comparable across them", () => {
    const grid = [{ key: 'max-steps', values: ['10', '20'] }, { key: 'max-output-tokens', values: ['256', '4096'] }];
    const rows = [
      { settings: 'max-steps=10,max-output-tokens=256', baselineCostUsd: 1 },
      { settings: 'max-steps=10,max-output-tokens=4096', baselineCostUsd: 3 },
      { settings: 'max-steps=20,max-output-tokens=256', baselineCostUsd: 1 },
      { settings: 'max-steps=20,max-output-tokens=4096', baselineCostUsd: 3 },
    ];
    expect(baselineCostText(rows, grid)).toBe(
      'With no brakes these runs cost $1.0000 under max-output-tokens=256 and $3.0000 under max-output-tokens=4096, in all (baselineCostUsd in the JSON report): ' +
        'each row\'s "saved" is measured against the cost under its own max-output-tokens, so "saved" is not comparable across max-output-tokens values.',
    );
  });

  it('the legend names max_tokens', () => {
    expect(SAVED_LEGEND).toContain("(the row's own context, cache, model and max_tokens)");
  });
});
