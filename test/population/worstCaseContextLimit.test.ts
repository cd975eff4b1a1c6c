/**
 * A `--context-window N` brake stops before a prompt past N tokens (kernel/limits.ts), so no call sends more:
 * the worst case per run counts the largest call at N, not at the model's whole window. Before, check advised a
 * context limit for a worst case that rose with a model's 1M-token window, and the worst case ignored it.
 */
import { describe, expect, it } from 'vitest';
import { NO_BRAKES } from '../../src/brakes/config.js';
import { usdPerMillionToPico } from '../../src/money.js';
import { largestCallPico, ONLY_STEPS, worstCaseRun } from '../../src/population/worstCase.js';
import { handPriced } from '../helpers.js';

describe('worst case: a context-window brake of N caps the largest prompt', () => {
  const model = handPriced('m', { input: 1, output: 10 }, 1_000_000);

  it('the largest call is at N prompt tokens when N is below what the window answers, at the window otherwise', () => {
    expect(largestCallPico(model, 100, 5000)).toBe(5000 * usdPerMillionToPico(1) + 100 * usdPerMillionToPico(10));
    expect(largestCallPico(model, 100, 2_000_000)).toBe(largestCallPico(model, 100));
  });

  it('the budget in check mode and the step cap bound calls of that size', () => {
    const perCall = 5000 * usdPerMillionToPico(1) + 200 * usdPerMillionToPico(10);
    const brakes = { ...NO_BRAKES, maxOutputTokens: 200, contextWindow: 5000 };
    expect(worstCaseRun({ ...brakes, maxCostPico: 1e12 }, [model], { uncounted: ONLY_STEPS }).perRunUsd).toBe((1e12 + perCall) / 1e12);
    expect(worstCaseRun({ ...brakes, maxSteps: 3 }, [model], { uncounted: ONLY_STEPS }).perRunUsd).toBe((3 * perCall) / 1e12);
    // `context-window: model` is the window itself: as with no such brake.
    expect(worstCaseRun({ ...brakes, contextWindow: 'model', maxSteps: 3 }, [model], { uncounted: ONLY_STEPS })).toEqual(worstCaseRun({ ...brakes, contextWindow: undefined, maxSteps: 3 }, [model], { uncounted: ONLY_STEPS }));
  });
});
