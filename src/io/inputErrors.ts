/** The user errors of reading an input file, one wording for every reader. */
import { gunzipSync } from 'node:zlib';
import { UserError } from '../errors.js';

export function unreadable(path: string, error: unknown): UserError {
  const code = (error as NodeJS.ErrnoException).code;
  return new UserError({
    file: path,
    code: 'unreadable',
    message: code === 'ENOENT' ? 'no such file' : `cannot be read (${code ?? (error as Error).message})`,
    hint: 'check the path',
  });
}

export function binaryFile(path: string, line?: number): UserError {
  return new UserError({ file: path, ...(line === undefined ? {} : { line }), code: 'binary', message: 'is a binary file, not a trace', hint: 'pass JSONL, JSON, YAML cassettes or their .gz' });
}

export function badEncoding(path: string, line?: number): UserError {
  return new UserError({ file: path, ...(line === undefined ? {} : { line }), code: 'bad_encoding', message: 'is not valid UTF-8 text', hint: 'traces must be UTF-8' });
}

export function isGzip(head: Uint8Array): boolean {
  return head[0] === 0x1f && head[1] === 0x8b;
}

/** Decompresses a whole gzip file; a damaged stream, or one too large for a buffer, is a user error. */
export function gunzipOrFail(bytes: Buffer, path: string): Buffer {
  try {
    return gunzipSync(bytes);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE' || error instanceof RangeError) {
      throw new UserError({
        file: path,
        code: 'too_large',
        message: 'decompresses to more than one buffer can hold',
        hint: 'decompress it and pass the plain file (native JSONL is read line by line)',
      });
    }
    throw new UserError({
      file: path,
      code: 'bad_gzip',
      message: `is a damaged or truncated gzip file (${(error as Error).message})`,
      hint: 'download or copy the file again',
    });
  }
}
