/**
 * A numeric `--context-window N` brake bounds every prompt at N tokens even when the price table knows no
 * window for the model (a --prices-override model): the worst case counts the largest call at N, the token
 * cap's dearest rate is that of N's tier, and the rule says the prompt is at most N (the brake), not "the
 * context window less max_tokens". Before, the worst case was "unbounded" without a known window.
 */
import { describe, expect, it } from 'vitest';
import { NO_BRAKES } from '../../src/brakes/config.js';
import { usdPerMillionToPico } from '../../src/money.js';
import { largestCallPico, ONLY_STEPS, worstCaseRun } from '../../src/population/worstCase.js';
import { handPriced } from '../helpers.js';

describe('worst case: a numeric context-window brake without a known window', () => {
  const noWindow = handPriced('my-model', { input: 1, output: 10 });
  const perCall = 10_000 * usdPerMillionToPico(1) + 100 * usdPerMillionToPico(10);

  it('the largest call is at N prompt tokens; still unknown with no brake and no window', () => {
    expect(largestCallPico(noWindow, 100, 10_000)).toBe(perCall);
    expect(largestCallPico(noWindow, 100)).toBeUndefined();
  });

  it('the step cap bounds N-token calls, and the rule names the brake', () => {
    const worst = worstCaseRun({ ...NO_BRAKES, maxSteps: 1, maxOutputTokens: 100, contextWindow: 10_000 }, [noWindow], { uncounted: ONLY_STEPS });
    expect(worst.perRunUsd).toBe(perCall / 1e12);
    expect(worst.rule).toContain('1 steps at a prompt of 10000 tokens at most (the --context-window brake) and max_tokens of output');
    expect(worst.rule).not.toContain('context window less max_tokens');
  });

  it('the rule names the window when the window is the smaller bound, and both when models differ', () => {
    const small = handPriced('small', { input: 1, output: 10 }, 5000);
    const brakes = { ...NO_BRAKES, maxSteps: 1, maxOutputTokens: 100, contextWindow: 10_000 };
    expect(worstCaseRun(brakes, [small], { uncounted: ONLY_STEPS }).rule).toContain('1 steps at the largest prompt a provider answers (the context window less max_tokens)');
    expect(worstCaseRun(brakes, [small, noWindow], { uncounted: ONLY_STEPS }).rule).toContain(
      'at a prompt of 10000 tokens at most (the --context-window brake), or the largest prompt a provider answers (the context window less max_tokens) when fewer',
    );
  });

  it("the token cap's dearest rate is that of N's tier, not the window's", () => {
    const tiered = handPriced('tiered', { input: 1, output: 2 }, 1_000_000);
    tiered.tiers = [{ aboveInputTokens: 200_000, prices: { input: usdPerMillionToPico(50), output: usdPerMillionToPico(2) } }];
    const worst = worstCaseRun({ ...NO_BRAKES, maxTokens: 1000, maxOutputTokens: 100, contextWindow: 10_000 }, [tiered], { uncounted: ONLY_STEPS });
    // 1,000 tokens at the base tier's dearest rate (output, $2/M), then the largest call (10,000 in, 100 out).
    const call = 10_000 * usdPerMillionToPico(1) + 100 * usdPerMillionToPico(2);
    expect(worst.perRunUsd).toBe((1000 * usdPerMillionToPico(2) + call) / 1e12);
  });
});
