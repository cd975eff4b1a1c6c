/**
 * One call whose own figures cost more than exact picodollars hold (≈ $9,007): no brake can bound it (a
 * brake acts between calls), so a run refused past $9,007 because of it is named by that call, not told to
 * set brakes. Both engines ask the same of the calls a run made (one rule): the call's own recorded figures
 * (its recorded prompt with its cache reads and writes, its output and reasoning; no recorded prompt: none)
 * at the run's prices, at the tier of its recorded prompt, and its request fees (a fee per request, its web
 * searches: cost.ts requestFeesPico), as the meter bills a call. The readable loop asks it of each call it pays
 * (loop/accounts.ts), the compiled replay of its calls made once a run is refused (fast/runState.ts,
 * fast/sweepResult.ts); the run's context (replay/runContext.ts) names the call's file line and field.
 */
import { UserError } from '../errors.js';
import { CallField, CallFlag } from './callRecord.js';
import { costOfSums, plainOutputTokens, requestFeesPico, uncachedTokens } from './cost.js';
import { PriceField, tierRow, type FlatPrices } from './prices.js';
import type { CallRecord } from '../trace/types.js';

/** The fields of a call record each billed at one price, in costOfSums' order of its parts. */
const PART_FIELDS = ['inputTokens', 'outputTokens', 'reasoningTokens', 'cachedInputTokens', 'cacheWriteTokens', 'cacheWrite1hTokens'] as const;

export type CallTokenField = (typeof PART_FIELDS)[number];

/** A call that costs more than exact picodollars on its own: the record field billed the most of it, and that field's tokens (or web searches). */
export type CallPastExact = { field: CallTokenField; tokens: number } | { field: 'webSearchRequests'; searches: number };

/** What a refusal says of the figure a call past exact picodollars is named by: `1,000 tokens`, `1,000,000 web searches`. */
export function pastExactAmount(past: CallPastExact): string {
  return 'searches' in past ? `${past.searches.toLocaleString('en-US')} web search${past.searches === 1 ? '' : 'es'}` : `${past.tokens.toLocaleString('en-US')} tokens`;
}

/** A call's own figures: its recorded prompt (0 when none) and the parts of it read from and written to the cache, its output and the reasoning in it. */
export interface OwnFigures {
  input: number;
  cached: number;
  write: number;
  write1h: number;
  output: number;
  reasoning: number;
}

/** The call at `record[at…]` (CallField layout) when its own figures cost more than exact picodollars at `prices`; else undefined. */
export function callPastExact(prices: FlatPrices, record: Float64Array, at: number): CallPastExact | undefined {
  const recorded = ((record[at + CallField.Flags]! | 0) & CallFlag.RecordedInput) !== 0;
  const input = recorded ? record[at + CallField.RecordedInput]! : 0;
  const cached = record[at + CallField.RecordedCached]!;
  const write = record[at + CallField.RecordedCacheWrite]!;
  const write1h = record[at + CallField.RecordedCacheWrite1h]!;
  const output = record[at + CallField.Output]!;
  const reasoning = record[at + CallField.Reasoning]!;
  const rows = prices.rows;
  const row = tierRow(rows, prices.tiers, input);
  const searches = record[at + CallField.WebSearches]!;
  const tokensPico = costOfSums(rows[row + PriceField.Input]!, rows[row + PriceField.Cached]!, rows[row + PriceField.CacheWrite]!, rows[row + PriceField.CacheWrite1h]!, rows[row + PriceField.Output]!, rows[row + PriceField.Reasoning]!, uncachedTokens(input, cached, write, write1h), cached, write, write1h, plainOutputTokens(output, reasoning), reasoning);
  // (Allocates nothing unless the call passes: the readable loop asks it of every call.)
  if (Number.isSafeInteger(tokensPico + requestFeesPico(prices, searches))) return undefined;
  const tokens = costliestPart(rows, row, { input, cached, write, write1h, output, reasoning });
  return searches * prices.webSearchPico > tokens.pico ? { field: 'webSearchRequests', searches } : { field: tokens.field, tokens: tokens.tokens };
}

/** The field billed the most of a call's own token figures at the prices of `rows`' row `row`, its tokens as recorded (a prompt's whole size, an output's reasoning included), and what its part cost. */
function costliestPart(rows: Float64Array, row: number, own: OwnFigures): { field: CallTokenField; tokens: number; pico: number } {
  const billed = [uncachedTokens(own.input, own.cached, own.write, own.write1h), plainOutputTokens(own.output, own.reasoning), own.reasoning, own.cached, own.write, own.write1h];
  const prices = [PriceField.Input, PriceField.Output, PriceField.Reasoning, PriceField.Cached, PriceField.CacheWrite, PriceField.CacheWrite1h].map((field) => rows[row + field]!);
  let most = 0;
  for (let part = 1; part < billed.length; part++) if (billed[part]! * prices[part]! > billed[most]! * prices[most]!) most = part;
  const field = PART_FIELDS[most]!;
  return { field, tokens: field === 'inputTokens' ? own.input : field === 'outputTokens' ? own.output : billed[most]!, pico: billed[most]! * prices[most]! };
}

/** The first of the calls `from` ≤ call < `to` of `records` (`stride` numbers a call, CallField layout first) whose own figures pass exact picodollars, with its index. */
export function firstCallPastExact(prices: FlatPrices, records: Float64Array, stride: number, calls: { from: number; to: number }): (CallPastExact & { call: number }) | undefined {
  for (let call = calls.from; call < calls.to; call++) {
    const past = callPastExact(prices, records, call * stride);
    if (past !== undefined) return { ...past, call };
  }
  return undefined;
}

/**
 * The engine's refusal of a run past exact picodollars (kernel/cost.ts costOutOfRange: its issue, as
 * every caller that names no recorded call says it) made because of one call: the run's `call` costs that
 * much on its own — its index among the recorded calls its replay plays (trace/replayedCalls.ts: the
 * compiled replay), or the record the readable loop was given. A run's context names the call instead
 * (replay/runContext.ts).
 */
export class CallCostOutOfRange extends UserError {
  constructor(
    error: UserError,
    readonly call: number | CallRecord,
    readonly past: CallPastExact,
  ) {
    super(error.issues);
  }
}
