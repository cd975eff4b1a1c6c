/**
 * The running figures of one stretch of recorded calls (recordedForm.ts): the kernel meter's per-call
 * figures summed at compile time, read over calls a..j−1 in O(1) — a window that fills, then slides,
 * read as two segments. One instance, set per stretch (no allocation per replay).
 */
import type { CompiledTrace } from './layout.js';

/** A stretch's running figures over calls a..j−1, at these offsets of RecordedStretch.at. */
export const enum At {
  CostPico,
  LatencyMs,
  Tokens,
  Cached,
  Written,
  Size,
}

/** Running figures over calls a..j−1 of one stretch (one instance, set per stretch). */
export class RecordedStretch {
  t!: CompiledTrace;
  a = 0;
  /** Window steps once it slides; 0 while the prompt is the growth model's (as sent, or a window not yet full). */
  keep = 0;
  /** Slid window: raw[L] − SB[a], the dropped tokens' base. */
  dropBase = 0;
  /** The meter's figures per call, summed (RecordedSums): uncached, cache read, writes. */
  uncachedBefore!: Float64Array;
  cachedBefore!: Float64Array;
  writeBefore!: Float64Array;
  write1hBefore!: Float64Array;
  /** Time over calls (RecordedSums.latencyBefore, or the compiled step latencies when all are recorded). */
  latencyBefore!: Float64Array;
  pInput = 0;
  pCached = 0;
  pWrite = 0;
  pWrite1h = 0;
  pOutput = 0;
  pReasoning = 0;
  /** figuresAt's figures (in a typed array: a call that is not inlined boxes none). */
  readonly at = new Float64Array(At.Size);
  /** The figures after the stretch's last call (firstFiringCall takes them first), and that call + 1. */
  readonly atEnd = new Float64Array(At.Size);
  end = -1;

  /** A window filling from the run's start, then sliding: the call where it starts to slide (Infinity: one segment). */
  split = Infinity;
  /** The sliding segment's window and cache hits. */
  slidKeep = 0;
  slidCachedBefore!: Float64Array;

  /** The running figures over calls a..j−1 into `at`. */
  figuresAt(j: number): void {
    if (j <= this.split) {
      this.segment(this.a, j, false);
      return;
    }
    this.segment(this.a, this.split, false);
    this.segment(this.split, j, true);
  }

  /** Figures over calls a..j−1 of the first segment, or (`second`) added for the sliding one (from the run's start: nothing dropped before it). */
  private segment(a: number, j: number, second: boolean): void {
    const t = this.t;
    const keep = second ? this.slidKeep : this.keep;
    const cachedBefore = second ? this.slidCachedBefore : this.cachedBefore;
    const recorded = t.recordedInputSumBefore;
    let input = recorded[j]! - recorded[a]!;
    if (keep !== 0) input -= (j - a) * (second ? 0 : this.dropBase) + (t.stepTokensBeforeSum[j - keep]! - t.stepTokensBeforeSum[a - keep]!);
    const cached = cachedBefore[j]! - cachedBefore[a]!;
    const write = this.writeBefore[j]! - this.writeBefore[a]!;
    const write1h = this.write1hBefore[j]! - this.write1hBefore[a]!;
    const output = this.pOutput * (t.plainOutputBefore[j]! - t.plainOutputBefore[a]!) + this.pReasoning * (t.reasoningBefore[j]! - t.reasoningBefore[a]!);
    // A slid window writes nothing and bills input − cached ≥ 0 uncached (the form's conditions).
    const cost =
      keep !== 0
        ? this.pInput * (input - cached) + this.pCached * cached + output
        : this.pInput * (this.uncachedBefore[j]! - this.uncachedBefore[a]!) + this.pCached * cached + this.pWrite * write + this.pWrite1h * write1h + output;
    const latency = this.latencyBefore[j]! - this.latencyBefore[a]!;
    const tokens = input + t.outputBefore[j]! - t.outputBefore[a]!;
    const written = keep !== 0 ? 0 : write + write1h;
    const at = this.at;
    if (!second) {
      at[At.CostPico] = cost;
      at[At.LatencyMs] = latency;
      at[At.Tokens] = tokens;
      at[At.Cached] = cached;
      at[At.Written] = written;
    } else {
      at[At.CostPico] = at[At.CostPico]! + cost;
      at[At.LatencyMs] = at[At.LatencyMs]! + latency;
      at[At.Tokens] = at[At.Tokens]! + tokens;
      at[At.Cached] = at[At.Cached]! + cached;
    }
  }
}
