/**
 * Line-by-line reading of an input (plain or gzip, file or pipe), so that a line-oriented format (native
 * JSONL) is parsed at constant memory however large the input, and never meets V8's ~512 MB string limit.
 *
 * Lines are cut at the newline byte, so a UTF-8 character is never split: the whole lines of a chunk are
 * decoded in one piece and cut as text; a line across chunks, and any chunk with a problem to place (a
 * NUL byte, invalid UTF-8, a line past the limit), are decoded line by line. A line longer than
 * `maxLineBytes` is refused before its bytes are joined into one buffer. Blank lines (only spaces, tabs
 * and carriage returns) are counted and skipped, runs of them at byte speed, so a file of a billion blank
 * lines costs a byte scan, not a billion strings.
 */
import { UserError } from '../errors.js';
import { badEncoding, binaryFile, recordTooLarge, refuseWideText } from './inputErrors.js';
import { readLimits, type ReadLimits } from './limits.js';
import { openInput, type OpenedInput, type OpenOptions } from './openInput.js';
import { oversizedDocument } from './oversizedDocument.js';

export interface SourceLine {
  /** 1-based. */
  line: number;
  text: string;
}

const NEWLINE = 0x0a;
const SPACE = 0x20;
const TAB = 0x09;
const RETURN = 0x0d;

const NEWLINE_BLOCK = Buffer.alloc(512, NEWLINE);

const decoder = new TextDecoder('utf-8', { fatal: true });

/**
 * Text decoded at once: a string this long or shorter is made in V8's young generation; a chunk's whole
 * lines (up to 1 MB) decoded as one string were a large object each, in memory mapped afresh (a page
 * fault per 4 KB: ~250 a megabyte read, ~10 µs each on a virtual machine).
 */
const DECODE_PIECE_BYTES = 1 << 16;

/**
 * The lines of `text` (separated by newlines; the last ends at its end) into `into`, numbered after
 * `line`, blank ones counted and skipped: the line number of its last line.
 */
function cutLines(text: string, line: number, into: SourceLine[]): number {
  for (let from = 0; from <= text.length; ) {
    let end = text.indexOf('\n', from);
    if (end < 0) end = text.length;
    line += 1;
    if (end === from) {
      // A run of empty lines, skipped by one native search.
      NOT_NEWLINE.lastIndex = from;
      const next = NOT_NEWLINE.exec(text)?.index ?? text.length + 1;
      line += next - from - 1;
      from = next;
      continue;
    }
    if (!isBlankText(text, from, end)) into.push({ line, text: text.slice(from, end) });
    from = end + 1;
  }
  return line;
}

function decodeLine(bytes: Uint8Array, path: string, line: number): string {
  if (bytes.includes(0)) throw binaryFile(path, line);
  try {
    return decoder.decode(bytes);
  } catch {
    throw badEncoding(path, line);
  }
}

/**
 * Cuts chunks of bytes into lines. Push each chunk in order, then call `end`; each returns the non-blank
 * lines it completed (newline removed; a `\r` before it is kept: callers trim).
 */
export class LineSplitter {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private line = 0;

  /** `linesBefore`: lines before the first byte pushed (a byte range of a file read on its own, src/io/byteRange.ts). */
  constructor(
    private readonly path: string,
    private readonly maxLineBytes: number,
    linesBefore = 0,
  ) {
    this.line = linesBefore;
  }

  /** The number of the last line ended so far (blank ones included). */
  get lastLine(): number {
    return this.line;
  }

  push(chunk: Buffer): SourceLine[] {
    const lines: SourceLine[] = [];
    const last = chunk.lastIndexOf(NEWLINE);
    if (last < 0) return this.pushBytes(chunk, lines);
    // The line left unfinished by the chunk before is completed byte by byte.
    const from = this.pendingBytes === 0 ? 0 : chunk.indexOf(NEWLINE) + 1;
    if (from > 0) this.pushBytes(chunk.subarray(0, from), lines);
    if (from > last) return this.pushBytes(chunk.subarray(from), lines);
    if (!this.pushText(chunk.subarray(from, last), lines)) return this.pushBytes(chunk.subarray(from), lines);
    this.keep(chunk.subarray(last + 1));
    return lines;
  }

  /**
   * The whole lines of `bytes` (each ended by a newline, the last by the one just past `bytes`), decoded
   * in one piece and cut as text: one decode per chunk instead of one per line. False, and nothing read,
   * where the byte path must judge: a start of blank lines (skipped there at byte speed), a piece past
   * the line limit, a NUL byte or invalid UTF-8 (which the byte path places on its line).
   */
  private pushText(bytes: Buffer, lines: SourceLine[]): boolean {
    const first = bytes[0];
    if (first === undefined || first === NEWLINE || first === SPACE || first === TAB || first === RETURN) return false;
    if (bytes.length > this.maxLineBytes || bytes.includes(0)) return false;
    // Decoded in pieces of whole lines of at most DECODE_PIECE_BYTES (a longer line: a piece of its own),
    // the lines kept aside until every piece has decoded (nothing read if one does not).
    const found: SourceLine[] = [];
    let line = this.line;
    for (let start = 0; start <= bytes.length; ) {
      let end = bytes.length;
      if (end - start > DECODE_PIECE_BYTES) {
        const cut = bytes.lastIndexOf(NEWLINE, start + DECODE_PIECE_BYTES);
        if (cut >= start) end = cut;
      }
      let text: string;
      try {
        text = decoder.decode(bytes.subarray(start, end));
      } catch {
        return false;
      }
      line = cutLines(text, line, found);
      start = end + 1;
    }
    for (const entry of found) lines.push(entry);
    this.line = line;
    return true;
  }

  private pushBytes(chunk: Buffer, lines: SourceLine[]): SourceLine[] {
    let start = 0;
    const length = chunk.length;
    for (;;) {
      if (this.pendingBytes === 0) {
        // Blank lines at the start of a line: counted and skipped byte by byte (locals: a tight loop).
        let i = start;
        let line = this.line;
        while (i < length) {
          const byte = chunk[i]!;
          if (byte === NEWLINE) {
            // A run of newlines is skipped a block at a time by a native compare.
            while (i + NEWLINE_BLOCK.length <= length && chunk.compare(NEWLINE_BLOCK, 0, NEWLINE_BLOCK.length, i, i + NEWLINE_BLOCK.length) === 0) {
              line += NEWLINE_BLOCK.length;
              i += NEWLINE_BLOCK.length;
              start = i;
            }
            if (chunk[i] !== NEWLINE) continue;
            line += 1;
            start = i + 1;
          } else if (byte > SPACE || (byte !== SPACE && byte !== TAB && byte !== RETURN)) break;
          i += 1;
        }
        this.line = line;
        if (i >= length) {
          this.keep(chunk.subarray(start));
          return lines;
        }
      }
      const end = chunk.indexOf(NEWLINE, start);
      if (end < 0) {
        this.keep(chunk.subarray(start));
        return lines;
      }
      this.checkSize(end - start);
      const piece = chunk.subarray(start, end);
      const bytes = this.pending.length === 0 ? piece : Buffer.concat([...this.pending, piece]);
      this.pending = [];
      this.pendingBytes = 0;
      this.line += 1;
      if (!isBlank(bytes)) lines.push({ line: this.line, text: decodeLine(bytes, this.path, this.line) });
      start = end + 1;
    }
  }

  end(): SourceLine[] {
    if (this.pending.length === 0) return [];
    const bytes = Buffer.concat(this.pending);
    this.pending = [];
    this.pendingBytes = 0;
    this.line += 1;
    return isBlank(bytes) ? [] : [{ line: this.line, text: decodeLine(bytes, this.path, this.line) }];
  }

  /** Keeps the unfinished line (a copy: the chunk's memory may be reused). */
  private keep(rest: Buffer): void {
    if (rest.length === 0) return;
    this.checkSize(rest.length);
    this.pending.push(Buffer.from(rest));
    this.pendingBytes += rest.length;
  }

  private checkSize(more: number): void {
    if (this.pendingBytes + more > this.maxLineBytes) throw recordTooLarge(this.path, this.line + 1, this.maxLineBytes);
  }
}

const NOT_NEWLINE = /[^\n]/g;

function isBlankText(text: string, from: number, end: number): boolean {
  for (let i = from; i < end; i++) {
    const ch = text.charCodeAt(i);
    if (ch !== SPACE && ch !== TAB && ch !== RETURN) return false;
  }
  return true;
}

function isBlank(bytes: Uint8Array): boolean {
  for (const byte of bytes) if (byte !== SPACE && byte !== TAB && byte !== RETURN) return false;
  return true;
}

/** The non-blank lines of an opened input, in batches (one per chunk read), at constant memory. */
export async function* lineBatches(input: OpenedInput, maxLineBytes: number): AsyncGenerator<SourceLine[]> {
  const splitter = new LineSplitter(input.label, maxLineBytes);
  for await (const chunk of input.chunks) {
    const lines = splitter.push(chunk);
    if (lines.length > 0) yield lines;
  }
  const last = splitter.end();
  if (last.length > 0) yield last;
}

/** Every non-blank line of the file at `path` (plain or gzip), one at a time. */
export async function* readLines(path: string, limits: Partial<ReadLimits> = {}, options: OpenOptions = {}): AsyncGenerator<SourceLine> {
  const resolved = readLimits(limits);
  const input = await openInput(path, resolved, options);
  try {
    for await (const batch of lineBatches(input, resolved.maxLineBytes)) yield* batch;
  } finally {
    await input.close();
  }
}

/**
 * The whole (decompressed) text of an opened input, for the formats that are one document. A document
 * of more than `maxLineBytes` is refused before a string is built (a plain file by its size, before a
 * byte of the rest is read); a binary file or invalid UTF-8 is a user error naming the file.
 */
export async function readDocument(input: OpenedInput, limits: ReadLimits): Promise<string> {
  if (input.plainSize !== undefined && input.plainSize > limits.maxLineBytes) throw await oversizedDocument([], input, limits.maxLineBytes);
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of input.chunks) {
    total += chunk.length;
    if (total > limits.maxLineBytes) throw await oversizedDocument([...chunks, chunk], input, limits.maxLineBytes);
    // Every chunk but the last is kept past the read after next: a copy, when that read reuses its memory.
    if (input.reusesChunks && chunks.length > 0) chunks.push(Buffer.from(chunks.pop()!));
    chunks.push(chunk);
  }
  return decodeDocument(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks), input.label, limits);
}


/** Bytes of a whole document as text: a binary file, invalid UTF-8 or a text too long for one string is a user error. */
export function decodeDocument(bytes: Buffer, label: string, limits: ReadLimits): string {
  refuseWideText(bytes, label);
  if (bytes.includes(0)) throw binaryFile(label);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ERR_STRING_TOO_LONG') throw recordTooLarge(label, undefined, Math.min(limits.maxLineBytes, bytes.length - 1));
    if (error instanceof UserError) throw error;
    throw badEncoding(label);
  }
}
