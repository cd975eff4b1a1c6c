/**
 * A summary call's checks in their one order (kernel/summaryBeforeCall.ts summaryCallOutcome), which every engine
 * calls: the brakes that gate it, its window's brake (`--context-window model`), whether any call is left for the
 * run to make after it, the simulated provider's refusal, then it is made. And the calls a replayed recording has
 * left (callsLeft), a call its provider refused counted among them.
 */
import { describe, expect, it } from 'vitest';
import { NO_BRAKES } from '../../src/brakes/config.js';
import { CacheWrites } from '../../src/kernel/cacheWrites.js';
import type { SummaryCallSize } from '../../src/kernel/cost.js';
import { brakeLimits } from '../../src/kernel/limits.js';
import { flattenPrices } from '../../src/kernel/prices.js';
import { StopCode } from '../../src/kernel/stopCodes.js';
import { callsLeft, endsAtSummary, summaryCallOutcome, SummaryOutcome, summaryOutcomeStop, type SummaryCallAt } from '../../src/kernel/summaryBeforeCall.js';
import { handPriced } from '../helpers.js';

/** A summary model of a 10,000-token window; S = 1,000 tokens asked for. */
const prices = flattenPrices(handPriced('summarizer', { input: 1, output: 2 }, 10_000));
const windowBrake = brakeLimits({ ...NO_BRAKES, contextWindow: 'model' }, prices.contextWindow);
const noWindowBrake = brakeLimits(NO_BRAKES, prices.contextWindow);
/** A summary call of `promptTokens` asking for 1,000: past the window (9,001 + 1,000 > 10,000) from 9,001 on. */
const size = (promptTokens: number): SummaryCallSize => ({ prices, promptEstimate: promptTokens, summaryTokens: 1_000, cacheWrites: CacheWrites.MayLastAnHour });
const at = (promptTokens: number, given: Partial<Omit<SummaryCallAt, 'call'>> = {}): SummaryCallAt => ({ call: size(promptTokens), mayRun: true, callsLeft: 3, simulated: true, ...given });

describe('summaryCallOutcome: each outcome', () => {
  it('made: the brakes let it through, its window holds it, calls are left', () => {
    expect(summaryCallOutcome(windowBrake, at(9_000))).toBe(SummaryOutcome.Made);
    expect(summaryCallOutcome(noWindowBrake, at(9_000))).toBe(SummaryOutcome.Made);
    // A model answers whenever asked: no count of calls left.
    expect(summaryCallOutcome(noWindowBrake, at(9_000, { callsLeft: Infinity }))).toBe(SummaryOutcome.Made);
  });

  it('not now: the brakes that gate it hold it', () => {
    expect(summaryCallOutcome(noWindowBrake, at(9_000, { mayRun: false }))).toBe(SummaryOutcome.NotNow);
  });

  it('window braked: under --context-window model, past the summary model’s window', () => {
    expect(summaryCallOutcome(windowBrake, at(9_001))).toBe(SummaryOutcome.WindowBraked);
    expect(summaryOutcomeStop(SummaryOutcome.WindowBraked)).toBe(StopCode.ContextOverflow);
  });

  it('run ends: no call left for the run to make after it', () => {
    expect(summaryCallOutcome(noWindowBrake, at(9_000, { callsLeft: 0 }))).toBe(SummaryOutcome.RunEnds);
    expect(summaryOutcomeStop(SummaryOutcome.RunEnds)).toBe(StopCode.None);
  });

  it('refused: the simulated provider refuses a call past the window (an explicit window, no brake of its own); a real provider says so itself', () => {
    expect(summaryCallOutcome(noWindowBrake, at(9_001))).toBe(SummaryOutcome.Refused);
    expect(summaryOutcomeStop(SummaryOutcome.Refused)).toBe(StopCode.ProviderRefused);
    expect(summaryCallOutcome(noWindowBrake, at(9_001, { simulated: false }))).toBe(SummaryOutcome.Made);
  });
});

describe('summaryCallOutcome: the order of its checks', () => {
  it('the brakes that gate it come first: nothing else is asked of a call they hold', () => {
    for (const limits of [windowBrake, noWindowBrake]) expect(summaryCallOutcome(limits, at(50_000, { mayRun: false, callsLeft: 0 }))).toBe(SummaryOutcome.NotNow);
  });

  it('its window’s brake wins over "no call left": a live loop checks it before sending', () => {
    expect(summaryCallOutcome(windowBrake, at(9_001, { callsLeft: 0 }))).toBe(SummaryOutcome.WindowBraked);
  });

  it('"no call left" wins over the provider’s refusal: a call never sent is refused by no provider', () => {
    expect(summaryCallOutcome(noWindowBrake, at(9_001, { callsLeft: 0 }))).toBe(SummaryOutcome.RunEnds);
    expect(summaryCallOutcome(noWindowBrake, at(9_001, { callsLeft: 1 }))).toBe(SummaryOutcome.Refused);
  });

  it('the window’s brake wins over the provider’s refusal (the brake stops the run before the call is sent)', () => {
    expect(summaryCallOutcome(windowBrake, at(9_001, { simulated: true }))).toBe(SummaryOutcome.WindowBraked);
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
