/**
 * One entry of the compiled-trace cache (compiledCache.ts): every run of one input file compiled, in two
 * files. `<key>.lcc` holds the compiled traces' arrays in blocks (entryBlocks.ts: runs of the same
 * arrays gathered, up to ~1 MB of them a block, each block's arrays stored as column programs,
 * columnProgram.ts: constants, copies, narrow running totals; each payload at an 8-byte boundary) one
 * block after another, then a JSON head (the blocks' programs and payload table; each run's source,
 * header, end, block and place in it, and its compiled trace's other fields as a template shared by
 * the runs of one layout and the run's own leaves, compiledCodec.ts splitValue), then a 20-byte trailer
 * (head offset, head length, the head's CRC-32, magic). Each block's bytes carry a CRC-32 (in its block
 * head) and so does each calls chunk (callsChunks.ts). It is read (entryRead.ts) with one read into one
 * buffer; a block is checked and decoded from it when one of its runs is first asked for (an array
 * stored whole is a view of it). `<key>.calls` holds the runs' calls as deflated JSON in chunks, read
 * with the entry, each chunk checked when its first run is served and inflated only if something asks
 * for a run's calls (see compiledCache.ts): an entry evicted (cacheBound.ts) while its runs are in use
 * has nothing left to read.
 *
 * A file that is shorter or longer than its trailer says, lacks a magic, fails a CRC-32, names another
 * key or shape, or points outside itself is not trusted (the input is read again and the entry
 * rewritten). Writes go to temporary files renamed into place (the calls file first), so a reader never
 * sees half an entry.
 */
import { closeSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { nodeWorkerThreads } from '../io/builtins.js';
import type { ListsEvery } from '../options/rules.js';
import { callLinesOfStored, storedCallLines } from '../trace/callLines.js';
import type { Trace } from '../trace/types.js';
import { CALLS_CHUNKS_IN_FLIGHT, CallsWriter, crc32Of, type CallsAt, type CallsChunk } from './callsChunks.js';
import { fitsTemplate, NotStorable, pad8, splitValue, type ArrayEntry, type ArrayKind } from './compiledCodec.js';
import type { ArrayProgram } from './columnProgram.js';
import { BlockWriter, type BlockHead, type EncodedBlock } from './entryBlocks.js';
import { readsOtherFile } from './traceCache.js';

export const MAGIC = Buffer.from('LCCACHE4', 'latin1');
export const TRAILER_MAGIC = 0x4c434334; // "LCC4"
/** Head offset (float64), head length, the head's CRC-32, magic (uint32 each), little-endian. */
export const TRAILER_BYTES = 20;

/**
 * One run in the head: what the report reads of the trace besides its calls; its compiled trace's
 * template (an index into the head's `templates`) and leaves; its block and index in it; where its calls
 * are; its header's line (Trace.headerLine; null: none); its calls' lines (Trace.callLines as trace/callLines.ts stores them; null: none).
 */
export type StoredRun = [source: string, header: Trace['header'], end: Trace['end'], template: number, leaves: unknown[], block: number, index: number, ...calls: CallsAt, headerLine: number | null, callLines: number[] | null];

/**
 * Every field of a Trace, each kept by a StoredRun (calls in the calls file) but `modelPlace`: a run that
 * has one is not kept at all (traceCache.ts readsOtherFile). The compiler holds the list complete, so a
 * field Trace gains fails to build until an entry keeps it (a cached run would lose it) or says why not.
 */
const TRACE_FIELDS = ['source', 'headerLine', 'modelPlace', 'header', 'calls', 'callLines', 'end'] as const;
const TRACE_FIELDS_LISTED: ListsEvery<Trace, typeof TRACE_FIELDS> = true;
void TRACE_FIELDS_LISTED;

/** A stored run's header line (Trace.headerLine): undefined when it has none, or the entry holds something else there. */
export function storedHeaderLine(run: StoredRun): number | undefined {
  const line = run[10];
  return typeof line === 'number' ? line : undefined;
}

/** A stored run's call lines (Trace.callLines): undefined when it has none, or the entry holds something else there. */
export function storedRunCallLines(run: StoredRun): Int32Array | undefined {
  return callLinesOfStored(run[11]);
}

export interface EntryHead {
  cache: string;
  key: string;
  /** What the compiled trace's fields and array kinds were when written (compiledCache.ts: layoutShape). */
  shape: string;
  callsBytes: number;
  /** The calls file's chunks (callsChunks.ts). */
  calls: CallsChunk[];
  /** Every block's array programs (columnProgram.ts), block after block. */
  arrays: ArrayProgram[];
  /** [kind, byte offset, length] of every payload. */
  payloads: [ArrayKind, number, number][];
  /** Every block (entryBlocks.ts), by id. */
  blocks: BlockHead[];
  /** Every distinct template of a compiled trace (compiledCodec.ts splitValue; one per layout, not per run). */
  templates: unknown[];
  runs: StoredRun[];
}

export interface EntryFiles {
  compiled: string;
  calls: string;
}

/** Writes an entry run by run (nothing kept in memory but the head and the blocks being filled); `finish` renames it into place, `abandon` removes it. */
export class EntryWriter {
  private readonly temporary: EntryFiles;
  private readonly fd: number;
  private readonly callsFd: number;
  private offset = MAGIC.length;
  private readonly arrays: EntryHead['arrays'] = [];
  private readonly payloads: EntryHead['payloads'] = [];
  private readonly blockHeads: BlockHead[] = [];
  private readonly runs: StoredRun[] = [];
  private readonly templates: unknown[] = [];
  private lastTemplate = 0;
  private readonly blocks: BlockWriter;
  private readonly calls: CallsWriter;

  /** Bytes written so far (both files). */
  get bytes(): number {
    return this.offset + this.calls.bytes;
  }

  constructor(
    private readonly files: EntryFiles,
    private readonly head: Pick<EntryHead, 'cache' | 'key' | 'shape'>,
    compact = true,
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
    this.blocks = new BlockWriter(compact, (id, block) => this.writeBlock(id, block));
    this.calls = new CallsWriter(this.callsFd);
  }

  /** Appends one run (throws NotStorable for a compiled trace the codec cannot describe, or a run read in part from another file). */
  add(trace: Trace, compiled: object): void {
    if (readsOtherFile(trace)) throw new NotStorable(`${trace.source} reads ${trace.modelPlace!.file}`);
    const found: ArrayEntry[] = [];
    const leaves: unknown[] = [];
    const template = this.templateOf(compiled, found, leaves);
    // A template names its arrays' kinds in order: runs of one template can share a block.
    const [block, index] = this.blocks.add(template, found);
    this.runs.push([trace.source, trace.header, trace.end, template, leaves, block, index, ...this.calls.add(trace.calls), trace.headerLine ?? null, trace.callLines === undefined ? null : storedCallLines(trace.callLines)]);
  }

  /** The index of the template `compiled` splits into (the last one used tried first, then the others, else a new one), its arrays and leaves filled in. */
  private templateOf(compiled: object, found: ArrayEntry[], leaves: unknown[]): number {
    const fits = (index: number): boolean => {
      found.length = 0;
      leaves.length = 0;
      return fitsTemplate(compiled, this.templates[index], found, leaves);
    };
    if (this.templates.length > 0 && fits(this.lastTemplate)) return this.lastTemplate;
    for (let index = 0; index < this.templates.length; index++) if (index !== this.lastTemplate && fits(index)) return (this.lastTemplate = index);
    found.length = 0;
    leaves.length = 0;
    this.templates.push(splitValue(compiled, found, leaves));
    return (this.lastTemplate = this.templates.length - 1);
  }

  /** A closed block's payloads, one after another at 8-byte boundaries, and its programs, payload table, place and CRC-32 in the head. */
  private writeBlock(id: number, { programs, payloads, runs, starts }: EncodedBlock): void {
    const [offset, firstArray, firstPayload] = [this.offset, this.arrays.length, this.payloads.length];
    for (const program of programs) this.arrays.push(program);
    let size = 0;
    for (const data of payloads) size = pad8(size) + data.byteLength;
    const block = Buffer.alloc(pad8(size));
    let at = 0;
    for (const data of payloads) {
      at = pad8(at);
      block.set(new Uint8Array(data.buffer, data.byteOffset, data.byteLength), at);
      this.payloads.push([data.constructor.name as ArrayKind, offset + at, data.length]);
      at += data.byteLength;
    }
    this.blockHeads[id] = [firstArray, programs.length, firstPayload, runs, starts ? 1 : 0, offset, block.length, crc32Of(block)];
    writeSync(this.fd, block);
    this.offset += block.length;
  }

  /** Writes the calls deflated so far; waits while more than CALLS_CHUNKS_IN_FLIGHT chunks are deflating. */
  async written(): Promise<void> {
    await this.calls.writtenAtMost(CALLS_CHUNKS_IN_FLIGHT);
  }

  /**
   * Writes the last blocks, the calls still deflating and the head, then renames the entry into place;
   * throws (the caller abandons it) when the whole entry does not `fit` (the cache bound: most of a small
   * input's entry is written here, its blocks and calls chunk not yet full).
   */
  async finish(fits: (bytes: number) => boolean = () => true): Promise<void> {
    this.blocks.finish();
    await this.calls.written();
    const head: EntryHead = {
      ...this.head,
      callsBytes: this.calls.bytes,
      calls: this.calls.chunks,
      arrays: this.arrays,
      payloads: this.payloads,
      blocks: this.blockHeads,
      templates: this.templates,
      runs: this.runs,
    };
    const text = Buffer.from(JSON.stringify(head), 'utf8');
    const trailer = Buffer.alloc(TRAILER_BYTES);
    trailer.writeDoubleLE(this.offset, 0);
    trailer.writeUInt32LE(text.length, 8);
    trailer.writeUInt32LE(crc32Of(text), 12);
    trailer.writeUInt32LE(TRAILER_MAGIC, 16);
    writeSync(this.fd, text);
    writeSync(this.fd, trailer);
    this.offset += text.length + trailer.length;
    if (!fits(this.bytes)) throw new RangeError('entry larger than the cache bound');
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
