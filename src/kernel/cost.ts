/**
 * The cost formula, written once: exact integer picodollars of one call at one tier's prices (its tokens;
 * what the call is billed per request on top of them, a request fee and web searches, is requestFeesPico's).
 *
 *   uncached = input − cached − cacheWrite − cacheWrite1h (clamped at 0)
 *   cost = uncached·input + cached·cachedInput + cacheWrite·cacheWrite + cacheWrite1h·cacheWrite1h
 *        + (output − reasoning)·output + reasoning·reasoning
 *
 * at the prices of the row `row` of `rows` (prices.ts: fallbacks resolved, the tier chosen by the whole
 * prompt, cached parts included). Whole token counts times whole picodollar prices are exact below 2^53.
 */
import { UserError } from '../errors.js';
import { PriceField, tierRow, type FlatPrices } from './prices.js';
import { predicts, type BrakeLimits } from './limits.js';
import { CacheWrites } from './cacheWrites.js';

export function callCostPico(
  rows: Float64Array,
  row: number,
  input: number,
  cached: number,
  cacheWrite: number,
  cacheWrite1h: number,
  output: number,
  reasoning: number,
): number {
  return costAtPrices(
    rows[row + PriceField.Input]!,
    rows[row + PriceField.Cached]!,
    rows[row + PriceField.CacheWrite]!,
    rows[row + PriceField.CacheWrite1h]!,
    rows[row + PriceField.Output]!,
    rows[row + PriceField.Reasoning]!,
    input,
    cached,
    cacheWrite,
    cacheWrite1h,
    output,
    reasoning,
  );
}

/** The formula at one tier's prices as numbers (a hot loop over one tier reads them once). */
export function costAtPrices(
  inputPrice: number,
  cachedPrice: number,
  cacheWritePrice: number,
  cacheWrite1hPrice: number,
  outputPrice: number,
  reasoningPrice: number,
  input: number,
  cached: number,
  cacheWrite: number,
  cacheWrite1h: number,
  output: number,
  reasoning: number,
): number {
  return costOfSums(inputPrice, cachedPrice, cacheWritePrice, cacheWrite1hPrice, outputPrice, reasoningPrice, uncachedTokens(input, cached, cacheWrite, cacheWrite1h), cached, cacheWrite, cacheWrite1h, plainOutputTokens(output, reasoning), reasoning);
}

/**
 * The formula over the token parts each billed at one price — of one call, or summed over calls (the
 * closed forms' shortcuts: fast/stretch.ts, fast/recordedStretch.ts, fast/sweepClosed.ts): uncached
 * prompt, cache read, cache writes (5 min, 1 h), output beside reasoning, reasoning. Numbers, not an
 * object, so a hot loop allocates nothing. Added in this order, as every caller's (exact whole numbers
 * below 2^53 add alike in any order; prices that are not whole are added as the per-call formula adds them).
 */
export function costOfSums(
  inputPrice: number,
  cachedPrice: number,
  cacheWritePrice: number,
  cacheWrite1hPrice: number,
  outputPrice: number,
  reasoningPrice: number,
  uncached: number,
  cached: number,
  cacheWrite: number,
  cacheWrite1h: number,
  plainOutput: number,
  reasoning: number,
): number {
  return uncached * inputPrice + plainOutput * outputPrice + reasoning * reasoningPrice + cached * cachedPrice + cacheWrite * cacheWritePrice + cacheWrite1h * cacheWrite1hPrice;
}

/**
 * The fees a call is billed per request on top of its tokens: the table's fee per request
 * (`prices.requestPico`, Perplexity's `requests_kcount`; 0 when it prices none), on every call billed (a
 * failed call with no usage was not: meter.ts billedRequest), and
 * `webSearches` web searches at `prices.webSearchPico` each (the table's web search fee; 0 when it prices
 * none), known when the call returns (its usage says them). The one rule every engine adds to a call's
 * token cost (meter.ts meterCall and meterSummaryCall, pricing/cost.ts callCostPico): a summary call the
 * loop makes pays the request fee and searches nothing.
 */
export function requestFeesPico(prices: FlatPrices, webSearches: number): number {
  return prices.requestPico + webSearchFeesPico(prices, webSearches);
}

/** The web search part of requestFeesPico: `webSearches` at `prices.webSearchPico` each. */
export function webSearchFeesPico(prices: FlatPrices, webSearches: number): number {
  return webSearches > 0 ? webSearches * prices.webSearchPico : 0;
}

/**
 * Whether a call was billed as a request: it did not fail, or it failed with a prompt billed — the usage
 * its provider reported, or the loop's estimate of an attempt sent and never read (`failed.estimated`,
 * which always records one: agent/failedCalls.ts). A failure with no usage (a 429, a 5xx: no prompt
 * recorded, or a prompt of 0 tokens) was not billed. `recordedInput`: the prompt it recorded, undefined for none.
 */
export function billedCall(failed: boolean, recordedInput: number | undefined): boolean {
  return !failed || (recordedInput !== undefined && recordedInput > 0);
}

/**
 * What a call pays on top of its tokens, the one rule of every engine (meter.ts meterCall, pricing/cost.ts
 * callCostPico): requestFeesPico when it was billed (billedCall), else nothing — a call its provider did
 * not bill pays neither the fee per request nor web searches it records (a search's count comes in the
 * usage a billed response carries).
 */
export function callFeesPico(prices: FlatPrices, webSearches: number, billed: boolean): number {
  return billed ? requestFeesPico(prices, webSearches) : 0;
}

/** The prompt tokens billed at the input price: neither read from nor written to a cache (clamped at 0). */
export function uncachedTokens(input: number, cached: number, cacheWrite: number, cacheWrite1h: number): number {
  const uncached = input - cached - cacheWrite - cacheWrite1h;
  return uncached > 0 ? uncached : 0;
}

/** The output tokens billed at the output price: those beside reasoning (clamped at 0). */
export function plainOutputTokens(output: number, reasoning: number): number {
  return output > reasoning ? output - reasoning : 0;
}

/**
 * The formula's part without cache reads or writes: the uncached prompt (clamped at 0) at the input
 * price, the output beside reasoning (clamped at 0) at the output price, reasoning at its price. A call
 * with nothing cached costs exactly this (sums of whole picodollars are exact in any order).
 */
export function uncachedCost(inputPrice: number, outputPrice: number, reasoningPrice: number, uncached: number, output: number, reasoning: number): number {
  return costOfSums(inputPrice, 0, 0, 0, outputPrice, reasoningPrice, uncached > 0 ? uncached : 0, 0, 0, 0, plainOutputTokens(output, reasoning), reasoning);
}

/** A summary call about to be made: its prompt estimate in, the summary's S tokens out, at `prices` (the summary model's), its cache writes lasting as the run's may (`cacheWrites`). */
export interface SummaryCallSize {
  prices: FlatPrices;
  promptEstimate: number;
  summaryTokens: number;
  cacheWrites: CacheWrites;
}

/** What a live loop can bound a summary call by before making it, under `limits` in predict mode (0 otherwise). */
export function summaryBoundPico(limits: BrakeLimits, call: SummaryCallSize): number {
  return predicts(limits) ? predictiveBoundPico(call.prices, call.promptEstimate, call.summaryTokens, call.cacheWrites) : 0;
}

/**
 * What a live loop can bound a call by before making it: the prompt estimate at the highest price a
 * prompt token of its tier can be billed at (input, cache read, or cache write: for five minutes, or an
 * hour where the run's writes may last an hour, `cacheWrites`: cacheWrites.ts), plus `maxOutputTokens`
 * at the output price (the reasoning price when higher). On a model that bills cache writes a prompt the
 * cache does not serve is written whole, at the lifetime the call asks for: the loop's own setting, which
 * a live loop knows, but which replay learns of a recording only from the call's own billed usage
 * (meter.ts), and a failed call is billed as recorded even with the cache off, so for a recording the
 * bound takes the dearest; a run that writes only through the meter writes nothing with the cache off
 * (meter.ts boundWrites: `cacheWrites` None). Plus the fee per request (`prices.requestPico`, Perplexity's;
 * 0 when the table prices none), which a live loop knows before the call and the meter bills every call
 * that is billed (web searches are known only once the call returns: not bounded). No call of the
 * estimated prompt, with no more output than `maxOutputTokens` and no web search, is billed above it.
 */
export function predictiveBoundPico(prices: BoundPrices, promptEstimate: number, maxOutputTokens: number, cacheWrites: CacheWrites): number {
  const { rows } = prices;
  const row = tierRow(rows, prices.tiers, promptEstimate);
  const output = rows[row + PriceField.Output]!;
  const reasoning = rows[row + PriceField.Reasoning]!;
  return promptEstimate * promptPriceCeiling(rows, row, cacheWrites) + maxOutputTokens * (reasoning > output ? reasoning : output) + prices.requestPico;
}

/** What the predictive bound reads of a model's prices: its tiers' rows and its fee per request. */
export type BoundPrices = Pick<FlatPrices, 'rows' | 'tiers' | 'requestPico'>;

/**
 * The highest of the prices a prompt token can be billed at in the tier at `row`: input, cached, cache write
 * (5 min; 1 h too when `cacheWrites` may last an hour; none when nothing is written). The one "dearest
 * prompt-token price" rule: the predictive bound's, and `project`'s worst case (src/population/worstCase.ts).
 */
export function promptPriceCeiling(rows: Float64Array, row: number, cacheWrites: CacheWrites): number {
  const input = rows[row + PriceField.Input]!;
  const cached = rows[row + PriceField.Cached]!;
  const read = cached > input ? cached : input;
  if (cacheWrites === CacheWrites.None) return read;
  const write = rows[row + PriceField.CacheWrite]!;
  const write1h = rows[row + PriceField.CacheWrite1h]!;
  const written = cacheWrites === CacheWrites.MayLastAnHour && write1h > write ? write1h : write;
  return written > read ? written : read;
}

/** The next prompt's estimate: what the context holds plus the overhead the previous call showed. */
export function promptEstimate(viewTokens: number, overheadTokens: number): number {
  const estimate = viewTokens + overheadTokens;
  return estimate > 0 ? estimate : 0;
}

/**
 * A run whose cost leaves exact picodollar arithmetic. Said without a count of calls: the readable loop
 * finds it at the call that passes the bound, the compiled replay at the run's end, and both must say the
 * same (the caller's place names the run and its recorded calls).
 */
export function costOutOfRange(): UserError {
  return new UserError({
    code: 'cost_out_of_range',
    message: 'one run costs more than $9,007, beyond exact picodollar arithmetic',
    hint: `set ${FLAG_BOUNDS} to bound the run`,
  });
}

/** The brakes costOutOfRange's hint names: the command line's flags, which bound a replay; a library entry point says its own options instead (boundsInOptions). */
export const FLAG_BOUNDS = '--max-steps, --max-cost or --context-window';

/**
 * `error` as a library entry point says it: a cost_out_of_range hint that names the command line's flags
 * names the entry point's own brake options instead (`brakes` is their path, `where` the entry point's
 * options or arguments: `set brakes.maxSteps, brakes.maxCostPico or brakes.contextWindow in replayTrace's
 * options`). Any other error as it was.
 */
export function boundsInOptions(error: unknown, brakes: string, where: string): unknown {
  if (!(error instanceof UserError) || !error.issues.some((issue) => issue.code === 'cost_out_of_range' && issue.hint?.includes(FLAG_BOUNDS))) return error;
  const own = `${brakes}.maxSteps, ${brakes}.maxCostPico or ${brakes}.contextWindow in ${where}`;
  return new UserError(error.issues.map((issue) => (issue.code === 'cost_out_of_range' && issue.hint !== undefined ? { ...issue, hint: issue.hint.replace(FLAG_BOUNDS, own) } : issue)));
}
