/**
 * The runs of one byte range of a plain native JSONL file (src/io/byteRange.ts), read as one thread
 * reading the whole file would read them: the same run names (`file#k`, the runs before counted from the
 * header lines before the range; `file` for a file's only run), the same line numbers (the newlines before
 * counted), the same problems in its lines. Only the range that reaches the file's end says what is said of
 * a file's end (a run without its end record, a live recording cut off, no run at all); a range that
 * ends on a run still open reads the next header line, as the whole file's reader does, to say so there.
 * A range whose header records are not as many as its header lines (a header written otherwise: the
 * split cannot count the runs before a range by its bytes) is refused, and the caller reads the file whole.
 */
import { UserError } from '../errors.js';
import { HEADER_LINE_START, PositionedFile, type CountedStart, type RangeRead } from '../io/byteRange.js';
import { inputTooLarge } from '../io/inputErrors.js';
import type { ReadLimits } from '../io/limits.js';
import { statInput } from '../io/openInput.js';
import { LineSplitter } from '../io/readLines.js';
import { NativeTraceReader } from '../trace/parseNative.js';
import type { Trace } from '../trace/types.js';

/** The code of the error a range gives when its file cannot be split at its header lines. */
export const UNSPLIT_HEADER_CODE = 'unsplit_header';

function unsplitHeader(file: string): UserError {
  return new UserError({ file, code: UNSPLIT_HEADER_CODE, message: `holds a header record whose line does not begin ${HEADER_LINE_START}`, hint: 'the file is read whole' });
}

/** The newlines and header lines before `start`: counted on from what was `counted` (when before it), else from the start. */
function countedBefore(file: PositionedFile, start: number, counted: CountedStart | undefined): { lines: number; headers: number } {
  const from = counted !== undefined && counted.at <= start ? counted : { at: 0, lines: 0, headers: 0 };
  const more = file.countsIn({ from: from.at, to: start });
  return { lines: from.lines + more.lines, headers: from.headers + more.headers };
}

/** The runs whose header line starts in `range` of the native file at `path`. */
export async function* readNativeRange(path: string, range: RangeRead, limits: ReadLimits): AsyncGenerator<Trace> {
  const sizeBytes = statInput(path).size;
  if (sizeBytes > limits.maxInputBytes) throw inputTooLarge(path, limits.maxInputBytes, false);
  const file = new PositionedFile(path, sizeBytes);
  try {
    const start = range.from === 0 ? 0 : file.headerLineIn(range);
    if (start === undefined) return;
    const end = file.headerLineIn({ from: range.to, to: sizeBytes }) ?? sizeBytes;
    const before = countedBefore(file, start, range.counted);
    const reader = new NativeTraceReader(path, before.headers);
    const splitter = new LineSplitter(path, limits.maxLineBytes, before.lines);
    // (Not `yield*` of each line's runs: in an async generator it wraps every line's array in an async iterator.)
    blocks: for (const bytes of file.blocks({ from: start, to: end })) {
      for (const line of splitter.push(bytes)) {
        if (reader.full) break blocks;
        for (const run of reader.read(line.line, line.text)) yield run;
      }
    }
    for (const line of splitter.end()) for (const run of reader.read(line.line, line.text)) yield run;
    // The runs before each range are counted by its header lines: each range's must be its header records.
    const own = file.countsIn({ from: start, to: end });
    if (!reader.troubled && reader.headerRecords !== own.headers) throw unsplitHeader(path);
    if (range.counted !== undefined) Object.assign(range.counted, { at: end, lines: before.lines + own.lines, headers: before.headers + own.headers });
    if (end === sizeBytes) {
      yield* reader.finish();
      return;
    }
    // The next range's first line: a run still open here is one whose end record is missing.
    if (reader.open && !reader.full) reader.read(splitter.lastLine + 1, file.lineAt(end, limits.maxLineBytes).toString('utf8'));
    yield* reader.finishPart();
  } finally {
    file.close();
  }
}
