/**
 * Two read buffers lent in turn to one input at a time, so reading a large file chunk by chunk reuses
 * the same memory instead of a fresh 1 MB buffer per chunk (garbage a long replay's peak memory hovers
 * at otherwise: issue 7). A chunk read into a pooled buffer stays valid while the next chunk is read
 * (into the other buffer) and is overwritten by the one after: a reader that keeps a chunk longer copies
 * it (the line splitter keeps an unfinished line as a copy; readDocument copies all but the last chunk).
 * While one input holds the pool, an input opened meanwhile reads into fresh buffers.
 */

/** Buffers to read one input's chunks into: fresh ones, or the pool's two in turn. */
export interface ChunkSource {
  /** The most bytes a chunk holds. */
  readonly chunkBytes: number;
  /** Whether a chunk's memory is reused by the read after next (see above). */
  readonly reuses: boolean;
  /** A buffer of `length` bytes (at most chunkBytes) to read the next chunk into. */
  take(length: number): Buffer;
  /** Fresh buffers from now on (a gzip stream may hold on to what it was given). */
  stopReusing(): void;
  /** Gives the pool back; chunks read with it are not to be used after. Once is enough; more is harmless. */
  release(): void;
}

class Pool {
  private readonly buffers: Buffer[] = [];
  held = false;

  constructor(readonly chunkBytes: number) {}

  /** Buffer `index` (0 or 1), at least `length` bytes: made, or made larger, as the reads need (a small file's read costs no 1 MB). */
  buffer(index: number, length: number): Buffer {
    const buffer = this.buffers[index];
    if (buffer !== undefined && buffer.length >= length) return buffer;
    // A chunk still read from the old buffer keeps it: it is let go, not overwritten.
    const larger = Buffer.allocUnsafe(Math.min(this.chunkBytes, Math.max(length, 2 * (buffer?.length ?? 0))));
    this.buffers[index] = larger;
    return larger;
  }
}

class PooledSource implements ChunkSource {
  private next = 0;
  private reusing = true;
  private released = false;

  constructor(private readonly pool: Pool) {
    pool.held = true;
  }

  get chunkBytes(): number {
    return this.pool.chunkBytes;
  }

  get reuses(): boolean {
    return this.reusing && !this.released;
  }

  take(length: number): Buffer {
    if (!this.reuses || length > this.chunkBytes) return Buffer.allocUnsafe(length);
    const buffer = this.pool.buffer(this.next, length);
    this.next ^= 1;
    return buffer.subarray(0, length);
  }

  stopReusing(): void {
    // What was read may still be in use: the pool stays held, unused, until release.
    this.reusing = false;
  }

  release(): void {
    if (this.released) return;
    this.released = true;
    this.pool.held = false;
  }
}

class FreshSource implements ChunkSource {
  readonly reuses = false;
  constructor(readonly chunkBytes: number) {}
  take(length: number): Buffer {
    return Buffer.allocUnsafe(length);
  }
  stopReusing(): void {}
  release(): void {}
}

const pools = new Map<number, Pool>();

/** The pool of `chunkBytes` buffers when no input holds it, else fresh buffers. Release it when done. */
export function chunkSource(chunkBytes: number): ChunkSource {
  let pool = pools.get(chunkBytes);
  if (pool === undefined) {
    pool = new Pool(chunkBytes);
    pools.set(chunkBytes, pool);
  }
  return pool.held ? new FreshSource(chunkBytes) : new PooledSource(pool);
}
