/**
 * The memory a compiled trace is carved out of (compile.ts): its own ArrayBuffer, a CompileScratch's
 * (one replay, each run dropped before the next) or a part of a CompileArena's (a batch of runs
 * streamed through a sweep).
 */

/**
 * Typed arrays carved one after another out of one ArrayBuffer: a compiled trace is one allocation and
 * one free instead of ~35 (a replay of a large file compiles each run and lets it go; issue 7's flat
 * peak memory), or none where a CompileScratch lends its buffer or a CompileArena a part of one. Float64
 * views come first, so every view is aligned.
 */
export class Slab {
  private readonly buffer: ArrayBuffer;
  private readonly end: number;
  private at = 0;

  constructor(f64s: number, i32s: number, memory?: CompileScratch | CompileArena) {
    const bytes = f64s * 8 + i32s * 4;
    if (memory instanceof CompileArena) {
      this.buffer = memory.take(bytes);
      this.at = memory.offset;
    } else this.buffer = memory === undefined ? new ArrayBuffer(bytes) : memory.zeroed(bytes);
    this.end = this.at + bytes;
  }

  f64(length: number): Float64Array {
    const view = new Float64Array(this.buffer, this.at, length);
    this.at += length * 8;
    return view;
  }

  i32(length: number): Int32Array {
    const view = new Int32Array(this.buffer, this.at, length);
    this.at += length * 4;
    return view;
  }

  /** Throws unless every byte was handed out (the sizes below and the views taken agree). */
  done(): void {
    if (this.at !== this.end) throw new Error(`compiled trace slab: ${this.at} of ${this.end} bytes used`);
  }
}

/** An arena's buffers: a slab larger than this has one of its own. */
const ARENA_CHUNK_BYTES = 1 << 20;

/**
 * Memory for compiled traces made and dropped together (a batch of runs streamed through a sweep):
 * slabs carved one after another out of large ArrayBuffers rather than one ArrayBuffer each (~10 µs an
 * ArrayBuffer with the collector's accounting), and after `reset` (the batch swept and dropped) out of
 * the same buffers again, zeroed: memory first touched is a page fault per 4 KB (~10 µs on a virtual
 * machine), ~2 MB a batch of 256 runs. A trace compiled into it is valid until the next reset.
 */
export class CompileArena {
  private readonly chunks: ArrayBuffer[] = [];
  /** The buffer carved (its index in chunks), the first byte not handed out since the last reset, whether it was made since. */
  private chunk = -1;
  private next = 0;
  private fresh = false;
  /** Where the part last taken starts in its buffer. */
  offset = 0;

  /** A buffer with `bytes` zero bytes at `offset` (8-aligned), not handed out since the last reset. */
  take(bytes: number): ArrayBuffer {
    let at = Math.ceil(this.next / 8) * 8;
    if (this.chunk < 0 || at + bytes > this.chunks[this.chunk]!.byteLength) {
      this.chunk += 1;
      at = 0;
      const old = this.chunks[this.chunk];
      this.fresh = old === undefined || old.byteLength < bytes;
      if (this.fresh) this.chunks[this.chunk] = new ArrayBuffer(Math.max(bytes, ARENA_CHUNK_BYTES));
    }
    const buffer = this.chunks[this.chunk]!;
    if (!this.fresh) new Uint8Array(buffer, at, bytes).fill(0);
    this.offset = at;
    this.next = at + bytes;
    return buffer;
  }

  /** Every trace compiled into the arena dropped: its memory is handed out again. */
  reset(): void {
    this.chunk = -1;
    this.next = 0;
  }
}

/**
 * Memory that one replay lends to each run it compiles and lets go before the next (compiledOnce): one
 * ArrayBuffer grown to the largest run's slab, and the per-call recorded costs, instead of a fresh
 * ~280 KB a 1,000-call run (garbage that a long replay's peak memory hovers at otherwise). A compiled
 * trace made with it is valid only until the next one made with the same scratch.
 */
export class CompileScratch {
  private buffer = new ArrayBuffer(0);
  private costs = new Float64Array(0);

  /** At least `bytes` bytes, the first `bytes` of them zero. */
  zeroed(bytes: number): ArrayBuffer {
    if (this.buffer.byteLength < bytes) this.buffer = new ArrayBuffer(grown(this.buffer.byteLength, bytes));
    else new Uint8Array(this.buffer, 0, bytes).fill(0);
    return this.buffer;
  }

  /** Room for the recorded cost of `calls` calls (NaN where a call recorded none: every entry is written). */
  recordedCosts(calls: number): Float64Array {
    if (this.costs.length < calls) this.costs = new Float64Array(grown(this.costs.length, calls));
    return this.costs;
  }
}

/** A new capacity of at least `needed`, a quarter more than `current` at least (few regrowths). */
function grown(current: number, needed: number): number {
  return Math.max(needed, Math.ceil((current * 1.25) / 8) * 8);
}
