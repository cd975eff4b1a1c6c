/**
 * The running figures of one stretch of recorded calls (recordedForm.ts): the kernel meter's per-call
 * figures summed at compile time, read over calls a..j−1 in O(1) — a window that fills, then slides,
 * read as two segments. One instance, set per stretch (no allocation per replay).
 */
import { costOfSums } from '../kernel/cost.js';
import { RecordedAt } from './recordedSums.js';

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
  /** The trace's RecordedSums.block: one record (RecordedAt) per call. */
  block!: Float64Array;
  a = 0;
  /** Window steps once it slides; 0 while the prompt is the growth model's (as sent, or a window not yet full). */
  keep = 0;
  /** Slid window: raw[L] − SB[a], the dropped tokens' base. */
  dropBase = 0;
  /** Which of a record's figures the stretch bills (RecordedAt fields): uncached, cache read, writes, time. */
  uncached: RecordedAt = RecordedAt.Uncached;
  cached: RecordedAt = RecordedAt.Cached;
  write: RecordedAt = RecordedAt.Write;
  write1h: RecordedAt = RecordedAt.Write1h;
  /** RecordedAt.Latency (no latency model), or StepLatency when every latency is recorded. */
  latency: RecordedAt = RecordedAt.Latency;
  inputPicoPerToken = 0;
  cachedPicoPerToken = 0;
  writePicoPerToken = 0;
  write1hPicoPerToken = 0;
  outputPicoPerToken = 0;
  reasoningPicoPerToken = 0;
  /** figuresAt's figures (in a typed array: a call that is not inlined boxes none). */
  readonly at = new Float64Array(At.Size);
  /** The figures after the stretch's last call (firstFiringCall takes them first), and that call + 1. */
  readonly atEnd = new Float64Array(At.Size);
  end = -1;

  /** A window filling from the run's start, then sliding: the call where it starts to slide (Infinity: one segment). */
  split = Infinity;
  /** The sliding segment's window (its cache hits are RecordedAt.WindowCached). */
  slidKeep = 0;

  /** The first segment's figures (calls a..split−1), the same for every call past the split. */
  readonly firstSegment = new Float64Array(At.Size);

  /** Sums the first segment once, after the stretch is set with a split. */
  sumFirstSegment(): void {
    this.segment(this.a, this.split, false, this.firstSegment);
  }

  /** The running figures over calls a..j−1 into `into` (`at`, or `atEnd` for the stretch's last call: written in place, no copy). */
  figuresAt(j: number, into = this.at): void {
    if (j <= this.split) this.segment(this.a, j, false, into);
    else this.segment(this.split, j, true, into);
  }

  /** Figures over calls a..j−1 of the first segment, or (`second`) the first segment's plus the sliding one's from the split (from the run's start: nothing dropped before it), into `at`. */
  private segment(a: number, j: number, second: boolean, at: Float64Array): void {
    const b = this.block;
    // Record offsets as int32 once: call indices arrive as doubles, and a double index is converted
    // and checked at every read.
    const A = (a * RecordedAt.Stride) | 0;
    const J = (j * RecordedAt.Stride) | 0;
    const keep = second ? this.slidKeep : this.keep;
    const cachedField = second ? RecordedAt.WindowCached : this.cached;
    let input = b[J + RecordedAt.RecordedInputSum]! - b[A + RecordedAt.RecordedInputSum]!;
    if (keep !== 0) {
      const JK = ((j - keep) * RecordedAt.Stride) | 0;
      const AK = ((a - keep) * RecordedAt.Stride) | 0;
      input -= (j - a) * (second ? 0 : this.dropBase) + (b[JK + RecordedAt.StepTokensSum]! - b[AK + RecordedAt.StepTokensSum]!);
    }
    const cached = b[J + cachedField]! - b[A + cachedField]!;
    const write = b[J + this.write]! - b[A + this.write]!;
    const write1h = b[J + this.write1h]! - b[A + this.write1h]!;
    const plainOutput = b[J + RecordedAt.PlainOutput]! - b[A + RecordedAt.PlainOutput]!;
    const reasoning = b[J + RecordedAt.Reasoning]! - b[A + RecordedAt.Reasoning]!;
    // A slid window writes nothing and bills input − cached ≥ 0 uncached (the form's conditions).
    const cost =
      keep !== 0
        ? costOfSums(this.inputPicoPerToken, this.cachedPicoPerToken, 0, 0, this.outputPicoPerToken, this.reasoningPicoPerToken, input - cached, cached, 0, 0, plainOutput, reasoning)
        : costOfSums(this.inputPicoPerToken, this.cachedPicoPerToken, this.writePicoPerToken, this.write1hPicoPerToken, this.outputPicoPerToken, this.reasoningPicoPerToken, b[J + this.uncached]! - b[A + this.uncached]!, cached, write, write1h, plainOutput, reasoning);
    const latency = b[J + this.latency]! - b[A + this.latency]!;
    const tokens = input + b[J + RecordedAt.Output]! - b[A + RecordedAt.Output]!;
    const written = keep !== 0 ? 0 : write + write1h;
    if (!second) {
      at[At.CostPico] = cost;
      at[At.LatencyMs] = latency;
      at[At.Tokens] = tokens;
      at[At.Cached] = cached;
      at[At.Written] = written;
    } else {
      const first = this.firstSegment;
      at[At.CostPico] = first[At.CostPico]! + cost;
      at[At.LatencyMs] = first[At.LatencyMs]! + latency;
      at[At.Tokens] = first[At.Tokens]! + tokens;
      at[At.Cached] = first[At.Cached]! + cached;
      at[At.Written] = first[At.Written]!;
    }
  }
}
