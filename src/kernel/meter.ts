/**
 * Metering, written once: a response to a prompt becomes billed usage and cost under a context
 * strategy and cache mode. A recorded prompt size is the truth: a strategy only moves it by what the
 * strategy adds or removes relative to full history, so overhead the growth model does not see (tool
 * schemas, message framing) stays in. Writes its figures at the named offsets of `out`.
 */
import { CallField, CallFlag } from './callRecord.js';
import { billedCall, callCostPico, callFeesPico } from './cost.js';
import { CacheWrites } from './cacheWrites.js';
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
 * The cache writes the predictive bound prices for a run whose writes last `cacheWrites` (cacheWrites.ts),
 * metered under `cacheMode`: none for a run that writes only through the meter (FiveMinutes: a synthetic
 * run) with the cache off — meterCall bills such a run's calls no write (its failed calls record none, and
 * a summary call writes only with the cache on: meterSummaryCall); five minutes for a run that writes none
 * (None: its loop asked for no writes) with the cache on, the meter's writes; else as the run's. The one rule every
 * engine applies where it knows both: the session (LoopSession), the compiled replay, a run table.
 */
export function boundWrites(cacheWrites: CacheWrites, cacheMode: CacheModeCode): CacheWrites {
  if (cacheWrites === CacheWrites.FiveMinutes && cacheMode === CacheModeCode.Off) return CacheWrites.None;
  // A run whose loop asked for no writes (its recording says so), replayed with the cache on: the meter writes, for five minutes.
  if (cacheWrites === CacheWrites.None && cacheMode === CacheModeCode.On) return CacheWrites.FiveMinutes;
  return cacheWrites;
}

/** The prompt as the context tracker sizes it, at these offsets of a Float64Array (the meter's input). */
export const enum Prompt {
  /** Tokens under the strategy. */
  View,
  /** Tokens under plain full history with no cap (the growth model). */
  Full,
  /** Leading tokens the previous prompt held too. */
  Unchanged,
  Size,
}

/**
 * Meters the call recorded at `call[at…]` (CallField layout) sent with the prompt `prompt` (Prompt
 * layout): its cost is its tokens' and, when it was billed (billedRequest), the fee per request and its web searches (as recorded whatever the strategy). `identity`: the strategy leaves recorded prompts as they were sent (full history, no cap).
 * (Numbers travel in typed arrays, so a call that is not inlined boxes none.)
 */
export function meterCall(out: Float64Array, prices: FlatPrices, identity: boolean, cacheMode: CacheModeCode, call: Float64Array, at: number, prompt: Float64Array): void {
  const flags = call[at + CallField.Flags]! | 0;
  const input = billedInput(out, call, at, flags, identity, prompt);
  if (cacheMode === CacheModeCode.Recorded || (flags & CallFlag.Failed) !== 0) recordedCache(out, prices, call, at, flags, identity, prompt[Prompt.Unchanged]!, input);
  else if (cacheMode === CacheModeCode.On) cacheOn(out, prices, servablePrefix(prompt[Prompt.Unchanged]!, out[Metered.RecordedDelta]!), input, writesForAnHour(call, at));
  else noCache(out);
  const output = call[at + CallField.Output]!;
  const reasoning = call[at + CallField.Reasoning]!;
  out[Metered.Output] = output;
  out[Metered.Reasoning] = reasoning;
  const rows = prices.rows;
  const tokensPico = callCostPico(rows, tierRow(rows, prices.tiers, input), input, out[Metered.Cached]!, out[Metered.CacheWrite]!, out[Metered.CacheWrite1h]!, output, reasoning);
  const searches = call[at + CallField.WebSearches]!;
  out[Metered.CostPico] = tokensPico + callFeesPico(prices, searches, billedRequest(call, at, flags));
}

/** cost.ts billedCall of the call at `call[at…]` (CallField layout): a failure with no usage pays no fee per request and no web searches. */
export function billedRequest(call: ArrayLike<number>, at: number, flags: number = call[at + CallField.Flags]! | 0): boolean {
  return billedCall((flags & CallFlag.Failed) !== 0, (flags & CallFlag.RecordedInput) !== 0 ? call[at + CallField.RecordedInput]! : undefined);
}

function noCache(out: Float64Array): void {
  out[Metered.Cached] = 0;
  out[Metered.CacheWrite] = 0;
  out[Metered.CacheWrite1h] = 0;
  out[Metered.RuleLost] = 0;
}

/**
 * The prompt billed: a failed call's recorded size (or 0); a recorded size, moved by what the strategy
 * changed relative to full history; else the view. Writes the recorded − growth-model delta.
 */
function billedInput(out: Float64Array, call: Float64Array, at: number, flags: number, identity: boolean, prompt: Float64Array): number {
  const recorded = (flags & CallFlag.RecordedInput) !== 0;
  out[Metered.RecordedDelta] = 0;
  let input = prompt[Prompt.View]!;
  if ((flags & CallFlag.Failed) !== 0) input = recorded ? call[at + CallField.RecordedInput]! : 0;
  else if (recorded) {
    const recordedInput = call[at + CallField.RecordedInput]!;
    out[Metered.RecordedDelta] = recordedInput - prompt[Prompt.Full]!;
    if (identity) input = recordedInput;
    else {
      input = recordedInput + prompt[Prompt.View]! - prompt[Prompt.Full]!;
      if (input < 0) input = 0;
    }
  }
  out[Metered.Input] = input;
  return input;
}

/**
 * Cache figures as recorded — as they are when the prompt is as sent (identity) or the call failed;
 * when a strategy changed the prompt the cache serves no more than the unchanged prefix, plus the
 * overhead the growth model does not see, which sits in the prefix, as far as the provider's rule
 * serves it (servedCachedTokens). What the cache served as recorded
 * but no longer does is written again (a model that bills writes, Anthropic-style: its client marks the
 * cache at the end of the prompt, as `cacheOn` writes), at the lifetime the call wrote most of. A changed
 * prompt below the rule's minimum (cacheablePrompt) is neither read nor written: plain input, as `cacheOn` bills it.
 */
function recordedCache(out: Float64Array, prices: FlatPrices, call: Float64Array, at: number, flags: number, identity: boolean, unchangedTokens: number, input: number): void {
  let cached = call[at + CallField.RecordedCached]!;
  let write = call[at + CallField.RecordedCacheWrite]!;
  let write1h = call[at + CallField.RecordedCacheWrite1h]!;
  if (!identity && (flags & CallFlag.Failed) === 0) {
    const recordedCached = cached;
    cached = servedCachedTokens(prices, cached, unchangedTokens, out[Metered.RecordedDelta]!, input);
    const rewritten = write + write1h > 0 ? recordedCached - cached : 0;
    if (write1h > write) write1h += rewritten;
    else write += rewritten;
    // (servedCachedTokens served none of a prompt below the minimum: the recorded writes and reads go too.)
    if (!cacheablePrompt(prices, input)) write = write1h = 0;
  } else if (input < cached) cached = input;
  // The parts no more than the whole (a prompt not recorded is the growth model's, or 0 for a failed call,
  // which recorded parts may pass), as the live loop reads a response's usage (agent/openaiUsage.ts).
  const writable = input - cached;
  if (writable < write) write = writable;
  if (writable - write < write1h) write1h = writable - write;
  out[Metered.Cached] = cached;
  out[Metered.CacheWrite] = write;
  out[Metered.CacheWrite1h] = write1h;
  out[Metered.RuleLost] = 0;
}

/**
 * A recorded cache hit under a strategy that changed the prompt: no more than what the provider's rule
 * (ruleServedTokens: its minimum prefix, its increments) serves of the unchanged prefix plus the overhead
 * the growth model does not see (`recordedDelta`, when positive), that prefix no more than the prompt.
 */
export function servedCachedTokens(prices: FlatPrices, recordedCached: number, unchangedTokens: number, recordedDelta: number, input: number): number {
  let servable = unchangedTokens + (recordedDelta > 0 ? recordedDelta : 0);
  if (input < servable) servable = input;
  const served = ruleServedTokens(prices, servable);
  return recordedCached < served ? recordedCached : served;
}

/**
 * Whether the provider caches a prompt of `inputTokens` at all (pricing/cacheRules.ts: from its minimum prefix;
 * Anthropic: "shorter prompts cannot be cached, even if marked with cache_control"): below it, no read and no
 * write, the prompt plain input. The one rule `cacheOn` and a recorded call under a strategy (recordedCache) apply.
 */
function cacheablePrompt(prices: FlatPrices, inputTokens: number): boolean {
  return inputTokens >= prices.minCachePrefix;
}

/**
 * What the provider's rule serves of a servable prefix of `servableTokens` (pricing/cacheRules.ts, taken by
 * kernel/prices.ts flattenPrices): nothing below its minimum prefix, else whole increments. The one rule
 * `cacheOn` and a recorded hit under a strategy (servedCachedTokens) apply.
 */
export function ruleServedTokens(prices: FlatPrices, servableTokens: number): number {
  if (servableTokens < prices.minCachePrefix) return 0;
  const increment = prices.cacheIncrement;
  return increment === 1 ? servableTokens : servableTokens - (servableTokens % increment);
}

/**
 * The prefix a cache may serve under `on`: the unchanged prefix and, once a previous prompt was sent,
 * the overhead the growth model does not see (`recordedDelta`, when positive: system framing and tool
 * schemas at the front, sent again unchanged), as recordedCache serves it.
 */
function servablePrefix(unchangedTokens: number, recordedDelta: number): number {
  return unchangedTokens > 0 && recordedDelta > 0 ? unchangedTokens + recordedDelta : unchangedTokens;
}

/**
 * The call recorded its cache writes for an hour more than for five minutes (Claude Code's sessions do):
 * `on` writes for an hour too. Read of every call, its prompt size recorded or not (a call may record
 * 1 h writes alone): the one rule, which the closed form refuses stretches by (fast/closedForm.ts).
 */
export function writesForAnHour(call: Float64Array, at: number): boolean {
  return hourlyWrites(call[at + CallField.RecordedCacheWrite1h]!, call[at + CallField.RecordedCacheWrite]!);
}

/** writesForAnHour over a call's two recorded figures (a CallRecord read where no record layout is at hand: report/cacheIdleWarning.ts). */
export function hourlyWrites(write1hTokens: number, write5mTokens: number): boolean {
  return write1hTokens > write5mTokens;
}

/**
 * Cache on: the unchanged prefix is served, as far as the provider's rule allows (no prompt below its
 * minimum is cached, hits come in its increments); a model that bills cache writes (Anthropic-style)
 * writes what the cache did not serve, for five minutes unless the call recorded writes for an hour
 * (`forAnHour`: writesForAnHour). Also what a synthetic agent whose provider serves only a share of the
 * unchanged prefix bills (synthetic/agent.ts: the rule on the share served).
 */
export function cacheOn(out: Float64Array, prices: FlatPrices, unchangedTokens: number, input: number, forAnHour = false): void {
  const servable = unchangedTokens < input ? unchangedTokens : input;
  // (servable ≤ input: a prefix the rule serves is of a cacheable prompt.)
  const cached = ruleServedTokens(prices, servable);
  const written = prices.hasCacheWritePrice && cacheablePrompt(prices, input) ? input - cached : 0;
  out[Metered.Cached] = cached;
  out[Metered.CacheWrite] = forAnHour ? 0 : written;
  out[Metered.CacheWrite1h] = forAnHour ? written : 0;
  out[Metered.RuleLost] = servable - cached;
}

/**
 * The prefix a summary call finds in the cache. It sends the prompt it replaces as the next call would send
 * it — the context and the framing the last call showed beyond it (`framingTokens`: tool schemas, message
 * framing), then its request to summarise — so on the run's model the cache serves what it serves an
 * ordinary call (servablePrefix: the unchanged prefix plus that framing); on another model
 * (`summary:…,model=X`), whose cache the run never wrote, nothing.
 */
export function summaryCachedPrefixTokens(summaryPrices: FlatPrices, runPrices: FlatPrices, unchangedTokens: number, framingTokens: number): number {
  return summaryPrices.model === runPrices.model ? servablePrefix(unchangedTokens, framingTokens) : 0;
}

/**
 * A summary call (context strategies `summary`, `hybrid`): its prompt is the prompt it replaces
 * (`promptTokens`, of which `unchangedTokens` sit in the cache it reads: summaryCachedPrefixTokens), its
 * output the summary's `summaryTokens`, priced at `prices` (the summary model's). It is not recorded, so
 * under cache mode `recorded` the cache serves its unchanged prefix as under `on`.
 */
export function meterSummaryCall(out: Float64Array, prices: FlatPrices, cacheMode: CacheModeCode, promptTokens: number, unchangedTokens: number, summaryTokens: number): void {
  out[Metered.Input] = promptTokens;
  out[Metered.RecordedDelta] = 0;
  if (cacheMode === CacheModeCode.Off) noCache(out);
  else cacheOn(out, prices, unchangedTokens, promptTokens);
  out[Metered.Output] = summaryTokens;
  out[Metered.Reasoning] = 0;
  const rows = prices.rows;
  out[Metered.CostPico] = callCostPico(rows, tierRow(rows, prices.tiers, promptTokens), promptTokens, out[Metered.Cached]!, out[Metered.CacheWrite]!, out[Metered.CacheWrite1h]!, summaryTokens, 0) + callFeesPico(prices, 0, true);
}
