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

const EXACT = 2 ** 52;

/** Running sums before call i (length calls + 1) over calls with a recorded prompt size that did not fail. */
export interface RecordedSums {
  /** The meter's figures with the prompt as sent, cache as recorded: uncached prompt, cache read, writes. */
  uncachedBefore: Float64Array;
  cachedBefore: Float64Array;
  writeBefore: Float64Array;
  write1hBefore: Float64Array;
  /**
   * The same under a strategy that changed the prompt while a window is not yet full (its prompt is the
   * growth model's, its unchanged prefix the previous call's prompt): over the first calls of the trace
   * up to the first that is not plain (which may end the run), zero after.
   */
  fillUncachedBefore: Float64Array;
  fillCachedBefore: Float64Array;
  fillWriteBefore: Float64Array;
  fillWrite1hBefore: Float64Array;
  /** The cache hit under a window that slid (unchanged prefix = system + goal): kernel servedCachedTokens. */
  windowCachedBefore: Float64Array;
  /** Calls whose recorded prompt is below the growth model's (recorded − growth model < 0). */
  belowGrowthBefore: Int32Array;
  /**
   * max over calls k < i of the prompt estimate the call after k makes with the prompt as sent (the
   * growth model's prompt after k's step plus k's overhead): non-decreasing, searched for the first call
   * the context-window brake could refuse.
   */
  nextEstimateMax: Float64Array;
  /**
   * Time over calls before i without a latency model: each call's and tool call's recorded latency, 0
   * where none is recorded (what the kernel's modelled latency is with every model figure 0).
   */
  latencyBefore: Float64Array;
  /** The largest recorded − growth-model difference, and the largest recorded prompt. */
  maxDelta: number;
  maxInput: number;
}

/** Figures the sums need as whole non-negative numbers. */
const WHOLE_FIELDS = [CallField.RecordedInput, CallField.RecordedCached, CallField.RecordedCacheWrite, CallField.RecordedCacheWrite1h, CallField.Output, CallField.Reasoning];

/** No prices: the meter's token figures without a cost. */
const NO_PRICES: FlatPrices = {
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
    uncachedBefore: before(),
    cachedBefore: before(),
    writeBefore: before(),
    write1hBefore: before(),
    fillUncachedBefore: before(),
    fillCachedBefore: before(),
    fillWriteBefore: before(),
    fillWrite1hBefore: before(),
    windowCachedBefore: before(),
    belowGrowthBefore: new Int32Array(n + 1),
    nextEstimateMax: before(),
    latencyBefore: before(),
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
    sums.uncachedBefore[i + 1] = sums.uncachedBefore[i]! + uncached;
    sums.cachedBefore[i + 1] = sums.cachedBefore[i]! + cached;
    sums.writeBefore[i + 1] = sums.writeBefore[i]! + write;
    sums.write1hBefore[i + 1] = sums.write1hBefore[i]! + write1h;
    sums.fillUncachedBefore[i + 1] = sums.fillUncachedBefore[i]! + fillUncached;
    sums.fillCachedBefore[i + 1] = sums.fillCachedBefore[i]! + fillCached;
    sums.fillWriteBefore[i + 1] = sums.fillWriteBefore[i]! + fillWrite;
    sums.fillWrite1hBefore[i + 1] = sums.fillWrite1hBefore[i]! + fillWrite1h;
    sums.windowCachedBefore[i + 1] = sums.windowCachedBefore[i]! + windowCached;
    sums.belowGrowthBefore[i + 1] = sums.belowGrowthBefore[i]! + below;
    sums.nextEstimateMax[i + 1] = nextEstimate;
    let latency = modelledCallMs(r[at + CallField.LatencyMs]!, 0, 0, 0, 0, 0);
    for (let j = c.toolStart[i]!; j < c.toolStart[i + 1]!; j++) latency += modelledToolMs(c.toolLatencyMs[j]!, 0);
    sums.latencyBefore[i + 1] = sums.latencyBefore[i]! + latency;
  }
  if (!(c.recordedInputSumBefore[n]! < EXACT && Math.abs(sums.maxDelta) < EXACT && sums.latencyBefore[n]! < EXACT)) return null;
  return sums;
}
