/**
 * `project`'s worst case prices only a call a provider answers: it refuses a prompt + max_tokens past the
 * model's window (kernel/providerWindow.ts providerRefuses), so the largest call is a prompt of the window
 * less the max_tokens sent, not of the whole window.
 */
import { describe, expect, it } from 'vitest';
import { NO_BRAKES } from '../../src/brakes/config.js';
import { providerRefuses } from '../../src/kernel/providerWindow.js';
import { usdPerMillionToPico } from '../../src/money.js';
import { largestCallPico, ONLY_STEPS, worstCaseRun } from '../../src/population/worstCase.js';
import { handPriced } from '../helpers.js';
import { cli, oneEntryScenario, tempDir } from '../cli/run.js';

describe("worst case: the largest call is the largest a provider answers (prompt + max_tokens within the window)", () => {
  const model = handPriced('m', { input: 1, output: 10 }, 1000);

  it('prices a prompt of the window less max_tokens, one the provider answers; one token more it refuses', () => {
    expect(largestCallPico(model, 100)).toBe(900 * usdPerMillionToPico(1) + 100 * usdPerMillionToPico(10));
    expect(providerRefuses(1000, 900, 100)).toBe(false);
    expect(providerRefuses(1000, 901, 100)).toBe(true);
    // A window at or under max_tokens leaves no prompt a provider answers: every call is refused, unbilled.
    expect(largestCallPico(model, 1000)).toBe(1000 * usdPerMillionToPico(10));
    expect(largestCallPico(model, 1001)).toBe(0);
  });

  it('the step cap and the budget bound calls of that size, at the max_tokens the brakes send', () => {
    const brakes = { ...NO_BRAKES, maxSteps: 3, maxOutputTokens: 200 };
    const perCall = 800 * usdPerMillionToPico(1) + 200 * usdPerMillionToPico(10);
    expect(worstCaseRun(brakes, [model], { uncounted: ONLY_STEPS }).perRunUsd).toBe((3 * perCall) / 1e12);
    expect(worstCaseRun({ ...brakes, maxSteps: undefined, maxCostPico: 1e12 }, [model], { uncounted: ONLY_STEPS }).perRunUsd).toBe((1e12 + perCall) / 1e12);
  });

  it("the token cap's dearest rate is of the tier the largest answered prompt is in, not the whole window's", () => {
    // A tier above 950 prompt tokens: a whole-window prompt is in it, no prompt beside 100 tokens out is.
    const tiered = { ...model, tiers: [{ aboveInputTokens: 950, prices: { input: usdPerMillionToPico(50), output: usdPerMillionToPico(100) } }] };
    const worst = worstCaseRun({ ...NO_BRAKES, maxTokens: 1000, maxOutputTokens: 100 }, [tiered], { uncounted: ONLY_STEPS });
    expect(worst.perRunUsd).toBe((1000 * usdPerMillionToPico(10) + 900 * usdPerMillionToPico(1) + 100 * usdPerMillionToPico(10)) / 1e12);
  });

  it('loopcost project on gpt-4o (128,000-token window), budget $0.25 in check mode: $0.25 + 123,904 × $2.50/M + 4,096 × $10/M', async () => {
    const dir = tempDir();
    const file = oneEntryScenario(dir, 'support.yaml', { model: 'gpt-4o', brakes: '{ max-steps: 15, max-cost: 0.25 }', runs: '20' });
    const out = await cli('project', file, '--runs-per-day', '10', '--days', '2', '--trials', '20', '--format', 'json');
    expect(out.code).toBe(0);
    const worst = JSON.parse(out.stdout).worstCase;
    expect(worst.perRunUsd).toBeCloseTo(0.25 + (123_904 * 2.5 + 4096 * 10) / 1e6, 12);
    const text = await cli('project', file, '--runs-per-day', '10', '--days', '2', '--trials', '20');
    expect(text.stdout).toMatch(/^Ceiling the brakes allow \(a bound, not a projected spend\): \$0\.6007 a run,/m);
  });
});
