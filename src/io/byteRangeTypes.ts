/**
 * A byte range of a plain native file and what its reader counted before it (src/io/byteRange.ts): plain
 * types, apart from the reader, so that the library's declarations (ReadOptions.range) name no Node type.
 */
export interface ByteRange {
  from: number;
  to: number;
}

/**
 * A range to read, and what the thread reading it counted of the same file before (the newlines and
 * header lines before byte `at`, its last range's end): a thread's next range is counted on from there,
 * not from the start. The reader moves it on to the end of the range it reads.
 */
export interface RangeRead extends ByteRange {
  counted?: CountedStart;
}

export interface CountedStart {
  at: number;
  lines: number;
  headers: number;
}
