/**
 * One entry of the compiled-trace cache (compiledCache.ts): every run of one input file compiled, in two
 * files. `<key>.lcc` holds the compiled traces — the payloads of their arrays' column programs
 * (columnProgram.ts: constants, copies, narrow running totals; each payload at an 8-byte boundary) one
 * after another, then a JSON head (each run's source, header, end and compiled trace described by
 * compiledCodec.ts, the array programs and the payload table; runs whose programs or descriptions read
 * the same, as runs of one agent often do, share one copy of them), then a 16-byte trailer (head offset, head
 * length, magic). It is read with one read into one buffer; the arrays are decoded from it (an array
 * stored whole is a view of it). `<key>.calls` holds each run's calls as deflated JSON, read with the
 * entry and inflated only if something asks for a run's calls (see compiledCache.ts): an entry evicted
 * (cacheBound.ts) while its runs are in use has nothing left to read.
 *
 * A file that is shorter or longer than its trailer says, lacks a magic, names another key or shape,
 * or points outside itself is not trusted (the input is read again and the entry rewritten). Writes go
 * to temporary files renamed into place (the calls file first), so a reader never sees half an entry.
 */
import { closeSync, fstatSync, openSync, readSync, renameSync, rmSync, writeSync } from 'node:fs';
import { nodeCrypto, nodeWorkerThreads, nodeZlib } from '../io/builtins.js';
import type { CallRecord, Trace } from '../trace/types.js';
import { ARRAY_KINDS, describeValue, pad8, type ArrayEntry, type ArrayKind, type StoredArray } from './compiledCodec.js';
import { encodeArrays, type ArrayProgram } from './columnProgram.js';
import { runArrays, type Constants } from './runArrays.js';

const MAGIC = Buffer.from('LCCACHE2', 'latin1');
const TRAILER_MAGIC = 0x4c434332; // "LCC2"
const TRAILER_BYTES = 16;

/** One run in the head: what the report reads of the trace besides its calls, its compiled trace, and where its calls are. */
export interface StoredRun {
  source: string;
  header: Trace['header'];
  end: Trace['end'];
  /** Its compiled trace's description (compiledCodec.ts; array indices counted from `arrays`): an index into the head's `descriptions`. */
  compiled: number;
  /** The run's first array program and their number (runs whose programs read the same share them), and its first payload. */
  arrays: number;
  arrayCount: number;
  payloads: number;
  /** Offset, length and SHA-1 of the run's deflated calls in the calls file. */
  calls: [number, number, string];
}

export interface EntryHead {
  cache: string;
  key: string;
  /** What the compiled trace's fields and array kinds were when written (compiledCache.ts: layoutShape). */
  shape: string;
  callsBytes: number;
  /** Every array's program (columnProgram.ts), run after run (each run's programs once: run-relative, they often read the same). */
  arrays: ArrayProgram[];
  /** Every distinct description of a compiled trace (one per layout and figures, not per run). */
  descriptions: unknown[];
  /** [kind, byte offset, length] of every payload. */
  payloads: [ArrayKind, number, number][];
  runs: StoredRun[];
}

export interface EntryFiles {
  compiled: string;
  calls: string;
}


/** Writes an entry run by run (nothing kept in memory but the head); `finish` renames it into place, `abandon` removes it. */
export class EntryWriter {
  private readonly temporary: EntryFiles;
  private readonly fd: number;
  private readonly callsFd: number;
  private offset = MAGIC.length;
  private callsOffset = 0;
  private readonly arrays: EntryHead['arrays'] = [];
  private readonly payloads: EntryHead['payloads'] = [];
  private readonly runs: StoredRun[] = [];
  private readonly descriptions: unknown[] = [];
  /** The first array and the index of each distinct program list and description written, by JSON text. */
  private readonly programsAt = new Map<string, number>();
  private readonly descriptionAt = new Map<string, number>();

  /** Bytes written so far (both files). */
  get bytes(): number {
    return this.offset + this.callsOffset;
  }

  constructor(
    private readonly files: EntryFiles,
    private readonly head: Pick<EntryHead, 'cache' | 'key' | 'shape'>,
    private readonly compact = true,
  ) {
    // pid and thread: sweep workers are threads of one process.
    const tag = `${process.pid}-${nodeWorkerThreads().threadId}`;
    this.temporary = { compiled: `${files.compiled}.${tag}.tmp`, calls: `${files.calls}.${tag}.tmp` };
    this.fd = openSync(this.temporary.compiled, 'w');
    try {
      this.callsFd = openSync(this.temporary.calls, 'w');
    } catch (error) {
      closeSync(this.fd);
      rmSync(this.temporary.compiled, { force: true });
      throw error;
    }
    writeSync(this.fd, MAGIC);
  }

  /** Appends one run (throws NotStorable for a compiled trace the codec cannot describe). */
  add(trace: Trace, compiled: object): void {
    const found: ArrayEntry[] = [];
    const description = describeValue(compiled, found);
    const { programs, payloads } = encodeArrays(
      found.map((entry) => entry.data),
      found.map((entry) => entry.kind),
      this.compact,
    );
    const base = { arrays: this.interned(this.programsAt, programs, this.arrays), payloads: this.payloads.length };
    let size = 0;
    for (const data of payloads) size = pad8(size) + data.byteLength;
    const block = Buffer.alloc(pad8(size));
    let at = 0;
    for (const data of payloads) {
      at = pad8(at);
      block.set(new Uint8Array(data.buffer, data.byteOffset, data.byteLength), at);
      this.payloads.push([data.constructor.name as ArrayKind, this.offset + at, data.length]);
      at += data.byteLength;
    }
    writeSync(this.fd, block);
    this.offset += block.length;
    const calls = nodeZlib().deflateRawSync(JSON.stringify(trace.calls), { level: 1 });
    writeSync(this.callsFd, calls);
    this.runs.push({
      source: trace.source,
      header: trace.header,
      end: trace.end,
      compiled: this.interned(this.descriptionAt, [description], this.descriptions),
      arrays: base.arrays,
      arrayCount: programs.length,
      payloads: base.payloads,
      calls: [this.callsOffset, calls.length, nodeCrypto().createHash('sha1').update(calls).digest('hex')],
    });
    this.callsOffset += calls.length;
  }

  /** Where `items` start in `into`, appended unless the same items (by JSON text) were. */
  private interned<T>(at: Map<string, number>, items: T[], into: T[]): number {
    const text = JSON.stringify(items);
    let index = at.get(text);
    if (index === undefined) {
      at.set(text, (index = into.length));
      into.push(...items);
    }
    return index;
  }

  finish(): void {
    const head: EntryHead = { ...this.head, callsBytes: this.callsOffset, arrays: this.arrays, descriptions: this.descriptions, payloads: this.payloads, runs: this.runs };
    const text = Buffer.from(JSON.stringify(head), 'utf8');
    const trailer = Buffer.alloc(TRAILER_BYTES);
    trailer.writeDoubleLE(this.offset, 0);
    trailer.writeUInt32LE(text.length, 8);
    trailer.writeUInt32LE(TRAILER_MAGIC, 12);
    writeSync(this.fd, text);
    writeSync(this.fd, trailer);
    closeSync(this.fd);
    closeSync(this.callsFd);
    renameSync(this.temporary.calls, this.files.calls);
    renameSync(this.temporary.compiled, this.files.compiled);
  }

  abandon(): void {
    for (const fd of [this.fd, this.callsFd]) {
      try {
        closeSync(fd);
      } catch {
        // already closed
      }
    }
    rmSync(this.temporary.compiled, { force: true });
    rmSync(this.temporary.calls, { force: true });
  }
}

/** An entry read: its head, a run's arrays (decoded when asked for, each once), and the calls file's bytes. */
export interface LoadedEntry {
  head: EntryHead;
  arraysOf(run: StoredRun): (index: number) => StoredArray;
  calls: Buffer;
}

/** Reads an entry in one read; undefined when it is missing or not to be trusted for `expected`. */
export function readEntry(files: EntryFiles, expected: Pick<EntryHead, 'cache' | 'key' | 'shape'>): LoadedEntry | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(files.compiled, 'r');
    const size = fstatSync(fd).size;
    if (size < MAGIC.length + TRAILER_BYTES) return undefined;
    const bytes = readWhole(fd, size, true);
    if (bytes === undefined) return undefined;
    if (!bytes.subarray(0, MAGIC.length).equals(MAGIC) || bytes.readUInt32LE(size - 4) !== TRAILER_MAGIC) return undefined;
    const headOffset = bytes.readDoubleLE(size - TRAILER_BYTES);
    const headLength = bytes.readUInt32LE(size - 8);
    if (!Number.isSafeInteger(headOffset) || headOffset < MAGIC.length || headOffset + headLength + TRAILER_BYTES !== size) return undefined;
    const head = JSON.parse(bytes.toString('utf8', headOffset, headOffset + headLength)) as EntryHead;
    if (head.cache !== expected.cache || head.key !== expected.key || head.shape !== expected.shape) return undefined;
    if (!head.payloads.every((a) => payloadInBounds(a, headOffset))) return undefined;
    const calls = readCalledFile(files.calls, head.callsBytes);
    if (calls === undefined) return undefined;
    const buffer = bytes.buffer as ArrayBuffer; // allocUnsafeSlow: never shared
    const constants: Constants = new Map();
    return {
      head,
      calls,
      arraysOf(run: StoredRun): (index: number) => StoredArray {
        const payloadAt = (index: number): StoredArray => {
          if (!(index >= 0)) throw new Error('bad payload');
          const [kind, offset, length] = head.payloads[run.payloads + index]!;
          return new ARRAY_KINDS[kind](buffer, offset, length);
        };
        if (!Number.isSafeInteger(run.arrays) || !Number.isSafeInteger(run.arrayCount) || run.arrays < 0 || run.arrayCount < 0 || run.arrays + run.arrayCount > head.arrays.length) throw new Error('bad run');
        return runArrays({ programs: head.arrays, base: run.arrays, end: run.arrays + run.arrayCount, payloadAt, constants });
      },
    };
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** `size` bytes from `fd` (`slow`: in a buffer of its own, offset 0); undefined when the file is shorter. */
function readWhole(fd: number, size: number, slow: boolean): Buffer | undefined {
  const bytes = slow ? Buffer.allocUnsafeSlow(size) : Buffer.allocUnsafe(size);
  for (let at = 0; at < size; ) {
    const n = readSync(fd, bytes, at, size - at, at);
    if (n === 0) return undefined;
    at += n;
  }
  return bytes;
}

/** The calls file's bytes when it is `size` bytes long; undefined when it is missing (evicted) or of another size. */
function readCalledFile(path: string, size: number): Buffer | undefined {
  const fd = openSync(path, 'r');
  try {
    return fstatSync(fd).size === size ? readWhole(fd, size, false) : undefined;
  } finally {
    closeSync(fd);
  }
}

function payloadInBounds([kind, offset, length]: EntryHead['payloads'][number], end: number): boolean {
  return kind in ARRAY_KINDS && Number.isSafeInteger(offset) && offset % 8 === 0 && Number.isSafeInteger(length) && length >= 0 && offset + length * ARRAY_KINDS[kind].BYTES_PER_ELEMENT <= end;
}

/** A run's calls, from the calls file's bytes read with the entry, checked against the head (throws when they are damaged). */
export function readCalls(calls: Buffer, callsFile: string, [offset, length, sha1]: StoredRun['calls']): CallRecord[] {
  const bytes = calls.subarray(offset, offset + length);
  if (bytes.length !== length || nodeCrypto().createHash('sha1').update(bytes).digest('hex') !== sha1) {
    throw new Error(`loopcost cache: ${callsFile} is damaged; remove it (it is rebuilt) and run again`);
  }
  return JSON.parse(nodeZlib().inflateRawSync(bytes).toString('utf8')) as CallRecord[];
}
