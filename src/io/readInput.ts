import { readFileSync } from 'node:fs';
import { UserError } from '../errors.js';
import { badEncoding, binaryFile, gunzipOrFail, isGzip, unreadable } from './inputErrors.js';

/**
 * Reads a whole trace file as text (for formats that are one document). Gzip is recognised by its magic
 * bytes (whatever the name says); a binary file, a broken gzip stream, invalid UTF-8 or a text too long
 * for one string is a user error naming the file.
 */
export function readTextInput(path: string): string {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (error) {
    throw unreadable(path, error);
  }
  if (isGzip(bytes)) bytes = gunzipOrFail(bytes, path);
  if (bytes.includes(0)) throw binaryFile(path);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ERR_STRING_TOO_LONG') {
      throw new UserError({
        file: path,
        code: 'too_large',
        message: `is too large to read as one document (${bytes.length} bytes; a JavaScript string holds about 512 MB)`,
        hint: 'split it into smaller files, or convert it to native JSONL, which is read line by line',
      });
    }
    throw badEncoding(path);
  }
}
