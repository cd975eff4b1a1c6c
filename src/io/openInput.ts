/**
 * Opening one input for reading, whatever it is: a regular file, a named pipe (FIFO), or standard input
 * (`-`). Anything else (a character device such as /dev/zero, a socket, a block device) is refused before
 * a byte is read. The bytes arrive as a stream of chunks, gzip decompressed as they come (recognised by
 * its magic bytes, whatever the name says), so memory stays at a chunk whatever the input's size; the
 * limits of src/io/limits.ts are applied here: what a file may hold or inflate to, and how long a pipe may
 * keep us waiting for its first byte.
 */
import { close, closeSync, constants, fstatSync, open, openSync, read, readSync, type Stats } from 'node:fs';
import type { Readable } from 'node:stream';
import { UserError } from '../errors.js';
import { nodeNet, nodeTty } from './builtins.js';
import { chunkSource, type ChunkSource } from './chunkPool.js';
import { gunzipped, inflatedAtOnce } from './gunzip.js';
import { gzipInGzip, inputTooLarge, isGzip, unreadable } from './inputErrors.js';
import type { ReadLimits } from './limits.js';
import { inputLabel, isDevNull, kindOf, namesStandardInput, statInput, STDIN_LABEL, STDIN_PATH } from './inputPaths.js';

export { inputLabel, kindOf, runOfFile, statInput, statOf, STDIN_LABEL, STDIN_PATH } from './inputPaths.js';

/** How much of the (decompressed) start is kept to tell the format. */
const HEAD_BYTES = 64 * 1024;
const CHUNK_BYTES = 1 << 20;

type InputKind = { kind: 'file'; size: number } | { kind: 'pipe' } | { kind: 'stdin' };

function notReadableKind(label: string, stats: Stats): UserError {
  if (isDevNull(stats)) {
    // `… < /dev/null`, the usual way to give a command no input: said as such, not as a device.
    const stdin = label === STDIN_LABEL || namesStandardInput(label);
    const message = stdin ? 'standard input is /dev/null: nothing to read' : label === '/dev/null' ? 'sends nothing to read' : 'is /dev/null: nothing to read';
    const hint = `${stdin ? 'pipe a trace in, as `cat run.jsonl | loopcost replay -` does, or pass' : 'pass'} trace files, directories or globs`;
    return new UserError({ file: label, code: 'not_a_file', message, hint });
  }
  // A directory reaches here only from a reader of one input (the commands walk theirs): offer what reads one.
  const hint = stats.isDirectory() ? "give one of the trace files in it (the library's readTraces([dir]) reads a directory's, as the commands do)" : 'pass a trace file, a directory of them, a pipe, or - for standard input';
  return new UserError({ file: label, code: 'not_a_file', message: `is ${kindOf(stats)}, not a trace file`, hint });
}

/** What the path is; a UserError for anything loopcost does not read. */
export function inputKind(path: string): InputKind {
  if (path === STDIN_PATH) {
    let stats: Stats;
    try {
      stats = fstatSync(0);
    } catch (error) {
      throw unreadable(STDIN_LABEL, error);
    }
    if (nodeTty().isatty(0)) {
      throw new UserError({ file: STDIN_LABEL, code: 'stdin_terminal', message: 'is a terminal, not a trace', hint: 'pipe a trace into loopcost (… | loopcost replay -) or pass a file' });
    }
    if (stats.isFile() || stats.isFIFO() || stats.isSocket()) return { kind: 'stdin' };
    throw notReadableKind(STDIN_LABEL, stats);
  }
  const stats = statInput(path);
  if (stats.isFile()) return { kind: 'file', size: stats.size };
  if (stats.isFIFO()) return { kind: 'pipe' };
  // Standard input by name when it is a socket (as a parent process's pipe often is): it cannot be
  // opened by path, so it is read as `-` is.
  if (stats.isSocket() && namesStandardInput(path)) return { kind: 'stdin' };
  throw notReadableKind(path, stats);
}

// A file's descriptor through fs's callbacks, as promises: node:fs/promises (its FileHandle) would be
// loaded by every start that reads a file (a few ms: it brings readline, watchers and directories along).
const openForReading = (path: string) => new Promise<number>((done, fail) => open(path, 'r', (error, fd) => (error ? fail(error) : done(fd))));
const readInto = (fd: number, buffer: Buffer) =>
  new Promise<number>((done, fail) => read(fd, buffer, 0, buffer.length, null, (error, bytesRead) => (error ? fail(error) : done(bytesRead))));
const closeFile = (fd: number) => new Promise<void>((done, fail) => close(fd, (error) => (error ? fail(error) : done())));

/**
 * The chunks of a regular file, read `chunkBytes` at a time into buffers from `buffers` (reused ones:
 * see chunkPool.ts), each no larger than the rest of the file as its size was (plus one byte, to see the end).
 * A file that fits in one chunk is read synchronously: through the thread pool, its open, two reads and
 * close are four waits on the event loop for a few KB (idle time a start pays, more on a busy machine).
 */
async function* fileChunks(path: string, sizeBytes: number, buffers: ChunkSource): AsyncGenerator<Buffer> {
  const small = sizeBytes < buffers.chunkBytes;
  let fd;
  try {
    fd = small ? openSync(path, 'r') : await openForReading(path);
  } catch (error) {
    throw unreadable(path, error);
  }
  try {
    for (let offset = 0; ; ) {
      const buffer = buffers.take(Math.min(buffers.chunkBytes, Math.max(sizeBytes - offset, 0) + 1));
      const bytesRead = small ? readSync(fd, buffer, 0, buffer.length, null) : await readInto(fd, buffer);
      if (bytesRead === 0) return;
      offset += bytesRead;
      yield buffer.subarray(0, bytesRead);
    }
  } catch (error) {
    if (error instanceof UserError) throw error;
    throw unreadable(path, error);
  } finally {
    if (small) closeSync(fd);
    else await closeFile(fd);
  }
}

function noFirstByte(label: string, waitMs: number): UserError {
  return new UserError({
    file: label,
    code: 'pipe_no_data',
    message: `is a pipe that sent nothing in ${waitMs / 1000} s (no writer?)`,
    hint: 'start the program that writes into it first, or pass a file',
  });
}

/** The chunks a stream sends; the first must come within `waitMs`. The stream is destroyed at the end. */
async function* streamChunks(stream: Readable, label: string, waitMs: number): AsyncGenerator<Buffer> {
  const chunks = stream[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  let timer: NodeJS.Timeout | undefined;
  try {
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(noFirstByte(label, waitMs)), waitMs);
    });
    let next = await Promise.race([chunks.next(), timeout]);
    clearTimeout(timer);
    while (!next.done) {
      yield next.value;
      next = await chunks.next();
    }
  } catch (error) {
    if (error instanceof UserError) throw error;
    throw unreadable(label, error);
  } finally {
    clearTimeout(timer);
    stream.destroy();
  }
}

/** A FIFO opened without blocking (an open for reading waits for a writer otherwise), read as a socket. */
function pipeStream(path: string): Readable {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    throw unreadable(path, error);
  }
  try {
    const { Socket } = nodeNet();
    return new Socket({ fd, readable: true, writable: false });
  } catch (error) {
    closeSync(fd);
    throw unreadable(path, error);
  }
}

function rawChunks(path: string, kind: InputKind, limits: ReadLimits, buffers: ChunkSource): AsyncGenerator<Buffer> {
  if (kind.kind === 'file') return fileChunks(path, kind.size, buffers);
  if (kind.kind === 'pipe') return streamChunks(pipeStream(path), path, limits.pipeWaitMs);
  return streamChunks(process.stdin, STDIN_LABEL, limits.pipeWaitMs);
}

/** The chunks of a plain input; at most `maxInputBytes` in all. */
async function* plain(raw: AsyncGenerator<Buffer>, label: string, limits: ReadLimits): AsyncGenerator<Buffer> {
  let total = 0;
  for await (const chunk of raw) {
    total += chunk.length;
    if (total > limits.maxInputBytes) throw inputTooLarge(label, limits.maxInputBytes, false);
    yield chunk;
  }
}

async function* prepend(first: Buffer, rest: AsyncGenerator<Buffer>): AsyncGenerator<Buffer> {
  try {
    if (first.length > 0) yield first;
    yield* rest;
  } finally {
    // Left before `rest` was reached: it was started (its file is open), so it is closed here.
    await rest.return(undefined);
  }
}

/** An input opened for reading: its name, the start of its text, and all its (decompressed) bytes. */
export interface OpenedInput {
  /** The path as given (`<stdin>` for `-`). */
  label: string;
  /** Size on disk of a plain regular file (not compressed); undefined for pipes and gzip. */
  plainSize?: number;
  /** The first (decompressed) bytes, at least HEAD_BYTES unless the input is shorter. */
  head: Buffer;
  /** Every (decompressed) chunk from the start, the head included. Read once. */
  chunks: AsyncGenerator<Buffer>;
  /**
   * A chunk's memory is reused once two more chunks are read (src/io/chunkPool.ts): a reader that keeps
   * chunks longer copies them.
   */
  reusesChunks: boolean;
  /** Lets go of the input (its file handle, its gunzip) however far it was read; call it once done. */
  close(): Promise<void>;
}

export interface OpenOptions {
  /** Bytes read from a file at a time (tests make it tiny to cut lines and characters across reads). */
  chunkBytes?: number;
}

/** Opens an input and reads the start of it, to tell its format. */
export async function openInput(path: string, limits: ReadLimits, options: OpenOptions = {}): Promise<OpenedInput> {
  const label = inputLabel(path);
  const kind = inputKind(path);
  if (kind.kind === 'file' && kind.size > limits.maxInputBytes) throw inputTooLarge(label, limits.maxInputBytes, false);
  const buffers = chunkSource(options.chunkBytes ?? CHUNK_BYTES);
  try {
    return await opened({ path, label, kind, limits, buffers });
  } catch (error) {
    buffers.release();
    throw error;
  }
}

interface Opening {
  path: string;
  label: string;
  kind: InputKind;
  limits: ReadLimits;
  buffers: ChunkSource;
}

async function opened({ path, label, kind, limits, buffers }: Opening): Promise<OpenedInput> {
  const raw = rawChunks(path, kind, limits, buffers);
  // Whether the input is gzip shows in its first two bytes: read them, then put them back in front.
  let first: Buffer = Buffer.alloc(0);
  while (first.length < 2) {
    const next = await raw.next();
    if (next.done) break;
    first = first.length === 0 ? next.value : Buffer.concat([first, next.value]);
  }
  const gzip = isGzip(first);
  const whole = gzip && kind.kind === 'file' && first.length === kind.size ? inflatedAtOnce(first, limits) : undefined;
  // A gzip stream holds on to the chunks it is given: those are read into fresh buffers.
  if (gzip && whole === undefined) buffers.stopReusing();
  const stream = whole ? plain(prepend(whole, raw), label, limits) : gzip ? gunzipped(prepend(first, raw), label, limits) : plain(prepend(first, raw), label, limits);
  const buffered: Buffer[] = [];
  let bufferedBytes = 0;
  while (bufferedBytes < HEAD_BYTES) {
    const next = await stream.next();
    if (next.done) break;
    // The chunk before is kept past the read after next: a copy, when that read reuses its memory.
    if (buffers.reuses && buffered.length > 0) buffered.push(Buffer.from(buffered.pop()!));
    buffered.push(next.value);
    bufferedBytes += next.value.length;
  }
  const head = (buffered.length === 1 ? buffered[0]! : Buffer.concat(buffered)).subarray(0, HEAD_BYTES);
  if (gzip && isGzip(head)) {
    await stream.return(undefined);
    throw gzipInGzip(label);
  }
  const input: OpenedInput = {
    label,
    // A copy when the chunk's memory is reused by later reads.
    head: buffers.reuses && buffered.length === 1 ? Buffer.from(head) : head,
    reusesChunks: buffers.reuses,
    chunks: (async function* () {
      yield* buffered.splice(0);
      yield* stream;
    })(),
    close: async () => {
      try {
        await stream.return(undefined);
      } finally {
        buffers.release();
      }
    },
  };
  if (kind.kind === 'file' && !gzip) input.plainSize = kind.size;
  return input;
}
