import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { UserError } from '../errors.js';
import { badGzip, isGzip, recordTooLarge, unreadable } from './inputErrors.js';
import { readLimits, type ReadLimits } from './limits.js';
import { inputKind } from './openInput.js';
import { decodeDocument } from './readLines.js';

/**
 * Reads a small companion file (a SWE-agent `args.yaml`) whole and at once, with the rules of every
 * input: a regular file (no device, no pipe), at most `maxLineBytes` (decompressed, if gzip), UTF-8 text.
 */
export function readSmallTextFileSync(path: string, limits: Partial<ReadLimits> = {}): string {
  const resolved = readLimits(limits);
  const kind = inputKind(path);
  if (kind.kind !== 'file') {
    throw new UserError({ file: path, code: 'not_a_file', message: 'is not a regular file', hint: 'pass a regular file' });
  }
  if (kind.size > resolved.maxLineBytes) throw recordTooLarge(path, undefined, resolved.maxLineBytes);
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (error) {
    throw unreadable(path, error);
  }
  if (isGzip(bytes)) {
    try {
      bytes = gunzipSync(bytes, { maxOutputLength: resolved.maxLineBytes });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE' || error instanceof RangeError) throw recordTooLarge(path, undefined, resolved.maxLineBytes);
      throw badGzip(path, error);
    }
  }
  return decodeDocument(bytes, path, resolved);
}
