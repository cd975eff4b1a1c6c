import { describe, expect, it } from 'vitest';
import { growthCurve } from '../../src/replay/curve.js';
import { PICO_PER_USD } from '../../src/money.js';
import { MINI_TABLE } from '../helpers.js';

describe('growth model', () => {
  // The reference loop's assumption: 600 new tokens a step (150 output + 450 tool result), gpt-4o-mini prices.
  const spec = { model: 'mini', systemTokens: 500, outputTokens: 150, toolTokens: 450, steps: 30 };

  it('curve figures equal the closed form at every step', () => {
    const rows = growthCurve(spec, { kind: 'full', cache: 'off' }, MINI_TABLE);
    expect(rows).toHaveLength(30);
    const S = 500;
    const D = 600;
    rows.forEach((row, i) => {
      const n = i + 1;
      expect(row.step).toBe(n);
      expect(row.inputTokens).toBe(S + (n - 1) * D);
      expect(row.outputTokens).toBe(150);
      expect(row.cumulativeInputTokens).toBe(n * S + (D * n * (n - 1)) / 2);
      expect(row.cumulativeOutputTokens).toBe(150 * n);
      // $0.15 and $0.60 per million, in picodollars: exact integers.
      const pico = 0.15e6 * (n * S + (D * n * (n - 1)) / 2) + 0.6e6 * 150 * n;
      expect(row.cumulativeCostUsd).toBe(pico / PICO_PER_USD);
    });
  });

  it('3× the steps ≈ 9× the tokens', () => {
    const at = (steps: number) => growthCurve({ ...spec, systemTokens: 0, steps }, { kind: 'full', cache: 'off' }, MINI_TABLE).at(-1)!.cumulativeInputTokens;
    const ratio = at(300) / at(100);
    expect(ratio).toBeGreaterThan(8.9);
    expect(ratio).toBeLessThan(9.1);
  });
});
