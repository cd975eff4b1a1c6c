/**
 * A plain native JSONL file read in byte ranges, each by its own thread (sweep --workers on one big file:
 * src/cli/actions/sweepSplit.ts). A range [from, to) holds the runs whose header line starts in it: a
 * header line is a line (at byte 0 or after a newline) that begins `{"type":"header"`, as loopcost writes
 * them (a file where a range's header records are not as many as its header lines is given up by the
 * range's reader: src/import/nativeRange.ts). What a range's reader needs of the bytes before it (its
 * lines and header lines) is counted here by the thread that reads the range, not up front.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { unreadable } from './inputErrors.js';

import type { ByteRange } from './byteRangeTypes.js';

export type { ByteRange, CountedStart, RangeRead } from './byteRangeTypes.js';

/** How a header line begins (see above). */
export const HEADER_LINE_START = '{"type":"header"';
const HEADER_AT_LINE = Buffer.from(`\n${HEADER_LINE_START}`);
const NEWLINE = 0x0a;
const BLOCK_BYTES = 1 << 20;

/** A plain file open for reads at given offsets. */
export class PositionedFile {
  private readonly fd: number;
  private readonly block = Buffer.allocUnsafe(BLOCK_BYTES + HEADER_AT_LINE.length);

  constructor(
    private readonly path: string,
    readonly sizeBytes: number,
  ) {
    try {
      this.fd = openSync(path, 'r');
    } catch (error) {
      throw unreadable(path, error);
    }
  }

  /** Up to `bytes` (at most a block and a header's start) from `at`, fewer only at the end; the view is reused by the next read. */
  read(at: number, bytes: number): Buffer {
    const length = Math.max(0, Math.min(bytes, this.block.length, this.sizeBytes - at));
    let got = 0;
    try {
      for (let n = -1; got < length && n !== 0; got += n) n = readSync(this.fd, this.block, got, length - got, at + got);
    } catch (error) {
      throw unreadable(this.path, error);
    }
    return this.block.subarray(0, got);
  }

  close(): void {
    closeSync(this.fd);
  }

  /** The first header line that starts in [from, to), or undefined. */
  headerLineIn(range: ByteRange): number | undefined {
    if (range.from === 0 && range.to > 0 && this.startsWithHeader()) return 0;
    // A line start p is the byte after a newline at p − 1: the newlines in [from − 1, to − 1).
    for (let at = Math.max(range.from - 1, 0); at < range.to - 1 && at < this.sizeBytes; at += BLOCK_BYTES) {
      const found = this.read(at, BLOCK_BYTES + HEADER_AT_LINE.length - 1).indexOf(HEADER_AT_LINE);
      if (found >= 0 && found < BLOCK_BYTES) return at + found < range.to - 1 ? at + found + 1 : undefined;
    }
    return undefined;
  }

  /** The newlines in [from, to), and the header lines that start in it. */
  countsIn(range: ByteRange): { lines: number; headers: number } {
    let lines = 0;
    let headers = range.from === 0 && range.to > 0 && this.startsWithHeader() ? 1 : 0;
    for (let at = Math.max(range.from - 1, 0); at < range.to; at += BLOCK_BYTES) {
      const bytes = this.read(at, BLOCK_BYTES + HEADER_AT_LINE.length - 1);
      const linesEnd = Math.min(BLOCK_BYTES, range.to - at);
      for (let i = bytes.indexOf(NEWLINE, Math.max(range.from - at, 0)); i >= 0 && i < linesEnd; i = bytes.indexOf(NEWLINE, i + 1)) lines += 1;
      // A header line starting in [from, to): its newline in [from − 1, to − 1).
      const headersEnd = Math.min(BLOCK_BYTES, range.to - 1 - at);
      for (let i = bytes.indexOf(HEADER_AT_LINE); i >= 0 && i < headersEnd; i = bytes.indexOf(HEADER_AT_LINE, i + 1)) headers += 1;
    }
    return { lines, headers };
  }

  private startsWithHeader(): boolean {
    return this.read(0, HEADER_LINE_START.length).toString('latin1') === HEADER_LINE_START;
  }

  /** The bytes of [from, to), a block at a time (each view reused by the next). */
  *blocks(range: ByteRange): Generator<Buffer> {
    for (let at = range.from; at < range.to; at += BLOCK_BYTES) {
      const bytes = this.read(at, Math.min(BLOCK_BYTES, range.to - at));
      if (bytes.length === 0) return;
      yield bytes;
    }
  }

  /** The line that starts at `at` (up to its newline or the end; at most `maxBytes`, then cut). */
  lineAt(at: number, maxBytes: number): Buffer {
    const pieces: Buffer[] = [];
    let length = 0;
    for (let from = at; from < this.sizeBytes && length <= maxBytes; ) {
      const bytes = this.read(from, BLOCK_BYTES);
      const end = bytes.indexOf(NEWLINE);
      pieces.push(Buffer.from(end < 0 ? bytes : bytes.subarray(0, end)));
      length += pieces.at(-1)!.length;
      if (end >= 0 || bytes.length === 0) break;
      from += bytes.length;
    }
    return Buffer.concat(pieces).subarray(0, maxBytes + 1);
  }
}
