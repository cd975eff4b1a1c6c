/**
 * `project`'s worst case prices a prompt token as the predictive bound does (kernel/cost.ts
 * promptPriceCeiling): at the dearest price it can be billed at in its tier — input, cache read, cache
 * write for five minutes or an hour. A full price table (`--prices`) may price a cache read above the
 * input price, or an hour's cache write above every other rate: the worst case still holds.
 */
import { describe, expect, it } from 'vitest';
import { NO_BRAKES } from '../../src/brakes/config.js';
import { predictiveBoundPico } from '../../src/kernel/cost.js';
import { CacheWrites } from '../../src/kernel/cacheWrites.js';
import { flattenPrices } from '../../src/kernel/prices.js';
import { usdPerMillionToPico } from '../../src/money.js';
import { callCostPico } from '../../src/pricing/cost.js';
import { largestCallPico, ONLY_STEPS, worstCaseRun } from '../../src/population/worstCase.js';
import { handPriced, MINI } from '../helpers.js';

const NO_USAGE = { input: 0, cached: 0, cacheWrite: 0, cacheWrite1h: 0, output: 0, reasoning: 0 };

describe("worst case: a prompt token at the dearest price it can be billed at (the predictive bound's rule)", () => {
  it('the largest call is the predictive bound of the largest prompt a provider answers (the window less max_tokens)', () => {
    const flat = flattenPrices(MINI);
    expect(largestCallPico(MINI, 700)).toBe(predictiveBoundPico(flat, MINI.contextWindow! - 700, 700, CacheWrites.MayLastAnHour));
  });

  it('a table pricing cache reads above input: the largest call is no less than its largest prompt read from cache', () => {
    const dearRead = handPriced('dear-read', { input: 1, output: 2, cached: 3 }, 1000);
    const wholeWindowCached = callCostPico(dearRead, { ...NO_USAGE, input: 990, cached: 990, output: 10 });
    expect(largestCallPico(dearRead, 10)).toBeGreaterThanOrEqual(wholeWindowCached);
    expect(largestCallPico(dearRead, 10)).toBe(wholeWindowCached);
  });

  it("the token cap's dearest rate counts an hour's cache write above every other rate", () => {
    const hourWrite = handPriced('hour-write', { input: 1, output: 2, cacheWrite: 1.25 }, 1000);
    hourWrite.base.cacheWrite1h = usdPerMillionToPico(10);
    const worst = worstCaseRun({ ...NO_BRAKES, maxTokens: 1000 }, [hourWrite], { uncounted: ONLY_STEPS });
    // 1,000 tokens all written for an hour, then the call that crossed the cap.
    const capWritten = callCostPico(hourWrite, { ...NO_USAGE, input: 1000, cacheWrite1h: 1000 });
    expect(worst.perRunUsd! * 1e12).toBeGreaterThanOrEqual(capWritten + largestCallPico(hourWrite)!);
    expect(worst.rule).toBe('the token cap at the dearest rate, plus the call that crossed it');
  });
});
