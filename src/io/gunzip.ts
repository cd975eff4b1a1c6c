/**
 * Gzip inputs (src/io/openInput.ts): inflated as a stream, chunk by chunk, or — a small file that
 * arrived whole in one read — in one call, into one buffer.
 */
import { Readable, pipeline } from 'node:stream';
import { UserError } from '../errors.js';
import { nodeZlib } from './builtins.js';
import { badGzip, inputTooLarge } from './inputErrors.js';
import type { ReadLimits } from './limits.js';

/** A gzip file read whole in its first chunk is inflated at once when it inflates to at most this much. */
const WHOLE_INFLATE_BYTES = 16 << 20;

/** The chunks of a gzip input, decompressed as they come; at most `maxInputBytes` decompressed in all. */
export async function* gunzipped(raw: AsyncGenerator<Buffer>, label: string, limits: ReadLimits): AsyncGenerator<Buffer> {
  const source = Readable.from(raw, { objectMode: false });
  // Output in large pieces: the default 16 KB makes an inflated document dozens of chunks per megabyte, each an await.
  const gunzip = nodeZlib().createGunzip({ chunkSize: 256 * 1024 });
  pipeline(source, gunzip, () => undefined);
  let total = 0;
  try {
    for await (const chunk of gunzip as AsyncIterable<Buffer>) {
      total += chunk.length;
      if (total > limits.maxInputBytes) throw inputTooLarge(label, limits.maxInputBytes, true);
      yield chunk;
    }
  } catch (error) {
    if (error instanceof UserError) throw error;
    throw badGzip(label, error);
  } finally {
    source.destroy();
    gunzip.destroy();
  }
}

/**
 * A small gzip file that arrived whole in one read, inflated in one call (a stream costs as much again
 * for a trajectory of a few hundred KB). Undefined — stream it as any gzip input — when it inflates past
 * WHOLE_INFLATE_BYTES (or the input limit) or is damaged: the stream then says where, as it always has.
 */
export function inflatedAtOnce(compressed: Buffer, limits: ReadLimits): Buffer | undefined {
  const maxBytes = Math.min(WHOLE_INFLATE_BYTES, limits.maxInputBytes);
  try {
    return nodeZlib().gunzipSync(compressed, { maxOutputLength: maxBytes, chunkSize: outputPieceBytes(compressed, maxBytes) });
  } catch {
    return undefined;
  }
}

/**
 * The size of zlib's output pieces for a whole gzip file: its trailer's size of the inflated data (the
 * last four bytes, modulo 2^32) plus one byte, so the data inflates into one buffer instead of 16 KB
 * pieces joined at the end (a byte to spare: a full piece makes zlib start another). A size past
 * `maxBytes` (the inflate fails anyway) or a damaged trailer (several members, a lie) only costs pieces.
 */
function outputPieceBytes(compressed: Buffer, maxBytes: number): number {
  const DEFAULT_PIECE = 16 * 1024;
  if (compressed.length < 18) return DEFAULT_PIECE;
  const size = compressed.readUInt32LE(compressed.length - 4);
  return size < maxBytes ? Math.max(size + 1, DEFAULT_PIECE) : DEFAULT_PIECE;
}
