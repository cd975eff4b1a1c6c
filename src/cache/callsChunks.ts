/**
 * The calls file of a compiled-trace entry (`<key>.calls`, compiledEntry.ts): the runs' calls as JSON,
 * one run after another, in chunks of about CALLS_CHUNK_BYTES bytes (UTF-8), each deflated (level 1) with
 * the CRC-32 of its deflated bytes (format 12; a SHA-1 before: CRC-32 is ~3× faster, and damage, not an
 * adversary, is what it guards against). A run names its chunk and where its text is in the chunk
 * inflated. One deflate per chunk instead of per run: a deflate call costs ~50 µs before its first byte, as much as a small run's
 * calls take to deflate (8,000 runs of ~10 calls: 0.45 s per run, 0.12 s per chunk), and the chunks are
 * deflated on the thread pool while the runs are read and replayed.
 *
 * Read back, a chunk's CRC-32 is checked when the first run in it is served (compiledCache.ts: a chunk that
 * fails sends the command to the input, as a block that fails does), and a chunk is inflated only when a
 * run's calls are asked for (the compiled replay, what-ifs and sweeps never ask); the last chunk inflated
 * is kept, as runs are asked for in order.
 */
import { writeSync } from 'node:fs';
import { UserError } from '../errors.js';
import { nodeZlib } from '../io/builtins.js';
import type { CallRecord } from '../trace/types.js';

export const CALLS_CHUNK_BYTES = 2 ** 20;

/** A run's calls: its chunk, and the first byte and length of their JSON text (UTF-8) in the chunk inflated. */
export type CallsAt = [chunk: number, at: number, bytes: number];

/** A chunk: its offset and length in the calls file, and the CRC-32 of those bytes. */
export type CallsChunk = [offset: number, bytes: number, crc32: number];

/** The CRC-32 of `bytes` (zlib's; the .lcc's blocks and head use it too, compiledEntry.ts). */
export const crc32Of = (bytes: Uint8Array): number => nodeZlib().crc32(bytes);

/** A chunk handed to the thread pool to deflate: its bytes once deflated, or the failure. */
interface Deflating {
  done: Promise<void>;
  bytes?: Buffer;
  error?: unknown;
}

/** Chunks deflating at once, at most: a writer that outruns the thread pool waits (writtenAtMost). */
export const CALLS_CHUNKS_IN_FLIGHT = 4;

/**
 * Writes runs' calls to `fd` chunk by chunk. A full chunk is deflated on Node's thread pool (zlib's
 * asynchronous deflate), not on the thread reading the runs, and written in order once deflated
 * (`writeDeflated`, `writtenAtMost`, `written`): the file is the same whatever order the pool finishes in.
 */
export class CallsWriter {
  readonly chunks: CallsChunk[] = [];
  /** The chunk being filled: each run's text is copied in as it is added (so no run's text outlives its add). */
  private chunk = Buffer.allocUnsafe(CALLS_CHUNK_BYTES);
  private filled = 0;
  private sealed = 0;
  private readonly deflating: Deflating[] = [];
  /** Bytes written to the file so far. */
  bytes = 0;

  constructor(private readonly fd: number) {}

  add(calls: readonly CallRecord[]): CallsAt {
    const text = JSON.stringify(calls);
    const most = 3 * text.length;
    if (this.filled + most > this.chunk.length) {
      this.seal();
      // A run larger than a chunk: a chunk of its own.
      if (most > this.chunk.length) this.chunk = Buffer.allocUnsafe(most);
    }
    const length = this.chunk.write(text, this.filled, 'utf8');
    const at: CallsAt = [this.sealed, this.filled, length];
    this.filled += length;
    if (this.filled >= CALLS_CHUNK_BYTES) this.seal();
    return at;
  }

  /** Hands the chunk being filled to the pool, if it holds anything, and starts another. */
  seal(): void {
    if (this.filled === 0) return;
    const bytes = this.chunk.subarray(0, this.filled);
    this.chunk = Buffer.allocUnsafe(CALLS_CHUNK_BYTES);
    this.filled = 0;
    this.sealed += 1;
    const chunk: Deflating = { done: Promise.resolve() };
    chunk.done = new Promise((settled) =>
      nodeZlib().deflateRaw(bytes, { level: 1 }, (error, deflated) => {
        if (error) chunk.error = error;
        else chunk.bytes = deflated;
        settled();
      }),
    );
    this.deflating.push(chunk);
  }

  /** Writes the chunks deflated so far, in order, up to the first still deflating (throws a deflate's failure). */
  writeDeflated(): void {
    while (this.deflating.length > 0) {
      const chunk = this.deflating[0]!;
      if (chunk.error !== undefined) throw chunk.error;
      if (chunk.bytes === undefined) return;
      this.deflating.shift();
      writeSync(this.fd, chunk.bytes);
      this.chunks.push([this.bytes, chunk.bytes.length, crc32Of(chunk.bytes)]);
      this.bytes += chunk.bytes.length;
    }
  }

  /** Waits until at most `count` chunks are in flight, writing those deflated. */
  async writtenAtMost(count: number): Promise<void> {
    this.writeDeflated();
    while (this.deflating.length > count) {
      await this.deflating[0]!.done;
      this.writeDeflated();
    }
  }

  /** Seals the last chunk and writes every chunk. */
  async written(): Promise<void> {
    this.seal();
    await this.writtenAtMost(0);
  }
}

/** Runs' calls from the calls file's bytes (read with the entry), each chunk checked against its CRC-32 once, before it is first served or inflated. */
export class CallsReader {
  private last: { chunk: number; bytes: Buffer } | undefined;
  private readonly checked = new Set<number>();

  constructor(
    private readonly bytes: Buffer,
    private readonly chunks: readonly CallsChunk[],
    private readonly file: string,
  ) {}

  /** Checks the chunk of a run's calls (`at`) against its CRC-32 (once per chunk); throws when it is missing or fails. */
  check([chunk]: CallsAt): void {
    if (!this.checked.has(chunk)) this.deflated(chunk);
  }

  /**
   * A run's calls; throws a UserError naming the calls file when it is damaged — a chunk failing its
   * CRC-32, or a run's place in it (from the entry's head) that is out of the chunk or does not hold a JSON
   * list. The compiled cache checks a run's chunk before serving the run (check), so only an entry whose
   * chunk passed its CRC-32 yet does not inflate to what the head says (written wrong) can fail here,
   * after the run was handed over, when the input can no longer be read in its place.
   */
  callsAt([chunk, at, length]: CallsAt): CallRecord[] {
    const bytes = this.chunkBytes(chunk);
    if (!(Number.isSafeInteger(at) && Number.isSafeInteger(length) && at >= 0 && length >= 0 && at + length <= bytes.length)) throw this.damaged();
    let calls: unknown;
    try {
      calls = JSON.parse(bytes.toString('utf8', at, at + length));
    } catch {
      throw this.damaged();
    }
    if (!Array.isArray(calls)) throw this.damaged();
    return calls as CallRecord[];
  }

  /** A chunk's deflated bytes, checked against its CRC-32 the first time. */
  private deflated(chunk: number): Buffer {
    const found = this.chunks[chunk];
    if (found === undefined) throw this.damaged();
    const [offset, length, crc32] = found;
    const deflated = this.bytes.subarray(offset, offset + length);
    if (!this.checked.has(chunk)) {
      if (deflated.length !== length || crc32Of(deflated) !== crc32) throw this.damaged();
      this.checked.add(chunk);
    }
    return deflated;
  }

  private chunkBytes(chunk: number): Buffer {
    if (this.last?.chunk === chunk) return this.last.bytes;
    const deflated = this.deflated(chunk);
    let bytes: Buffer;
    try {
      bytes = nodeZlib().inflateRawSync(deflated);
    } catch {
      throw this.damaged();
    }
    this.last = { chunk, bytes };
    return bytes;
  }

  private damaged(): UserError {
    return new UserError({
      file: this.file,
      code: 'damaged_cache',
      message: 'cache file is damaged: a run\'s calls cannot be read from it',
      hint: 'delete this file (or the whole --cache-dir): its entry is rebuilt from the input on the next run',
    });
  }
}
