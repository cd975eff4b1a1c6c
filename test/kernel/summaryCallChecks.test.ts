/**
 * A summary call's checks in their one order (kernel/summaryBeforeCall.ts summaryCallChecks), which every engine
 * calls once the brakes that gate it let it through: its window's brake (`--context-window model`), whether any
 * call is left for the run to make after it, the simulated provider's refusal, then it is made. And the calls a
 * replayed recording has left (callsLeft), a call its provider refused counted among them.
 */
import { describe, expect, it } from 'vitest';
import { NO_BRAKES } from '../../src/brakes/config.js';
import { CacheWrites } from '../../src/kernel/cacheWrites.js';
import type { SummaryCallSize } from '../../src/kernel/cost.js';
import { brakeLimits } from '../../src/kernel/limits.js';
import { flattenPrices } from '../../src/kernel/prices.js';
import { StopCode } from '../../src/kernel/stopCodes.js';
import { callsLeft, endsAtSummary, RUN_ENDS_AT_SUMMARY, summaryCallChecks, type SummaryCallAt } from '../../src/kernel/summaryBeforeCall.js';
import { handPriced } from '../helpers.js';

/** A summary model of a 10,000-token window; S = 1,000 tokens asked for. */
const prices = flattenPrices(handPriced('summarizer', { input: 1, output: 2 }, 10_000));
const windowBrake = brakeLimits({ ...NO_BRAKES, contextWindow: 'model' }, prices.contextWindow);
const noWindowBrake = brakeLimits(NO_BRAKES, prices.contextWindow);
/** A summary call of `promptTokens` asking for 1,000: past the window (9,001 + 1,000 > 10,000) from 9,001 on. */
const size = (promptTokens: number): SummaryCallSize => ({ prices, promptEstimate: promptTokens, summaryTokens: 1_000, cacheWrites: CacheWrites.MayLastAnHour });
const at = (promptTokens: number, given: Partial<Omit<SummaryCallAt, 'call'>> = {}): SummaryCallAt => ({ call: size(promptTokens), callsLeft: 3, simulated: true, ...given });

describe('summaryCallChecks: each outcome', () => {
  it('made: its window holds it, calls are left', () => {
    expect(summaryCallChecks(windowBrake, at(9_000))).toBe(StopCode.None);
    expect(summaryCallChecks(noWindowBrake, at(9_000))).toBe(StopCode.None);
    // A model answers whenever asked: no count of calls left.
    expect(summaryCallChecks(noWindowBrake, at(9_000, { callsLeft: Infinity }))).toBe(StopCode.None);
  });

  it('window braked: under --context-window model, past the summary model’s window', () => {
    expect(summaryCallChecks(windowBrake, at(9_001))).toBe(StopCode.ContextOverflow);
  });

  it('run ends: no call left for the run to make after it', () => {
    expect(summaryCallChecks(noWindowBrake, at(9_000, { callsLeft: 0 }))).toBe(RUN_ENDS_AT_SUMMARY);
    // No stop code of its own (every StopCode is StopCode.None or above): the run ends as its recording does.
    expect(RUN_ENDS_AT_SUMMARY).toBeLessThan(StopCode.None);
  });

  it('refused: the simulated provider refuses a call past the window (an explicit window, no brake of its own); a real provider says so itself', () => {
    expect(summaryCallChecks(noWindowBrake, at(9_001))).toBe(StopCode.ProviderRefused);
    expect(summaryCallChecks(noWindowBrake, at(9_001, { simulated: false }))).toBe(StopCode.None);
  });
});

describe('summaryCallChecks: the order of its checks', () => {
  it('its window’s brake wins over "no call left": a live loop checks it before sending', () => {
    expect(summaryCallChecks(windowBrake, at(9_001, { callsLeft: 0 }))).toBe(StopCode.ContextOverflow);
  });

  it('"no call left" wins over the provider’s refusal: a call never sent is refused by no provider', () => {
    expect(summaryCallChecks(noWindowBrake, at(9_001, { callsLeft: 0 }))).toBe(RUN_ENDS_AT_SUMMARY);
    expect(summaryCallChecks(noWindowBrake, at(9_001, { callsLeft: 1 }))).toBe(StopCode.ProviderRefused);
  });

  it('the window’s brake wins over the provider’s refusal (the brake stops the run before the call is sent)', () => {
    expect(summaryCallChecks(windowBrake, at(9_001, { simulated: true }))).toBe(StopCode.ContextOverflow);
  });
});

describe('callsLeft: a recording’s calls not yet given', () => {
  it('counts the calls not given, a refused call among them, never below 0', () => {
    expect([callsLeft(5, 0), callsLeft(5, 4), callsLeft(5, 5), callsLeft(5, 7)]).toEqual([5, 1, 0, 0]);
    // A recording of 4 calls whose last its provider refused: before that call, one call is left (the run makes it, and it is refused).
    expect(endsAtSummary(callsLeft(4, 3))).toBe(false);
    expect(endsAtSummary(callsLeft(4, 4))).toBe(true);
  });
});
