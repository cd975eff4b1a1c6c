/**
 * The closed form's sums over a stretch of plain calls (see closedForm.ts): step tokens under a cap
 * summed over calls, and any running figure of a stretch at any call from them in O(1).
 */
import { costOfSums } from '../kernel/cost.js';
import { keptStepTokens } from '../kernel/stepTokens.js';
import { PriceField } from '../kernel/prices.js';
import { ClosedAt, CompiledField, type CompiledTrace } from './layout.js';

import { EXACT } from './exactSums.js';

/** Step tokens under one cap, summed over calls: before[i] = Σ_{k<i} κ_k, beforeSum[i] = Σ_{k<i} before[k]. */
export interface StepSums {
  before: Float64Array;
  beforeSum: Float64Array;
  /** The trace's closedSums (ClosedAt records) with these step sums in place of the uncapped ones (the trace's own when uncapped). */
  closed: Float64Array;
}

/** The uncapped step sums, set per replay (no allocation, no lookup): the compiled ones. */
const uncapped: StepSums = { before: new Float64Array(0), beforeSum: new Float64Array(0), closed: new Float64Array(0) };

/** The trace's own step sums (no tool-result cap), in a record reused by every call: read it before the next. */
export function uncappedSums(t: CompiledTrace): StepSums {
  uncapped.before = t.stepTokensBefore;
  uncapped.beforeSum = t.stepTokensBeforeSum;
  uncapped.closed = t.closedSums;
  return uncapped;
}

/** Call i's step of `stepTokens` (κ_i) into the step sums (StepSums: before, beforeSum), after calls 0..i−1's. */
export function addStepSums(before: Float64Array, beforeSum: Float64Array, i: number, stepTokens: number): void {
  before[i + 1] = before[i]! + stepTokens;
  beforeSum[i + 1] = beforeSum[i]! + before[i]!;
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
    const sums = { before: t.stepTokensBefore, beforeSum: t.stepTokensBeforeSum, closed: t.closedSums };
    cappedSums.set(t, { cap, sums });
    return sums;
  }
  if (cachedSums !== undefined && cachedSums.cap === cap) return cachedSums.sums;
  const n = t.calls;
  const before = new Float64Array(n + 1);
  const beforeSum = new Float64Array(n + 1);
  for (let i = 0; i < n; i++) {
    addStepSums(before, beforeSum, i, keptStepTokens(t.records[i * CompiledField.Stride + CompiledField.ContextOutput]!, t.resultTokens, t.toolStart[i]!, t.toolStart[i + 1]!, cap));
  }
  const closed = t.closedSums.slice();
  for (let i = 0, at = 0; i <= n; i++, at += ClosedAt.Stride) {
    closed[at + ClosedAt.StepTokens] = before[i]!;
    closed[at + ClosedAt.StepTokensSum] = beforeSum[i]!;
  }
  const sums = beforeSum[n]! < EXACT ? { before, beforeSum, closed } : null;
  cappedSums.set(t, { cap, sums });
  return sums;
}

/**
 * Window: the first step call k's prompt holds, k − keep, clamped at the run's first (a window from the
 * run's start not yet full holds every step; K and its running sum are 0 there, so the same formulas hold).
 */
function before(k: number, keep: number): number {
  const first = k - keep;
  return first > 0 ? first : 0;
}

/** Running totals over calls x..j−1 of one stretch at one price tier (one instance reused: `set` per stretch, no allocation per replay). */
export class Stretch {
  /** The stretch's running totals (StepSums.closed: ClosedAt records, step sums under the cap). */
  sums!: Float64Array;
  x = 0;
  /** Full history: view_k = b + before[k]. Window: the system + goal prompt. */
  b = 0;
  /** Steps the window keeps; 0 for full history. */
  keep = 0;
  /** The previous call's prompt (view_{x−1}); full history only. */
  prevView = 0;
  cacheOn = false;
  cacheWritePrice = false;
  inputPicoPerToken = 0;
  cachedPicoPerToken = 0;
  writePicoPerToken = 0;
  outputPicoPerToken = 0;
  reasoningPicoPerToken = 0;
  /** The running totals at call x (the stretch's figures are differences from them), read once per stretch. */
  sumAtX = 0;
  /** Window: Σ K at x − keep. */
  sumAtXLessKeep = 0;
  plainOutputAtX = 0;
  reasoningAtX = 0;
  outputAtX = 0;
  latencyAtX = 0;

  set(steps: StepSums, x: number, b: number, keep: number, prevView: number, cacheOn: boolean, cacheWritePrice: boolean, prices: Float64Array, row: number): this {
    this.sums = steps.closed;
    this.x = x;
    this.b = b;
    this.keep = keep;
    this.prevView = prevView;
    this.cacheOn = cacheOn;
    this.cacheWritePrice = cacheWritePrice;
    this.inputPicoPerToken = prices[row + PriceField.Input]!;
    this.cachedPicoPerToken = prices[row + PriceField.Cached]!;
    this.writePicoPerToken = prices[row + PriceField.CacheWrite]!;
    this.outputPicoPerToken = prices[row + PriceField.Output]!;
    this.reasoningPicoPerToken = prices[row + PriceField.Reasoning]!;
    const sums = this.sums;
    // (Record offsets as int32: call indices arrive as doubles, and a double index is converted at every read.)
    const X = (x * ClosedAt.Stride) | 0;
    this.sumAtX = sums[X + ClosedAt.StepTokensSum]!;
    this.sumAtXLessKeep = keep === 0 ? 0 : sums[((before(x, keep) * ClosedAt.Stride) | 0) + ClosedAt.StepTokensSum]!;
    this.plainOutputAtX = sums[X + ClosedAt.PlainOutput]!;
    this.reasoningAtX = sums[X + ClosedAt.Reasoning]!;
    this.outputAtX = sums[X + ClosedAt.Output]!;
    this.latencyAtX = sums[X + ClosedAt.StepLatency]!;
    return this;
  }

  view(k: number): number {
    const s = this.sums;
    const view = this.b + s[((k * ClosedAt.Stride) | 0) + ClosedAt.StepTokens]!;
    return this.keep === 0 ? view : view - s[((before(k, this.keep) * ClosedAt.Stride) | 0) + ClosedAt.StepTokens]!;
  }

  /** Σ view over calls x..j−1. */
  viewSum(j: number): number {
    const s = this.sums;
    const sum = (j - this.x) * this.b + s[((j * ClosedAt.Stride) | 0) + ClosedAt.StepTokensSum]! - this.sumAtX;
    if (this.keep === 0) return sum;
    return sum - (s[((before(j, this.keep) * ClosedAt.Stride) | 0) + ClosedAt.StepTokensSum]! - this.sumAtXLessKeep);
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

  /** Σ cost over calls x..j−1 (the kernel's formula over the summed parts; every write lasts five minutes: closedFormApplies). */
  costPico(j: number): number {
    const s = this.sums;
    const J = (j * ClosedAt.Stride) | 0;
    const plainOutput = s[J + ClosedAt.PlainOutput]! - this.plainOutputAtX;
    const reasoning = s[J + ClosedAt.Reasoning]! - this.reasoningAtX;
    if (!this.cacheOn) return costOfSums(this.inputPicoPerToken, 0, 0, 0, this.outputPicoPerToken, this.reasoningPicoPerToken, this.viewSum(j), 0, 0, 0, plainOutput, reasoning);
    // What the cache did not serve is written, on a model that bills writes; else billed uncached.
    const growth = this.growth(j);
    const written = this.cacheWritePrice ? growth : 0;
    return costOfSums(this.inputPicoPerToken, this.cachedPicoPerToken, this.writePicoPerToken, 0, this.outputPicoPerToken, this.reasoningPicoPerToken, growth - written, this.cachedSum(j), written, 0, plainOutput, reasoning);
  }

  /** Σ (input + output) over calls x..j−1. */
  tokens(j: number): number {
    return this.viewSum(j) + this.sums[((j * ClosedAt.Stride) | 0) + ClosedAt.Output]! - this.outputAtX;
  }

  /** Σ latency over calls x..j−1 (the stretch's whole recorded latencies). */
  latencyMs(j: number): number {
    return this.sums[((j * ClosedAt.Stride) | 0) + ClosedAt.StepLatency]! - this.latencyAtX;
  }
}
