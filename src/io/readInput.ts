import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { UserError } from '../errors.js';

const GZIP_MAGIC = [0x1f, 0x8b];

/**
 * Reads a trace file as text. Gzip is recognised by its magic bytes (whatever the name says); a
 * binary file, a broken gzip stream or invalid UTF-8 is a user error naming the file.
 */
export function readTextInput(path: string): string {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new UserError({
      file: path,
      code: 'unreadable',
      message: code === 'ENOENT' ? 'no such file' : `cannot be read (${code ?? (error as Error).message})`,
      hint: 'check the path',
    });
  }
  if (bytes[0] === GZIP_MAGIC[0] && bytes[1] === GZIP_MAGIC[1]) {
    try {
      bytes = gunzipSync(bytes);
    } catch (error) {
      throw new UserError({
        file: path,
        code: 'bad_gzip',
        message: `is a damaged or truncated gzip file (${(error as Error).message})`,
        hint: 'download or copy the file again',
      });
    }
  }
  if (bytes.includes(0)) {
    throw new UserError({
      file: path,
      code: 'binary',
      message: 'is a binary file, not a trace',
      hint: 'pass JSONL, JSON, YAML cassettes or their .gz',
    });
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new UserError({ file: path, code: 'bad_encoding', message: 'is not valid UTF-8 text', hint: 'traces must be UTF-8' });
  }
}
