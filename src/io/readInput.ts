import { closeSync, openSync, readFileSync, readSync, statSync } from 'node:fs';
import { UserError } from '../errors.js';
import { nodeZlib } from './builtins.js';
import { badGzip, gzipInGzip, isGzip, recordTooLarge, unreadable } from './inputErrors.js';
import { readLimits, type ReadLimits } from './limits.js';
import { kindOf, statInput } from './openInput.js';
import { decodeDocument } from './readLines.js';

/**
 * Reads a small companion file (a SWE-agent `args.yaml`) whole and at once, with the rules of every
 * input: a regular file (no device, no pipe), at most `maxLineBytes` (decompressed, if gzip), UTF-8 text.
 */
export function readSmallTextFileSync(path: string, limits: Partial<ReadLimits> = {}): string {
  const resolved = readLimits(limits);
  const stats = statInput(path);
  if (!stats.isFile()) throw new UserError({ file: path, code: 'not_a_file', message: `is ${kindOf(stats)}, not a regular file`, hint: 'pass a regular file' });
  if (stats.size > resolved.maxLineBytes) throw recordTooLarge(path, undefined, resolved.maxLineBytes);
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (error) {
    throw unreadable(path, error);
  }
  if (isGzip(bytes)) {
    try {
      bytes = nodeZlib().gunzipSync(bytes, { maxOutputLength: resolved.maxLineBytes });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE' || error instanceof RangeError) throw recordTooLarge(path, undefined, resolved.maxLineBytes);
      throw badGzip(path, error);
    }
    if (isGzip(bytes)) throw gzipInGzip(path);
  }
  return decodeDocument(bytes, path, resolved);
}

/**
 * The start of a regular file's text (at most about `bytes` bytes, decompressed if gzip), to tell what it
 * is without reading it all. Undefined for anything else (a pipe is never read ahead: its bytes would be
 * lost to the reader) and when the start cannot be read or decoded: the reader then says why.
 */
export function peekRegularFile(path: string, bytes = 64 * 1024): string | undefined {
  let head: Buffer;
  try {
    if (!statSync(path).isFile()) return undefined;
    const fd = openSync(path, 'r');
    try {
      const buffer = Buffer.allocUnsafe(bytes);
      head = buffer.subarray(0, readSync(fd, buffer, 0, bytes, 0));
    } finally {
      closeSync(fd);
    }
    // Z_SYNC_FLUSH: decompress what this prefix holds instead of failing on the missing rest.
    if (isGzip(head)) head = nodeZlib().gunzipSync(head, { finishFlush: nodeZlib().constants.Z_SYNC_FLUSH }).subarray(0, bytes);
    return new TextDecoder('utf-8').decode(head);
  } catch {
    return undefined;
  }
}
