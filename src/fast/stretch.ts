/**
 * The closed form's sums over a stretch of plain calls (see closedForm.ts): step tokens under a cap
 * summed over calls, and any running figure of a stretch at any call from them in O(1).
 */
import { CallField } from '../kernel/callRecord.js';
import { PriceField } from '../kernel/prices.js';
import { CompiledField, type CompiledTrace } from './layout.js';

const EXACT = 2 ** 52;

/** Step tokens under one cap, summed over calls: before[i] = Σ_{k<i} κ_k, beforeSum[i] = Σ_{k<i} before[k]. */
export interface StepSums {
  before: Float64Array;
  beforeSum: Float64Array;
}

const cappedSums = new WeakMap<CompiledTrace, { cap: number; sums: StepSums | null }>();

/**
 * The step sums of a trace under a tool-result cap (Infinity: compiled with the trace); null when they
 * would not be exact. The last cap's sums are kept with the trace, so replaying one strategy under many
 * brake settings computes them once.
 */
export function stepSums(t: CompiledTrace, cap: number): StepSums | null {
  const cachedSums = cappedSums.get(t);
  if (cap === Infinity) {
    if (cachedSums !== undefined && cachedSums.cap === Infinity) return cachedSums.sums;
    const sums = { before: t.stepTokensBefore, beforeSum: t.stepTokensBeforeSum };
    cappedSums.set(t, { cap, sums });
    return sums;
  }
  if (cachedSums !== undefined && cachedSums.cap === cap) return cachedSums.sums;
  const n = t.calls;
  const before = new Float64Array(n + 1);
  const beforeSum = new Float64Array(n + 1);
  for (let i = 0; i < n; i++) {
    let kept = t.records[i * CompiledField.Stride + CallField.Output]!;
    for (let j = t.toolStart[i]!; j < t.toolStart[i + 1]!; j++) kept += Math.min(t.resultTokens[j]!, cap);
    before[i + 1] = before[i]! + kept;
    beforeSum[i + 1] = beforeSum[i]! + before[i]!;
  }
  const sums = beforeSum[n]! < EXACT ? { before, beforeSum } : null;
  cappedSums.set(t, { cap, sums });
  return sums;
}

/** Running totals over calls x..j−1 of one stretch at one price tier (one instance reused: `set` per stretch, no allocation per replay). */
export class Stretch {
  t!: CompiledTrace;
  steps!: StepSums;
  x = 0;
  /** Full history: view_k = b + before[k]. Window: the system + goal prompt. */
  b = 0;
  /** Steps the window keeps; 0 for full history. */
  keep = 0;
  /** The previous call's prompt (view_{x−1}); full history only. */
  prevView = 0;
  cacheOn = false;
  cacheWritePrice = false;
  pInput = 0;
  pCached = 0;
  pWrite = 0;
  pOutput = 0;
  pReasoning = 0;

  set(t: CompiledTrace, steps: StepSums, x: number, b: number, keep: number, prevView: number, cacheOn: boolean, cacheWritePrice: boolean, prices: Float64Array, row: number): this {
    this.t = t;
    this.steps = steps;
    this.x = x;
    this.b = b;
    this.keep = keep;
    this.prevView = prevView;
    this.cacheOn = cacheOn;
    this.cacheWritePrice = cacheWritePrice;
    this.pInput = prices[row + PriceField.Input]!;
    this.pCached = prices[row + PriceField.Cached]!;
    this.pWrite = prices[row + PriceField.CacheWrite]!;
    this.pOutput = prices[row + PriceField.Output]!;
    this.pReasoning = prices[row + PriceField.Reasoning]!;
    return this;
  }

  view(k: number): number {
    const before = this.steps.before;
    return this.keep === 0 ? this.b + before[k]! : this.b + before[k]! - before[k - this.keep]!;
  }

  /** Σ view over calls x..j−1. */
  viewSum(j: number): number {
    const s = this.steps.beforeSum;
    const x = this.x;
    if (this.keep === 0) return (j - x) * this.b + s[j]! - s[x]!;
    return (j - x) * this.b + s[j]! - s[x]! - (s[j - this.keep]! - s[x - this.keep]!);
  }

  /** Σ cached over calls x..j−1 (cache on). */
  cachedSum(j: number): number {
    if (this.keep !== 0) return (j - this.x) * this.b;
    return j > this.x ? this.prevView + this.viewSum(j - 1) : 0;
  }

  /** Σ (view − cached) over calls x..j−1: uncached, or written with a cache-write price. */
  growth(j: number): number {
    if (this.keep !== 0) return this.viewSum(j) - this.cachedSum(j);
    return j > this.x ? this.view(j - 1) - this.prevView : 0;
  }

  /** Σ cost over calls x..j−1. */
  cost(j: number): number {
    const t = this.t;
    const output = this.pOutput * (t.plainOutputBefore[j]! - t.plainOutputBefore[this.x]!) + this.pReasoning * (t.reasoningBefore[j]! - t.reasoningBefore[this.x]!);
    if (!this.cacheOn) return this.pInput * this.viewSum(j) + output;
    return (this.cacheWritePrice ? this.pWrite : this.pInput) * this.growth(j) + this.pCached * this.cachedSum(j) + output;
  }

  /** Σ (input + output) over calls x..j−1. */
  tokens(j: number): number {
    return this.viewSum(j) + this.t.outputBefore[j]! - this.t.outputBefore[this.x]!;
  }

  latency(j: number): number {
    return this.t.stepLatencyBefore[j]! - this.t.stepLatencyBefore[this.x]!;
  }
}

