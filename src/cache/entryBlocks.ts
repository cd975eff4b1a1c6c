/**
 * Blocks of runs in a compiled-trace entry (compiledEntry.ts). Runs whose compiled traces have the same
 * typed arrays (the same kinds in the same order) are gathered into a block of up to BLOCK_BYTES of
 * arrays, and a block is stored as one unit of column programs (columnProgram.ts): for each of the
 * runs' arrays, where each run's part starts (a running total) and the runs' parts one after another.
 * A run of many small runs so costs one set of programs, one search for columns and one payload table
 * per block instead of per run (8,000 runs of ~10 calls: ~35 programs each), and a large run is a
 * block of its own, as it was a unit of its own before.
 *
 * Read back, a block is decoded as one unit (runArrays.ts: its own arrays carved out of one buffer, an
 * array stored whole a view of the entry's buffer), when a run of it is first asked for, and a run's
 * arrays are views of the block's (`subarray`): nothing writes a compiled array after compileTrace, so
 * sharing is sound, as it is for runArrays' constants and copies.
 */
import { ARRAY_KINDS, type ArrayEntry, type ArrayKind, type StoredArray } from './compiledCodec.js';
import { encodeArrays, type ArrayProgram } from './columnProgram.js';
import { runArrays, type Constants } from './runArrays.js';

/** A block is closed once its runs' arrays reach this many bytes (a larger run is a block of its own). */
export const BLOCK_BYTES = 2 ** 20;

/**
 * A run with this many bytes of arrays or more is a block of its own: its columns are long enough to
 * encode well alone, and joined with others' they compress worse (the 98 MB benchmark's entry, ~3 runs a
 * block: 13.3 MB against 6.7 MB a run per block).
 */
export const SOLO_RUN_BYTES = 2 ** 16;

/**
 * The block's first array program and their number, its first payload, its runs, whether it stores where
 * each run's part starts (1; 0: one run, its arrays stored whole), and its bytes in the entry: their
 * offset, length and CRC-32 (checked before the block is decoded, compiledEntry.ts; format 12).
 */
export type BlockHead = [arrays: number, arrayCount: number, payloads: number, runs: number, starts: 0 | 1, offset: number, bytes: number, crc32: number];

/** A closed block encoded: its programs and payloads (block-relative), its runs, and whether it stores their starts. */
export interface EncodedBlock {
  programs: ArrayProgram[];
  payloads: StoredArray[];
  runs: number;
  starts: boolean;
}

/** A growing typed array: an open block's parts of one array, or where they start. */
class Parts {
  array: StoredArray;
  length = 0;

  constructor(readonly kind: ArrayKind) {
    this.array = new ARRAY_KINDS[kind](64);
  }

  push(data: StoredArray): void {
    this.reserve(data.length);
    this.array.set(data, this.length);
    this.length += data.length;
  }

  pushOne(value: number): void {
    this.reserve(1);
    this.array[this.length++] = value;
  }

  private reserve(more: number): void {
    if (this.length + more <= this.array.length) return;
    const grown = new ARRAY_KINDS[this.kind](Math.max(this.length + more, 2 * this.array.length));
    grown.set(this.array.subarray(0, this.length));
    this.array = grown;
  }

  /** The parts so far (a view, valid until the next push). */
  view(): StoredArray {
    return this.array.subarray(0, this.length) as StoredArray;
  }
}

interface OpenBlock {
  id: number;
  runs: number;
  bytes: number;
  /** For each of the runs' arrays: where each run's part starts, and the parts. */
  starts: Parts[];
  parts: Parts[];
}

/**
 * Gathers runs' arrays into blocks, copied in as each run is added (the writer keeps no run); each block,
 * once closed, is encoded and handed to `write` with its id (ids in order of opening). A closed block's
 * memory is used again by the next block of its signature.
 */
export class BlockWriter {
  private readonly open = new Map<number, OpenBlock>();
  private readonly spare = new Map<number, OpenBlock>();
  private opened = 0;

  constructor(
    private readonly compact: boolean,
    private readonly write: (id: number, block: EncodedBlock) => void,
  ) {}

  /**
   * Adds a run's arrays (in the order its description names them) to the open block of `signature`
   * (runs of one signature have arrays of the same kinds in the same order): its block's id and its index in the block.
   */
  add(signature: number, arrays: readonly ArrayEntry[]): [block: number, index: number] {
    if (arrays.reduce((bytes, entry) => bytes + entry.data.byteLength, 0) >= SOLO_RUN_BYTES) return this.solo(arrays);
    const block = this.blockOf(signature, arrays);
    const index = block.runs++;
    if (arrays.length !== block.parts.length) throw new Error('a run of another layout');
    arrays.forEach((entry, slot) => {
      const parts = block.parts[slot]!;
      if (entry.kind !== parts.kind) throw new Error('a run of another layout');
      block.starts[slot]!.pushOne(parts.length);
      parts.push(entry.data);
      block.bytes += entry.data.byteLength;
    });
    if (block.bytes >= BLOCK_BYTES) {
      this.open.delete(signature);
      this.close(signature, block);
    }
    return [block.id, index];
  }

  /** Closes every open block, in the order they were opened. */
  finish(): void {
    const blocks = [...this.open].sort(([, a], [, b]) => a.id - b.id);
    this.open.clear();
    for (const [signature, block] of blocks) this.close(signature, block);
  }

  /** A large run: a block of its own, its arrays stored whole (no starts), encoded and written at once; any open block of its layout stays open. */
  private solo(arrays: readonly ArrayEntry[]): [block: number, index: number] {
    const id = this.opened++;
    this.write(id, { ...encodeArrays(arrays.map((entry) => entry.data), arrays.map((entry) => entry.kind), this.compact), runs: 1, starts: false });
    return [id, 0];
  }

  private blockOf(signature: number, arrays: readonly ArrayEntry[]): OpenBlock {
    let block = this.open.get(signature);
    if (block === undefined) {
      block = this.spare.get(signature);
      this.spare.delete(signature);
      if (block === undefined) block = { id: 0, runs: 0, bytes: 0, starts: arrays.map(() => new Parts('Uint32Array')), parts: arrays.map((entry) => new Parts(entry.kind)) };
      block.id = this.opened++;
      this.open.set(signature, block);
    }
    return block;
  }

  /** Encodes and writes a block: for each of its arrays, where each run's part starts (runs + 1 numbers), then the parts one after another. */
  private close(signature: number, block: OpenBlock): void {
    const arrays: StoredArray[] = [];
    const kinds: ArrayKind[] = [];
    block.parts.forEach((parts, slot) => {
      const starts = block.starts[slot]!;
      starts.pushOne(parts.length);
      arrays.push(starts.view(), parts.view());
      kinds.push('Uint32Array', parts.kind);
    });
    this.write(block.id, { ...encodeArrays(arrays, kinds, this.compact), runs: block.runs, starts: true });
    for (const parts of [...block.starts, ...block.parts]) parts.length = 0;
    block.runs = 0;
    block.bytes = 0;
    this.spare.set(signature, block);
  }
}

/** How a block's unit is read: the entry's programs, its payload `index` of the block (a view of the entry's buffer), its constants. */
export interface BlockSource {
  programs: readonly ArrayProgram[];
  payloadAt: (block: BlockHead, index: number) => StoredArray;
  constants: Constants;
}

/** A block's runs' arrays: run `index`'s array `slot` (a view of the block's), the block decoded when first asked for. Throws on a block that does not fit. */
export function blockRuns(block: BlockHead, source: BlockSource): (index: number, slot: number) => StoredArray {
  const [base, count, , runs, starts] = block;
  if (![base, count, runs].every((n) => Number.isSafeInteger(n) && n >= 0) || (starts === 1 ? count % 2 !== 0 : starts !== 0 || runs !== 1) || base + count > source.programs.length) throw new Error('bad block');
  const unit = runArrays({ programs: source.programs, base, end: base + count, payloadAt: (index) => source.payloadAt(block, index), constants: source.constants });
  if (starts === 0) {
    return (index, slot) => {
      if (!(index === 0 && slot >= 0 && slot < count)) throw new Error('bad run of a block');
      return unit(slot);
    };
  }
  return (index, slot) => {
    if (!(index >= 0 && index < runs && slot >= 0 && 2 * slot < count)) throw new Error('bad run of a block');
    const starts = unit(2 * slot);
    const parts = unit(2 * slot + 1);
    const from = starts[index]!;
    const to = starts[index + 1]!;
    if (!(starts instanceof Uint32Array) || starts.length !== runs + 1 || !(from <= to && to <= parts.length)) throw new Error('bad block starts');
    return parts.subarray(from, to) as StoredArray;
  };
}
