/**
 * What an input read as one document (src/io/readLines.ts readDocument) is told when it holds more than
 * --max-line-mb: one document too large, or, for a file of lines whose first line alone passes the limit,
 * that line.
 */
import type { UserError } from '../errors.js';
import { recordTooLarge } from './inputErrors.js';
import type { OpenedInput } from './openInput.js';

const NEWLINE = 0x0a;
const SPACE = 0x20;
const TAB = 0x09;
const RETURN = 0x0d;

/**
 * The refusal of an input read as one document that holds more than `maxLineBytes`: a file of lines whose
 * first line is past the limit (a JSONL file whose format that line, too long to look at, could not tell)
 * is told by that line, as a later line past the limit is (`line 1: is a line of more than …`); any other,
 * as one document. Reads on (`read`, then the rest of the input) without keeping the bytes, to the first
 * non-blank byte after that line.
 */
export async function oversizedDocument(read: Buffer[], input: OpenedInput, maxLineBytes: number): Promise<UserError> {
  const lines = { line: 1, start: -1, end: -1, offset: 0 };
  const scan = (chunk: Buffer): boolean => {
    for (let i = 0; i < chunk.length; ) {
      if (lines.end >= 0) {
        if (!isBlankByte(chunk[i]!)) return true;
        i++;
      } else if (lines.start < 0) {
        if (chunk[i] === NEWLINE) lines.line++;
        else if (!isBlankByte(chunk[i]!)) lines.start = lines.offset + i;
        i++;
      } else {
        const newline = chunk.indexOf(NEWLINE, i);
        if (newline < 0) break;
        lines.end = lines.offset + newline;
        i = newline + 1;
      }
    }
    lines.offset += chunk.length;
    return false;
  };
  let more = read.some(scan);
  if (!more) for await (const chunk of input.chunks) if ((more = scan(chunk))) break;
  const firstLineTooLong = lines.end - lines.start > maxLineBytes;
  return recordTooLarge(input.label, more && firstLineTooLong ? lines.line : undefined, maxLineBytes);
}

function isBlankByte(byte: number): boolean {
  return byte === NEWLINE || byte === SPACE || byte === TAB || byte === RETURN;
}
