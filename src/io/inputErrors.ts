/** The user errors of reading an input file, one wording for every reader. */
import { statSync, type Stats } from 'node:fs';
import { UserError, type InputIssue } from '../errors.js';
import { danglingLinkHint, danglingLinkOn, danglingLinkWords } from './danglingLink.js';
import { fileErrorWords, LINK_LOOP_HINT } from './fileErrorWords.js';
import { megabytes } from './limits.js';
import { withBackslashHint } from './backslashHint.js';

/**
 * A path that cannot be read, saying why; one that is not there is `no such file or directory` wherever it is
 * named (a stat, an open, a directory's walk), and one that goes through a file (`runs.jsonl/x`, ENOTDIR)
 * says which: `runs.jsonl is a file, not a directory` (`is a file, …` for `runs.jsonl/` itself); one that is,
 * or goes through, a symbolic link to nothing says so (`is a symbolic link to a missing target (x)`: danglingLink.ts).
 */
export function unreadable(path: string, error: unknown): UserError {
  const code = (error as NodeJS.ErrnoException).code;
  const dangling = code === 'ENOENT' ? danglingLinkOn(path) : undefined;
  if (dangling !== undefined) return new UserError({ file: path, code: 'not_found', message: danglingLinkWords(dangling, path), hint: danglingLinkHint() });
  if (code === 'ENOENT' || code === 'ENOTDIR') {
    const file = code === 'ENOTDIR' ? fileOnTheWay(path) : undefined;
    const message = file === undefined ? 'no such file or directory' : `${file === path.replace(/\/+$/, '') ? '' : `${file} `}is a file, not a directory`;
    return new UserError({ file: path, code: 'not_found', message, hint: withBackslashHint('check the path', path) });
  }
  const message = code === 'EISDIR' ? 'is a directory' : `cannot be read: ${fileErrorWords(error)}`;
  return new UserError({ file: path, code: 'unreadable', message, hint: code === 'ELOOP' ? LINK_LOOP_HINT : 'check the path and its permissions' });
}

/**
 * A directory met inside a directory given that cannot be listed (a root-owned folder under
 * ~/.claude/projects): a bad input like a file that cannot be read, its trace files unknown.
 */
export function unreadableDirectory(path: string, error: unknown): InputIssue {
  const code = (error as NodeJS.ErrnoException).code;
  return {
    file: path,
    code: 'unreadable',
    message: `is a directory that cannot be read: ${fileErrorWords(error)}; the trace files in it are not read`,
    hint: code === 'ELOOP' ? LINK_LOOP_HINT : 'to read its traces, give it read permission (chmod +rx); --skip-bad goes on without it',
  };
}

/** The first thing on `path`'s way that is there and no directory (`runs.jsonl` of `runs.jsonl/x/y`, or of `runs.jsonl/`). */
function fileOnTheWay(path: string): string | undefined {
  const parts = path.split('/');
  for (let end = 1; end <= parts.length; end++) {
    const prefix = parts.slice(0, end).join('/');
    if (prefix === '' || prefix === path) continue;
    let stats: Stats;
    try {
      stats = statSync(prefix);
    } catch {
      return undefined;
    }
    if (!stats.isDirectory()) return prefix;
  }
  return undefined;
}

export function binaryFile(path: string, line?: number): UserError {
  return new UserError({ file: path, ...(line === undefined ? {} : { line }), code: 'binary', message: 'is a binary file, not a trace', hint: 'pass JSONL, JSON, YAML cassettes or their .gz' });
}

/**
 * The encoding the first bytes of a file show when it is UTF-16 or UTF-32 text (what Windows PowerShell 5's
 * `>` writes): its byte-order mark, or for UTF-16 without one, ASCII characters each followed (or, big-endian,
 * preceded) by a zero byte. Undefined for anything else (UTF-8, with or without its mark, included).
 */
export function wideTextEncoding(head: Uint8Array): 'UTF-16' | 'UTF-32' | undefined {
  const [a, b, c, d] = [head[0], head[1], head[2], head[3]];
  if (a === 0xff && b === 0xfe) return c === 0 && d === 0 ? 'UTF-32' : 'UTF-16';
  if (a === 0xfe && b === 0xff) return 'UTF-16';
  if (a === 0 && b === 0 && c === 0xfe && d === 0xff) return 'UTF-32';
  const ascii = (x: number | undefined): boolean => x !== undefined && x > 0 && x < 0x80;
  if ((ascii(a) && b === 0 && ascii(c) && d === 0) || (a === 0 && ascii(b) && c === 0 && ascii(d))) return 'UTF-16';
  return undefined;
}

/** A file of UTF-16 or UTF-32 text (wideTextEncoding), which no reader takes: every input is UTF-8. */
export function wideText(path: string, encoding: 'UTF-16' | 'UTF-32'): UserError {
  return new UserError({
    file: path,
    code: 'bad_encoding',
    message: `is ${encoding} text: save it as UTF-8`,
    hint: `loopcost reads UTF-8 only: convert it (\`iconv -f ${encoding} -t UTF-8\`), or write it as UTF-8 (in Windows PowerShell 5, \`| Out-File -Encoding utf8\` instead of \`>\`)`,
  });
}

/** Refuses `bytes`, the start of `path`'s (decompressed) content, when they are UTF-16 or UTF-32 text. */
export function refuseWideText(bytes: Uint8Array, path: string): void {
  const encoding = wideTextEncoding(bytes);
  if (encoding !== undefined) throw wideText(path, encoding);
}

export function badEncoding(path: string, line?: number): UserError {
  return new UserError({ file: path, ...(line === undefined ? {} : { line }), code: 'bad_encoding', message: 'is not valid UTF-8 text', hint: 'traces must be UTF-8' });
}

export function badGzip(path: string, error: unknown): UserError {
  return new UserError({
    file: path,
    code: 'bad_gzip',
    message: `is a damaged or truncated gzip file (${(error as Error).message})`,
    hint: 'download or copy the file again',
  });
}

/** A gzip file whose content is gzip again (`gzip -c x.jsonl | gzip -c`): no reader takes gzip inside gzip. */
export function gzipInGzip(path: string): UserError {
  return new UserError({
    file: path,
    code: 'gzip_in_gzip',
    message: 'is gzip inside gzip (compressed twice), not a trace',
    hint: 'decompress one layer (`gunzip -c FILE > OUT.gz`) and pass the result: loopcost reads one layer of gzip',
  });
}

/** The file (decompressed) holds more than `--max-input-mb`. */
export function inputTooLarge(path: string, limitBytes: number, compressed: boolean): UserError {
  return new UserError({
    file: path,
    code: 'too_large',
    message: `${compressed ? 'decompresses to' : 'holds'} more than ${megabytes(limitBytes)}, the most one input may hold`,
    hint: 'raise the limit with --max-input-mb if the file is genuine',
  });
}

/** One line (or a one-document file) holds more than `--max-line-mb`. */
export function recordTooLarge(path: string, line: number | undefined, limitBytes: number): UserError {
  return new UserError({
    file: path,
    ...(line === undefined ? {} : { line }),
    code: 'too_large',
    message:
      line === undefined
        ? `is one document of more than ${megabytes(limitBytes)}, the most one record may hold`
        : `is a line of more than ${megabytes(limitBytes)}, the most one record may hold`,
    hint: 'raise the limit with --max-line-mb if the file is genuine (a JavaScript string holds about 512 MB at most)',
  });
}

export function isGzip(head: Uint8Array): boolean {
  return head[0] === 0x1f && head[1] === 0x8b;
}
