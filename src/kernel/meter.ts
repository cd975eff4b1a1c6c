/**
 * Metering, written once: a response to a prompt becomes billed usage and cost under a context
 * strategy and cache mode. A recorded prompt size is the truth: a strategy only moves it by what the
 * strategy adds or removes relative to full history, so overhead the growth model does not see (tool
 * schemas, message framing) stays in. Writes its figures at the named offsets of `out`.
 */
import { CallField, CallFlag } from './callRecord.js';
import { callCostPico } from './cost.js';
import { tierRow, type FlatPrices } from './prices.js';

export const enum Metered {
  Input,
  Cached,
  CacheWrite,
  CacheWrite1h,
  Output,
  Reasoning,
  CostPico,
  /** Recorded prompt minus the growth model's full-history prompt (0 when not recorded or failed). */
  RecordedDelta,
  /** Cache on: cached tokens the provider's minimum prefix / increment rule does not serve. */
  RuleLost,
  Size,
}

export const enum CacheModeCode {
  Off = 0,
  On = 1,
  Recorded = 2,
}

/**
 * Meters the call recorded at `call[at…]` (CallField layout) sent with a prompt the context tracker
 * sized at `viewTokens` under the strategy, `fullTokens` under plain full history, of which the leading
 * `unchangedTokens` the previous prompt held too. `identity`: the strategy leaves recorded prompts as
 * they were sent (full history, no cap).
 */
export function meterCall(
  out: Float64Array,
  prices: FlatPrices,
  identity: boolean,
  cacheMode: CacheModeCode,
  call: Float64Array,
  at: number,
  viewTokens: number,
  fullTokens: number,
  unchangedTokens: number,
): void {
  const flags = call[at + CallField.Flags]! | 0;
  const failed = (flags & CallFlag.Failed) !== 0;
  const recorded = (flags & CallFlag.RecordedInput) !== 0;
  let input = viewTokens;
  let delta = 0;
  if (failed) input = recorded ? call[at + CallField.RecordedInput]! : 0;
  else if (recorded) {
    const recordedInput = call[at + CallField.RecordedInput]!;
    delta = recordedInput - fullTokens;
    if (identity) input = recordedInput;
    else {
      input = recordedInput + viewTokens - fullTokens;
      if (input < 0) input = 0;
    }
  }

  let cached = 0;
  let write = 0;
  let write1h = 0;
  let ruleLost = 0;
  if (cacheMode === CacheModeCode.Recorded || failed) {
    cached = call[at + CallField.RecordedCached]!;
    write = call[at + CallField.RecordedCacheWrite]!;
    write1h = call[at + CallField.RecordedCacheWrite1h]!;
    if (!identity && !failed) {
      // The strategy changed the prompt: the cache can serve no more than the unchanged prefix (plus the
      // overhead the growth model does not see, which sits in the prefix).
      const servable = unchangedTokens + (delta > 0 ? delta : 0);
      if (servable < cached) cached = servable;
      if (input < cached) cached = input;
      const writable = input - cached;
      if (writable < write) write = writable;
      if (writable - write < write1h) write1h = writable - write;
    }
  } else if (cacheMode === CacheModeCode.On) {
    const servable = unchangedTokens < input ? unchangedTokens : input;
    const minPrefix = prices.minCachePrefix;
    const cacheable = input >= minPrefix;
    if (cacheable && servable >= minPrefix) {
      const increment = prices.cacheIncrement;
      cached = increment === 1 ? servable : servable - (servable % increment);
    }
    ruleLost = servable - cached;
    // Providers that bill cache writes (Anthropic-style) write what the cache did not serve.
    if (prices.hasCacheWritePrice && cacheable) write = input - cached;
  }

  const output = call[at + CallField.Output]!;
  const reasoning = call[at + CallField.Reasoning]!;
  out[Metered.Input] = input;
  out[Metered.Cached] = cached;
  out[Metered.CacheWrite] = write;
  out[Metered.CacheWrite1h] = write1h;
  out[Metered.Output] = output;
  out[Metered.Reasoning] = reasoning;
  out[Metered.CostPico] = callCostPico(prices.rows, tierRow(prices.rows, prices.tiers, input), input, cached, write, write1h, output, reasoning);
  out[Metered.RecordedDelta] = delta;
  out[Metered.RuleLost] = ruleLost;
}
