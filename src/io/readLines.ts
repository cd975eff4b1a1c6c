/**
 * Line-by-line reading of a text file (plain or gzip), so that a line-oriented format (native JSONL) is
 * parsed at constant memory however large the file, and never meets V8's ~512 MB string limit.
 *
 * Lines are cut at the newline byte and decoded one at a time, so a UTF-8 character is never split.
 * Plain files are read in chunks. Node has no synchronous streaming gunzip, so a gzip file is
 * decompressed into one buffer (outside the JS heap) and cut into lines from there.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { constants as zlibConstants, gunzipSync } from 'node:zlib';
import { UserError } from '../errors.js';
import { badEncoding, binaryFile, gunzipOrFail, isGzip, unreadable } from './inputErrors.js';

export interface SourceLine {
  /** 1-based. */
  line: number;
  text: string;
}

const CHUNK_BYTES = 1 << 20;
const NEWLINE = 0x0a;

function openInput(path: string): number {
  try {
    return openSync(path, 'r');
  } catch (error) {
    throw unreadable(path, error);
  }
}

/** The raw byte chunks of a file, gzip decompressed (recognised by its magic bytes, whatever the name). */
function* chunksOf(path: string, chunkBytes: number): Generator<Buffer> {
  const fd = openInput(path);
  try {
    // The first read takes at least the two bytes that tell gzip.
    const buffer = Buffer.allocUnsafe(Math.max(chunkBytes, 2));
    let read = readSync(fd, buffer, 0, buffer.length, null);
    if (isGzip(buffer.subarray(0, read))) {
      const compressed: Buffer[] = [Buffer.from(buffer.subarray(0, read))];
      while ((read = readSync(fd, buffer, 0, chunkBytes, null)) > 0) compressed.push(Buffer.from(buffer.subarray(0, read)));
      yield gunzipOrFail(Buffer.concat(compressed), path);
      return;
    }
    while (read > 0) {
      yield buffer.subarray(0, read);
      read = readSync(fd, buffer, 0, chunkBytes, null);
    }
  } finally {
    closeSync(fd);
  }
}

const decoder = new TextDecoder('utf-8', { fatal: true });

function decodeLine(bytes: Uint8Array, path: string, line: number): string {
  if (bytes.includes(0)) throw binaryFile(path, line);
  try {
    return decoder.decode(bytes);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ERR_STRING_TOO_LONG') {
      throw new UserError({ file: path, line, code: 'too_large', message: `is a line of ${bytes.length} bytes, too long for one string`, hint: 'each JSONL line must be one record' });
    }
    throw badEncoding(path, line);
  }
}

/**
 * Every line of the file, newline removed (a `\r` before it is kept: callers trim). `chunkBytes` is how
 * much is read at a time (tests make it tiny to cut lines and characters across reads).
 */
export function* readLines(path: string, chunkBytes = CHUNK_BYTES): Generator<SourceLine> {
  let pending: Buffer[] = [];
  let line = 0;
  for (const chunk of chunksOf(path, chunkBytes)) {
    let start = 0;
    let end: number;
    while ((end = chunk.indexOf(NEWLINE, start)) >= 0) {
      const piece = chunk.subarray(start, end);
      const bytes = pending.length === 0 ? piece : Buffer.concat([...pending, piece]);
      pending = [];
      yield { line: ++line, text: decodeLine(bytes, path, line) };
      start = end + 1;
    }
    // The chunk buffer is reused for the next read: keep a copy of the unfinished line.
    if (start < chunk.length) pending.push(Buffer.from(chunk.subarray(start)));
  }
  if (pending.length > 0) yield { line: ++line, text: decodeLine(Buffer.concat(pending), path, line) };
}

/**
 * The start of a file's text (at most about `bytes` bytes, decompressed if gzip), to tell its format
 * without reading it all. Undefined when the start cannot be decoded: the whole-file reader then says why.
 */
export function peekText(path: string, bytes = 64 * 1024): string | undefined {
  const fd = openInput(path);
  let head: Buffer;
  try {
    const buffer = Buffer.allocUnsafe(bytes);
    head = buffer.subarray(0, readSync(fd, buffer, 0, bytes, 0));
  } finally {
    closeSync(fd);
  }
  try {
    // Z_SYNC_FLUSH: decompress what this prefix holds instead of failing on the missing rest.
    if (isGzip(head)) head = gunzipSync(head, { finishFlush: zlibConstants.Z_SYNC_FLUSH }).subarray(0, bytes);
    return new TextDecoder('utf-8').decode(head);
  } catch {
    return undefined;
  }
}
