/**
 * What compiling a trace sums over calls with a recorded prompt size for the recorded closed form
 * (recordedForm.ts): the kernel meter's figures for each such call with the prompt as sent and the cache
 * as recorded, the cache hit a slid window is still served, and the next call's prompt estimate — none
 * of which a setting changes. Prices multiply these sums at replay time.
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
  /** The cache hit under a window that slid (unchanged prefix = system + goal): kernel servedCachedTokens. */
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
};

/** The recorded sums of a compiled trace (after its running totals); null without recorded prompt sizes or beyond exact sums. */
export function recordedSums(c: CompiledTrace): RecordedSums | null {
  if (!c.hasRecordedInput || PriceField.Stride !== NO_PRICES.rows.length) return null;
  const n = c.calls;
  const before = () => new Float64Array(n + 1);
  const sums: RecordedSums = {
    block: new Float64Array((n + 1) * RecordedAt.Stride),
    writeBefore: before(),
    write1hBefore: before(),
    belowGrowthBefore: new Int32Array(n + 1),
    nextEstimateMax: before(),
    lastSlideStop: -1,
    maxDelta: -Infinity,
    maxInput: 0,
  };
  const m = new Float64Array(Metered.Size);
  const prompt = new Float64Array(Prompt.Size);
  const r = c.records;
  let nextEstimate = 0;
  let previousPrompt = 0;
  for (let i = 0; i < n; i++) {
    const at = i * CompiledField.Stride;
    const flags = r[at + CallField.Flags]! | 0;
    const counted = (flags & CallFlag.RecordedInput) !== 0 && (flags & CallFlag.Failed) === 0;
    const recordedInput = r[at + CallField.RecordedInput]!;
    for (const f of WHOLE_FIELDS) if (!(Number.isSafeInteger(r[at + f]) && r[at + f]! >= 0)) return null;
    if ((flags & CallFlag.RecordedInput) !== 0 && recordedInput > sums.maxInput) sums.maxInput = recordedInput;
    let uncached = 0, cached = 0, write = 0, write1h = 0, windowCached = 0, below = 0;
    let fillUncached = 0, fillCached = 0, fillWrite = 0, fillWrite1h = 0;
    if (counted) {
      const delta = c.recordedDeltaBefore[i + 1]! - c.recordedDeltaBefore[i]!;
      const growth = recordedInput - delta;
      prompt[Prompt.View] = growth;
      prompt[Prompt.Full] = growth;
      prompt[Prompt.Unchanged] = 0;
      meterCall(m, NO_PRICES, true, CacheModeCode.Recorded, r, at, prompt);
      uncached = uncachedTokens(m[Metered.Input]!, m[Metered.Cached]!, m[Metered.CacheWrite]!, m[Metered.CacheWrite1h]!);
      cached = m[Metered.Cached]!;
      write = m[Metered.CacheWrite]!;
      write1h = m[Metered.CacheWrite1h]!;
      if (i <= c.nextNotPlain[0]!) {
        // A window not yet full: the prompt is the growth model's, the previous call's unchanged.
        prompt[Prompt.Unchanged] = previousPrompt;
        meterCall(m, NO_PRICES, false, CacheModeCode.Recorded, r, at, prompt);
        fillUncached = uncachedTokens(m[Metered.Input]!, m[Metered.Cached]!, m[Metered.CacheWrite]!, m[Metered.CacheWrite1h]!);
        fillCached = m[Metered.Cached]!;
        fillWrite = m[Metered.CacheWrite]!;
        fillWrite1h = m[Metered.CacheWrite1h]!;
        previousPrompt = growth;
      }
      windowCached = servedCachedTokens(r[at + CallField.RecordedCached]!, c.fixedTokens, delta, Infinity);
      below = delta < 0 ? 1 : 0;
      if (delta > sums.maxDelta) sums.maxDelta = delta;
      // The next call's estimate: the growth model's prompt after this step, plus this call's overhead.
      const estimate = promptEstimate(growth + r[at + CompiledField.StepTokens]!, m[Metered.Input]! - growth);
      if (estimate > nextEstimate) nextEstimate = estimate;
    }
    let latency = modelledCallMs(r[at + CallField.LatencyMs]!, 0, 0, 0, 0, 0);
    for (let j = c.toolStart[i]!; j < c.toolStart[i + 1]!; j++) latency += modelledToolMs(c.toolLatencyMs[j]!, 0);
    const from = i * RecordedAt.Stride;
    const to = from + RecordedAt.Stride;
    const block = sums.block;
    block[to + RecordedAt.Uncached] = block[from + RecordedAt.Uncached]! + uncached;
    block[to + RecordedAt.Cached] = block[from + RecordedAt.Cached]! + cached;
    block[to + RecordedAt.Write] = block[from + RecordedAt.Write]! + write;
    block[to + RecordedAt.Write1h] = block[from + RecordedAt.Write1h]! + write1h;
    block[to + RecordedAt.FillUncached] = block[from + RecordedAt.FillUncached]! + fillUncached;
    block[to + RecordedAt.FillCached] = block[from + RecordedAt.FillCached]! + fillCached;
    block[to + RecordedAt.FillWrite] = block[from + RecordedAt.FillWrite]! + fillWrite;
    block[to + RecordedAt.FillWrite1h] = block[from + RecordedAt.FillWrite1h]! + fillWrite1h;
    block[to + RecordedAt.WindowCached] = block[from + RecordedAt.WindowCached]! + windowCached;
    block[to + RecordedAt.Latency] = block[from + RecordedAt.Latency]! + latency;
    block[to + RecordedAt.NextEstimateMax] = nextEstimate;
    sums.writeBefore[i + 1] = block[to + RecordedAt.Write]!;
    sums.write1hBefore[i + 1] = block[to + RecordedAt.Write1h]!;
    sums.belowGrowthBefore[i + 1] = sums.belowGrowthBefore[i]! + below;
    block[to + RecordedAt.BelowGrowth] = sums.belowGrowthBefore[i + 1]!;
    sums.nextEstimateMax[i + 1] = nextEstimate;
    if (below !== 0 || write !== 0 || write1h !== 0) sums.lastSlideStop = i;
  }
  copyTotals(c, sums.block);
  if (!(c.recordedInputSumBefore[n]! < EXACT && Math.abs(sums.maxDelta) < EXACT && sums.block[n * RecordedAt.Stride + RecordedAt.Latency]! < EXACT)) return null;
  return sums;
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
