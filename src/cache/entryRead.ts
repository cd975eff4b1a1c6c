/**
 * Reading an entry of the compiled-trace cache (its layout: compiledEntry.ts). The `.lcc` is read with one
 * read into one buffer; its trailer and its head's CRC-32 are checked at once, and each block's bytes
 * against the block's CRC-32 when one of its runs is first asked for (so the first run is ready without
 * checking the whole file, and a block that fails sends the command to the input, compiledCache.ts). The
 * calls file is read whole with it; its chunks are checked by CallsReader (callsChunks.ts).
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import type { CallRecord } from '../trace/types.js';
import { CallsReader, crc32Of } from './callsChunks.js';
import { ARRAY_KINDS, type StoredArray } from './compiledCodec.js';
import { MAGIC, TRAILER_BYTES, TRAILER_MAGIC, type EntryFiles, type EntryHead, type StoredRun } from './compiledEntry.js';
import { blockRuns, type BlockHead } from './entryBlocks.js';
import type { Constants } from './runArrays.js';

/** Blocks kept decoded while an entry is served (runs of several layouts may take turns). */
const DECODED_BLOCKS = 8;

/** An entry read: its head, a run's arrays (its block checked and decoded when first asked for), and its runs' calls. */
export interface LoadedEntry {
  head: EntryHead;
  arraysOf(run: StoredRun): (index: number) => StoredArray;
  calls: CallsReader;
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
    const head = headOf(bytes);
    if (head === undefined || head.cache !== expected.cache || head.key !== expected.key || head.shape !== expected.shape) return undefined;
    const calls = readCalledFile(files.calls, head.callsBytes);
    if (calls === undefined) return undefined;
    return { head, calls: new CallsReader(calls, head.calls, files.calls), arraysOf: blockReader(head, bytes.buffer as ArrayBuffer) }; // allocUnsafeSlow: never shared
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** The head of a `.lcc`'s bytes: undefined unless both magics, the trailer's place, the head's CRC-32 and every payload's bounds hold. */
function headOf(bytes: Buffer): EntryHead | undefined {
  const size = bytes.length;
  if (!bytes.subarray(0, MAGIC.length).equals(MAGIC) || bytes.readUInt32LE(size - 4) !== TRAILER_MAGIC) return undefined;
  const headOffset = bytes.readDoubleLE(size - TRAILER_BYTES);
  const headLength = bytes.readUInt32LE(size - TRAILER_BYTES + 8);
  if (!Number.isSafeInteger(headOffset) || headOffset < MAGIC.length || headOffset + headLength + TRAILER_BYTES !== size) return undefined;
  const text = bytes.subarray(headOffset, headOffset + headLength);
  if (crc32Of(text) !== bytes.readUInt32LE(size - TRAILER_BYTES + 12)) return undefined;
  const head = JSON.parse(text.toString('utf8')) as EntryHead;
  return head.payloads.every((a) => payloadInBounds(a, headOffset)) ? head : undefined;
}

/** A run's arrays, from its block (checked against its CRC-32 the first time; the last DECODED_BLOCKS blocks asked for kept decoded). */
function blockReader(head: EntryHead, buffer: ArrayBuffer): (run: StoredRun) => (index: number) => StoredArray {
  const constants: Constants = new Map();
  const source = {
    programs: head.arrays,
    constants,
    payloadAt(block: BlockHead, index: number): StoredArray {
      const found = index >= 0 && index < head.payloads.length - block[2] ? head.payloads[block[2] + index] : undefined;
      if (found === undefined) throw new Error('bad payload');
      const [kind, offset, length] = found;
      // Only bytes of the block, which were checked.
      if (!(offset >= block[5] && offset + length * ARRAY_KINDS[kind].BYTES_PER_ELEMENT <= block[5] + block[6])) throw new Error('payload outside its block');
      return new ARRAY_KINDS[kind](buffer, offset, length);
    },
  };
  const checked = new Set<number>();
  const decoded = new Map<number, ReturnType<typeof blockRuns>>();
  const blockOf = (id: number): ReturnType<typeof blockRuns> => {
    let runs = decoded.get(id);
    if (runs === undefined) {
      const block = head.blocks[id];
      if (block === undefined || !Array.isArray(block)) throw new Error('bad block');
      if (!checked.has(id)) {
        checkBlock(block, buffer);
        checked.add(id);
      }
      runs = blockRuns(block, source);
      if (decoded.size >= DECODED_BLOCKS) decoded.delete(decoded.keys().next().value!);
    } else decoded.delete(id);
    decoded.set(id, runs);
    return runs;
  };
  return (run) => {
    const runs = blockOf(run[5]);
    const index = run[6];
    return (slot) => runs(index, slot);
  };
}

/** Throws unless the block's bytes lie in the entry's buffer and match its CRC-32. */
function checkBlock([, , , , , offset, bytes, crc32]: BlockHead, buffer: ArrayBuffer): void {
  if (!(Number.isSafeInteger(offset) && Number.isSafeInteger(bytes) && offset >= MAGIC.length && bytes >= 0 && offset + bytes <= buffer.byteLength)) throw new Error('bad block place');
  if (crc32Of(new Uint8Array(buffer, offset, bytes)) !== crc32) throw new Error('block fails its CRC-32');
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

/** Checks the calls chunk a run's calls are in (throws when it fails its CRC-32): before the run is served. */
export function checkCalls(calls: CallsReader, run: StoredRun): void {
  calls.check([run[7], run[8], run[9]]);
}

/** A run's calls, from the calls file read with the entry (throws a UserError naming the file when they are damaged). */
export function readCalls(calls: CallsReader, run: StoredRun): CallRecord[] {
  return calls.callsAt([run[7], run[8], run[9]]);
}
