/**
 * `--workers N` on one big file: a plain native JSONL file (no gzip, no pipe) large enough is cut into
 * byte ranges, each a unit of the queue (sweepUnits.ts) that any thread may take; a range holds the runs
 * whose header line starts in it, read as the whole file's reader would read them (src/import/nativeRange.ts).
 * Not with one thread (nothing to share), nor with --cache-dir (its entries are whole files), nor when a
 * file is too large to read at all (the whole file's reader says so). With a target completion a range's
 * runs are kept, as a whole file's, for the second pass (the halved step caps: sweepUnits.ts), each
 * thread's over the runs of the ranges it read: ranges hold distinct runs, so the tallies add up as whole
 * files' do.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import type { ByteRange } from '../../io/byteRange.js';
import { isGzip } from '../../io/inputErrors.js';
import { BYTES_PER_MB, readLimits } from '../../io/limits.js';
import { lineFormat } from '../../import/formats.js';
import { readOptionsFromFlags } from '../parseFlags.js';
import type { SweepFlags } from './sweepWork.js';

/** Sizes of the split: a file of fewer bytes is read whole, a range has at least `minUnitBytes`. Tests make them small (no flag). */
export const splitSizes = { minFileBytes: 8 * BYTES_PER_MB, minUnitBytes: 2 * BYTES_PER_MB };

/** Ranges the files of this process's sweeps were cut into, counted (what a test reads to see a file was split). */
export const splitCount = { ranges: 0 };

/** Ranges per thread: a thread that finishes early takes more. */
const RANGES_PER_THREAD = 4;

/** How much of the start tells the format (as openInput's head). */
const HEAD_BYTES = 64 * 1024;

/** Whether the file at `path` is a plain native JSONL file by its first line, as reading it would find. */
function isPlainNative(path: string): boolean {
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    const head = Buffer.alloc(HEAD_BYTES);
    const bytes = head.subarray(0, readSync(fd, head, 0, HEAD_BYTES, 0));
    return !isGzip(bytes) && lineFormat(new TextDecoder('utf-8').decode(bytes)) === 'native';
  } catch {
    return false; // read whole: its reader says what is wrong
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** [from, to) ranges of about size / (threads × RANGES_PER_THREAD) bytes each, at least `minUnitBytes`. */
export function byteRanges(sizeBytes: number, threads: number): ByteRange[] {
  const count = Math.max(1, Math.min(threads * RANGES_PER_THREAD, Math.floor(sizeBytes / splitSizes.minUnitBytes)));
  return Array.from({ length: count }, (_, k) => ({ from: Math.floor((k * sizeBytes) / count), to: Math.floor(((k + 1) * sizeBytes) / count) }));
}

/**
 * Each file's byte ranges, or undefined where it is read whole: every file with one thread or
 * --cache-dir, a file named in `whole` (found bad when split: sweepShares.ts), or too small or not plain
 * native JSONL.
 */
export function fileRanges(args: { files: readonly string[]; sizes: readonly number[]; opts: SweepFlags & { cacheDir?: string }; threads: number; whole: ReadonlySet<string> }): (ByteRange[] | undefined)[] {
  const { files, sizes, opts, threads } = args;
  if (threads <= 1 || opts.cacheDir !== undefined) return files.map(() => undefined);
  const maxBytes = readLimits(readOptionsFromFlags(opts).limits).maxInputBytes;
  return files.map((file, k) => {
    const size = sizes[k]!;
    if (args.whole.has(file) || size < splitSizes.minFileBytes || size > maxBytes || !isPlainNative(file)) return undefined;
    const ranges = byteRanges(size, threads);
    if (ranges.length <= 1) return undefined;
    splitCount.ranges += ranges.length;
    return ranges;
  });
}
