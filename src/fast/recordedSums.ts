/**
 * What compiling a trace sums over calls with a recorded prompt size for the recorded closed form
 * (recordedForm.ts): the kernel meter's figures for each such call with the prompt as sent and the cache
 * as recorded, the cache hit a slid window is still served, and the next call's prompt estimate — none
 * of which a setting changes. Prices multiply these sums at replay time. Where a strategy changed the
 * prompt, the cache serves what the provider's rule serves (kernel/meter.ts servedCachedTokens): the
 * compiled sums are those with no rule, and a model's rule gets its own, summed at its first replay
 * (recordedSumsFor).
 */
import { CallField, CallFlag } from '../kernel/callRecord.js';
import { promptEstimate, uncachedTokens } from '../kernel/cost.js';
import { modelledCallMs, modelledToolMs } from '../kernel/latency.js';
import { CacheModeCode, Metered, meterCall, Prompt, servedCachedTokens } from '../kernel/meter.js';
import { PriceField, type FlatPrices } from '../kernel/prices.js';
import { CompiledField, type CompiledTrace } from './layout.js';

import { EXACT } from './exactSums.js';

/**
 * The running figures the recorded closed form reads at a call (before it: calls 0..i−1), side by side
 * in RecordedSums.block, one record of RecordedAt.Stride numbers per call 0..calls: a stretch's figures
 * at a call are one record (two or three cache lines), not one line in each of a dozen arrays. Over
 * calls with a recorded prompt size that did not fail, unless said otherwise.
 */
export const enum RecordedAt {
  /** The meter's figures with the prompt as sent, cache as recorded: uncached prompt, cache read, writes. */
  Uncached,
  Cached,
  Write,
  Write1h,
  /**
   * The same under a strategy that changed the prompt while a window is not yet full (its prompt is the
   * growth model's, its unchanged prefix the previous call's prompt): over the first calls of the trace
   * up to the first that is not plain (which may end the run), zero after.
   */
  FillUncached,
  FillCached,
  FillWrite,
  FillWrite1h,
  /** The cache hit under a window that slid (unchanged prefix = system + goal): kernel servedCachedTokens, under the sums' rule. */
  WindowCached,
  /**
   * Time without a latency model: each call's and tool call's recorded latency, 0 where none is
   * recorded (what the kernel's modelled latency is with every model figure 0); over every call.
   */
  Latency,
  /** Copies of the compiled running totals of the same names, over every call: recordedInputSumBefore, stepLatencyBefore, plainOutputBefore, reasoningBefore, outputBefore, stepTokensBefore, stepTokensBeforeSum, recordedInputBefore, recordedDeltaBefore. */
  RecordedInputSum,
  StepLatency,
  PlainOutput,
  Reasoning,
  Output,
  StepTokens,
  StepTokensSum,
  RecordedInputs,
  Delta,
  /** nextEstimateMax and belowGrowthBefore (below). */
  NextEstimateMax,
  BelowGrowth,
  Stride,
}

/** Running sums before call i (length calls + 1) over calls with a recorded prompt size that did not fail. */
export interface RecordedSums {
  /** The running figures a stretch reads, (calls + 1) × RecordedAt.Stride numbers. */
  block: Float64Array;
  /** The cache writes (RecordedAt.Write, Write1h) as arrays of their own, searched for the first call that writes. */
  writeBefore: Float64Array;
  write1hBefore: Float64Array;
  /** Calls whose recorded prompt is below the growth model's (recorded − growth model < 0). */
  belowGrowthBefore: Int32Array;
  /**
   * max over calls k < i of the prompt estimate the call after k makes with the prompt as sent (the
   * growth model's prompt after k's step plus k's overhead): non-decreasing, searched for the first call
   * the context-window brake could refuse. (A compaction's entry, its own prompt and output, bounds
   * nothing the form reads: a stretch after it starts with a call whose estimate is checked as it stands.)
   */
  nextEstimateMax: Float64Array;
  /** The last call whose recorded prompt is below the growth model's or that writes to a cache (a slid window's stops, recordedForm.ts); −1 when none. */
  lastSlideStop: number;
  /** The largest recorded − growth-model difference, and the largest recorded prompt. */
  maxDelta: number;
  maxInput: number;
}

/** Figures the sums need as whole non-negative numbers. */
const WHOLE_FIELDS = [CallField.RecordedInput, CallField.RecordedCached, CallField.RecordedCacheWrite, CallField.RecordedCacheWrite1h, CallField.Output, CallField.Reasoning];

/** No prices: the meter's token figures without a cost. */
const NO_PRICES: FlatPrices = {
  model: '',
  rows: Float64Array.of(-Infinity, 0, 0, 0, 0, 0, 0),
  tiers: 0,
  hasCacheWritePrice: false,
  cacheSaves: false,
  contextWindow: Infinity,
  minCachePrefix: 0,
  cacheIncrement: 1,
  exact: true,
  webSearchPico: 0,
  requestPico: 0,
};

/**
 * The recorded sums of a compiled trace (after its running totals), a strategy's cache hits served by
 * `rule`'s cache rule (its minCachePrefix and cacheIncrement; none by default); null without recorded
 * prompt sizes or beyond exact sums.
 */
export function recordedSums(c: CompiledTrace, rule: FlatPrices = NO_PRICES): RecordedSums | null {
  if (!c.hasRecordedInput || PriceField.Stride !== NO_PRICES.rows.length) return null;
  const sums = emptySums(c.calls);
  const rulePrices = rule === NO_PRICES ? NO_PRICES : { ...NO_PRICES, minCachePrefix: rule.minCachePrefix, cacheIncrement: rule.cacheIncrement };
  const walk: Walk = { metered: new Float64Array(Metered.Size), prompt: new Float64Array(Prompt.Size), nextEstimate: 0, previousPrompt: 0, rule: rulePrices };
  const added = new Float64Array(RecordedAt.Stride);
  for (let i = 0; i < c.calls; i++) {
    if (!wholeFigures(c.records, i * CompiledField.Stride)) return null;
    callFigures(c, i, { walk, sums, added });
    addCall(sums, i, added, walk.nextEstimate);
  }
  copyTotals(c, sums.block);
  const n = c.calls;
  if (!(c.recordedInputSumBefore[n]! < EXACT && Math.abs(sums.maxDelta) < EXACT && sums.block[n * RecordedAt.Stride + RecordedAt.Latency]! < EXACT)) return null;
  return sums;
}

/** The meter's scratch and what carries from call to call: the largest next-call estimate so far, the previous call's prompt while a window fills; the cache rule (no prices). */
interface Walk {
  metered: Float64Array;
  prompt: Float64Array;
  nextEstimate: number;
  previousPrompt: number;
  rule: FlatPrices;
}

const byRule = new WeakMap<CompiledTrace, Map<string, RecordedSums | null>>();

/**
 * The recorded sums a replay at `prices` reads: the compiled ones where the model's cache rule serves every
 * unchanged token, else those summed under its rule (once per trace and rule). Only a strategy's figures
 * (RecordedAt.Fill…, WindowCached) differ; the prompt as sent is billed as recorded under any rule.
 */
export function recordedSumsFor(c: CompiledTrace, prices: FlatPrices): RecordedSums | null {
  if (c.recordedSums === null || (prices.minCachePrefix <= 0 && prices.cacheIncrement === 1)) return c.recordedSums;
  let rules = byRule.get(c);
  if (rules === undefined) byRule.set(c, (rules = new Map()));
  const key = `${prices.minCachePrefix}/${prices.cacheIncrement}`;
  let sums = rules.get(key);
  if (sums === undefined) rules.set(key, (sums = recordedSums(c, prices)));
  return sums;
}

function emptySums(calls: number): RecordedSums {
  const before = () => new Float64Array(calls + 1);
  return {
    block: new Float64Array((calls + 1) * RecordedAt.Stride),
    writeBefore: before(),
    write1hBefore: before(),
    belowGrowthBefore: new Int32Array(calls + 1),
    nextEstimateMax: before(),
    lastSlideStop: -1,
    maxDelta: -Infinity,
    maxInput: 0,
  };
}

/** Whether the call record at `at` gives the figures the sums need as whole non-negative numbers. */
function wholeFigures(records: Float64Array, at: number): boolean {
  for (const f of WHOLE_FIELDS) if (!(Number.isSafeInteger(records[at + f]) && records[at + f]! >= 0)) return false;
  return true;
}

/** Call i's own figures, RecordedAt.Uncached … Latency and BelowGrowth of `added` (0 for a call not counted); the largest prompt, difference and next estimate so far. */
function callFigures(c: CompiledTrace, i: number, into: { walk: Walk; sums: RecordedSums; added: Float64Array }): void {
  const { walk, sums, added } = into;
  const r = c.records;
  const at = i * CompiledField.Stride;
  const flags = r[at + CallField.Flags]! | 0;
  const recordedInput = r[at + CallField.RecordedInput]!;
  if ((flags & CallFlag.RecordedInput) !== 0 && recordedInput > sums.maxInput) sums.maxInput = recordedInput;
  added.fill(0);
  if ((flags & CallFlag.RecordedInput) !== 0 && (flags & CallFlag.Failed) === 0) {
    const delta = c.recordedDeltaBefore[i + 1]! - c.recordedDeltaBefore[i]!;
    const growth = recordedInput - delta;
    const { metered: m, prompt } = walk;
    prompt[Prompt.View] = growth;
    prompt[Prompt.Full] = growth;
    prompt[Prompt.Unchanged] = 0;
    meterCall(m, walk.rule, true, CacheModeCode.Recorded, r, at, prompt);
    meteredInto(m, added, RecordedAt.Uncached);
    if (i <= c.nextNotPlain[0]!) {
      // A window not yet full: the prompt is the growth model's, the previous call's unchanged.
      prompt[Prompt.Unchanged] = walk.previousPrompt;
      meterCall(m, walk.rule, false, CacheModeCode.Recorded, r, at, prompt);
      meteredInto(m, added, RecordedAt.FillUncached);
      walk.previousPrompt = growth;
    }
    added[RecordedAt.WindowCached] = servedCachedTokens(walk.rule, r[at + CallField.RecordedCached]!, c.fixedTokens, delta, Infinity);
    added[RecordedAt.BelowGrowth] = delta < 0 ? 1 : 0;
    if (delta > sums.maxDelta) sums.maxDelta = delta;
    // The next call's estimate: the growth model's prompt after this step, plus this call's overhead (as last metered).
    const estimate = promptEstimate(growth + r[at + CompiledField.StepTokens]!, m[Metered.Input]! - growth);
    if (estimate > walk.nextEstimate) walk.nextEstimate = estimate;
  }
  let latency = modelledCallMs(r[at + CallField.LatencyMs]!, 0, 0, 0, 0, 0);
  for (let j = c.toolStart[i]!; j < c.toolStart[i + 1]!; j++) latency += modelledToolMs(c.toolLatencyMs[j]!, 0);
  added[RecordedAt.Latency] = latency;
}

/** The meter's uncached prompt, cache read and writes into four consecutive fields of `added` from `first`. */
function meteredInto(m: Float64Array, added: Float64Array, first: RecordedAt): void {
  added[first] = uncachedTokens(m[Metered.Input]!, m[Metered.Cached]!, m[Metered.CacheWrite]!, m[Metered.CacheWrite1h]!);
  added[first + 1] = m[Metered.Cached]!;
  added[first + 2] = m[Metered.CacheWrite]!;
  added[first + 3] = m[Metered.CacheWrite1h]!;
}

/** The record after call i: the one before it plus call i's figures; the searched arrays beside it. */
function addCall(sums: RecordedSums, i: number, added: Float64Array, nextEstimate: number): void {
  const block = sums.block;
  const from = i * RecordedAt.Stride;
  const to = from + RecordedAt.Stride;
  for (let f = RecordedAt.Uncached; f <= RecordedAt.Latency; f++) block[to + f] = block[from + f]! + added[f]!;
  block[to + RecordedAt.NextEstimateMax] = nextEstimate;
  sums.writeBefore[i + 1] = block[to + RecordedAt.Write]!;
  sums.write1hBefore[i + 1] = block[to + RecordedAt.Write1h]!;
  sums.belowGrowthBefore[i + 1] = sums.belowGrowthBefore[i]! + added[RecordedAt.BelowGrowth]!;
  block[to + RecordedAt.BelowGrowth] = sums.belowGrowthBefore[i + 1]!;
  sums.nextEstimateMax[i + 1] = nextEstimate;
  if (added[RecordedAt.BelowGrowth] !== 0 || added[RecordedAt.Write] !== 0 || added[RecordedAt.Write1h] !== 0) sums.lastSlideStop = i;
}

/** The compiled running totals a stretch reads beside the meter's sums (RecordedAt), copied into each record. */
function copyTotals(c: CompiledTrace, block: Float64Array): void {
  for (let i = 0, at = 0; i <= c.calls; i++, at += RecordedAt.Stride) {
    block[at + RecordedAt.RecordedInputSum] = c.recordedInputSumBefore[i]!;
    block[at + RecordedAt.StepLatency] = c.stepLatencyBefore[i]!;
    block[at + RecordedAt.PlainOutput] = c.plainOutputBefore[i]!;
    block[at + RecordedAt.Reasoning] = c.reasoningBefore[i]!;
    block[at + RecordedAt.Output] = c.outputBefore[i]!;
    block[at + RecordedAt.StepTokens] = c.stepTokensBefore[i]!;
    block[at + RecordedAt.StepTokensSum] = c.stepTokensBeforeSum[i]!;
    block[at + RecordedAt.RecordedInputs] = c.recordedInputBefore[i]!;
    block[at + RecordedAt.Delta] = c.recordedDeltaBefore[i]!;
  }
}
