/**
 * A cache of compiled traces (`--cache-dir` for replay, whatif and sweep): every run of an input file
 * compiled (src/fast/compile.ts) and stored in one entry (compiledEntry.ts), so that a repeated replay
 * or sweep of the same inputs starts from the compiled traces without reading, parsing or compiling the
 * input. An entry's key is the SHA-256 of the input's bytes (contentHash.ts), its path as given, the read
 * limits, loopcost's version, the cache format, the compiled trace's field layout and a hash of the
 * compiler's own code and the importers' (src/fast, src/kernel, src/brakes, src/import: compilerCode.ts), so a
 * changed input, another loopcost, a changed compiler or importer never meets an old entry.
 *
 * A run served from an entry is a Trace whose source, header and end are read from the entry, handed
 * over with its compiled trace (src/replay/compiledRuns.ts; its arrays views of its block's, entryBlocks.ts);
 * its `calls` are inflated from the entry's calls (read with the entry) only if something asks for them
 * (the compiled replay, what-ifs, sweeps and their reports do not), their chunk's CRC-32 checked before
 * the run is served. Only formats whose runs depend on the input's bytes alone are kept, as in the runs
 * cache (traceCache.ts), and no run read in part from another file (readsOtherFile). The cache never
 * makes a run fail: an entry not to be trusted (cut short, foreign, failing a CRC-32: its head's, a
 * block's, a calls chunk's) is ignored and written again; an
 * entry that cannot be written is skipped. The directory is bounded (cacheBound.ts): an entry read is
 * touched, every entry written sweeps the least recently used past the bound away, and an entry that
 * grows past the whole bound while written is abandoned.
 */
import { join } from 'node:path';
import { sha256Hex } from '../io/builtins.js';
import { blankCompiled, compiledTrace } from '../fast/compile.js';
import type { RunsCache } from '../import/index.js';
import type { TraceFormat } from '../import/formats.js';
import { makeDirectories } from '../io/makeDirectories.js';
import { handOverCompiled } from '../replay/compiledRuns.js';
import type { Trace } from '../trace/types.js';
import { BoundedDir, type CacheBound } from './cacheBound.js';
import { joinValue, shapeOf } from './compiledCodec.js';
import { EntryWriter, storedHeaderLine, storedRunCallLines, type EntryFiles, type StoredRun } from './compiledEntry.js';
import { checkCalls, readCalls, readEntry, type LoadedEntry } from './entryRead.js';
import { contentHash } from './contentHash.js';
import { SELF_CONTAINED } from './traceCache.js';
import { compilerCodeHash } from './compilerCode.js';

export { compilerCodeHash } from './compilerCode.js';

/** Part of every key and every entry's head; bump it when the entry's layout changes. */
// 4: a compiled trace holds its provider's refusal (CompiledTrace.refusal), and importers read refusals into runs.
// 5: a compiled trace holds whether its recorded run's model gave up after its last call (CompiledTrace.gaveUp).
// 6: that field is whether its recorded run asked for no call after its last: gave up, or aborted (CompiledTrace.endsAfterLastCall).
// 7: inputs read under the rules of src/trace/rules.ts that refuse a refusal contradicting itself (an entry of one read before is not served).
// 8: a tool call the run never reached (`unreached`) is not compiled, nor is a final mark of the call it is in; a failed call's status is 100–599 and no final answer.
// 9: an aborted live recording is known by its end record's `aborted` mark (its status's words only for recordings written before the mark).
// 11: runs in blocks (entryBlocks.ts), a compiled trace's fields as a shared template and the run's leaves, calls in deflated chunks (callsChunks.ts).
// 12: CRC-32s: the head's (a 20-byte trailer), each block's bytes (in its block head) and each calls chunk's (instead of a SHA-1).
// 13: a compiled trace holds how long its run's cache writes may last (CompiledTrace.cacheWrites: the predictive bound's write price).
// 14: a run with a call after its final call is refused when read (trace/rules.ts call_after_final): an entry compiled for one before is never served.
// 15: each run keeps its header's line (StoredRun's last element, Trace.headerLine: an unknown model names it).
// 16: importers read runs differently (Codex 0.40's token_count before its items, turn_aborted; mini-swe-agent's served-model note; Claude Code thinking_tokens): an entry of one read before is not served.
// An importer's change needs no bump from 16 on: the key's compilerCodeHash covers src/import (compilerCode.ts).
// A change to what the entry's writer writes or its reader reads fails test/cache/cacheGolden.test.ts until this is bumped.
// 17: each run keeps its calls' lines (StoredRun's last element, Trace.callLines: a call past $9,007 on its own names its line).
// 18: a call's record holds its web searches (CallField.WebSearches, billed per search): one more number a call, so an entry of 17 would be read a field off.
// 19: a call's record holds the output tokens that enter the context (CompiledField.ContextOutput: less the reasoning where the header says it does not re-enter): one more number a call.
export const COMPILED_CACHE_FORMAT = 'loopcost.compiled-cache/19';

/** The compiled trace's field names and array kinds, in order. */
export const layoutShape = (): string => shapeOf(blankCompiled());

export class CompiledTraceCache implements RunsCache {
  private readonly shape = layoutShape();
  private readonly bounded: BoundedDir;

  /**
   * `compact` (default on): store arrays as column programs (columnProgram.ts); off, every array whole (a view of the buffer read).
   * `bound`: most entries and bytes the directory keeps (default DEFAULT_CACHE_BOUND, cacheBound.ts).
   */
  constructor(
    readonly dir: string,
    private readonly version: string,
    private readonly options: { compact?: boolean; bound?: Partial<CacheBound> } = {},
  ) {
    this.bounded = new BoundedDir(dir, options.bound);
  }

  async *runsOf(path: string, settings: string, read: (formatSeen: (format: TraceFormat) => void) => AsyncGenerator<Trace>): AsyncGenerator<Trace> {
    const key = this.keyOf(path, settings);
    if (key === undefined) {
      yield* read(() => undefined);
      return;
    }
    const files = this.filesOf(key);
    const entry = readEntry(files, { cache: COMPILED_CACHE_FORMAT, key, shape: this.shape });
    if (entry === undefined) {
      yield* this.readAndStore(key, files, read);
      return;
    }
    this.bounded.use(key, files.compiled);
    // Each block checked and decoded when its first run is taken, so the first run is ready at once and a
    // replay's decoded arrays go as its blocks' runs do. A run that does not decode or whose block or calls
    // chunk fails its CRC-32 (an entry to be trusted no further): the input is read and its entry written
    // again, and the runs already served are not served twice.
    let served = 0;
    const checked = new Set<number>();
    for (const run of entry.head.runs) {
      const trace = servedRun(entry, run, checked);
      if (trace === undefined) {
        yield* skipFirst(this.readAndStore(key, files, read), served);
        return;
      }
      served += 1;
      yield trace;
    }
  }

  /** The entry's key; undefined when the input is no regular file or cannot be read. */
  keyOf(path: string, settings: string): string | undefined {
    const content = contentHash(path, { dir: this.dir, bounded: this.bounded });
    if (content === undefined) return undefined;
    try {
      return sha256Hex(JSON.stringify([COMPILED_CACHE_FORMAT, this.version, this.shape, compilerCodeHash(), settings, path, content.sha256]));
    } catch {
      return undefined;
    }
  }

  private filesOf(key: string): EntryFiles {
    return { compiled: join(this.dir, `${key}.lcc`), calls: join(this.dir, `${key}.calls`) };
  }

  private async *readAndStore(key: string, files: EntryFiles, read: (formatSeen: (format: TraceFormat) => void) => AsyncGenerator<Trace>): AsyncGenerator<Trace> {
    let format: TraceFormat | undefined;
    let writer: EntryWriter | undefined;
    try {
      if (!this.bounded.mayWrite()) throw new RangeError('this command\'s entries fill the cache bound');
      makeDirectories(this.dir);
      writer = new EntryWriter(files, { cache: COMPILED_CACHE_FORMAT, key, shape: this.shape }, this.options.compact ?? true);
    } catch {
      writer = undefined;
    }
    try {
      for await (const trace of read((seen) => (format = seen))) {
        if (writer !== undefined) {
          try {
            writer.add(trace, compiledTrace(trace));
            await writer.written();
            if (!this.bounded.mayWrite(writer.bytes)) throw new RangeError('entry larger than the cache bound');
          } catch {
            writer.abandon();
            writer = undefined;
          }
        }
        yield trace;
      }
      if (writer !== undefined && format !== undefined && SELF_CONTAINED.has(format)) {
        try {
          await writer.finish((bytes) => this.bounded.mayWrite(bytes));
          this.bounded.written(key);
        } catch {
          writer.abandon();
        }
        writer = undefined;
      }
    } finally {
      writer?.abandon();
    }
  }
}

/** One run of an entry with its compiled trace handed over; undefined when it does not decode (the layout changed, a bad program) or its block or calls chunk fails its CRC-32. */
function servedRun(entry: LoadedEntry, run: StoredRun, checked: Set<number>): Trace | undefined {
  try {
    // Filled as compileTrace fills a fresh one: the same fields in the same order (the same shape for V8).
    const compiled = blankCompiled();
    const template = entry.head.templates[run[3]] as object;
    if (!checked.has(run[3])) {
      const fields = Object.keys(compiled);
      const stored = Object.keys(template);
      if (stored.length !== fields.length || stored.some((field, i) => field !== fields[i])) return undefined;
      checked.add(run[3]);
    }
    joinValue(template, run[4], entry.arraysOf(run), compiled as unknown as Record<string, unknown>);
    const calls = entry.calls;
    // Checked now, while the input can still be read in its place: once served, a run's calls are read by a getter.
    checkCalls(calls, run);
    const trace = storedTrace(run, () => readCalls(calls, run));
    handOverCompiled(trace, compiled);
    return trace;
  } catch {
    return undefined;
  }
}

/** The runs of `runs` after its first `count`. */
async function* skipFirst(runs: AsyncGenerator<Trace>, count: number): AsyncGenerator<Trace> {
  let seen = 0;
  for await (const trace of runs) if (seen++ >= count) yield trace;
}

/** A run served from an entry: source, header line, header, call lines and end as stored; its calls inflated when first asked for. */
function storedTrace(run: StoredRun, readRunCalls: () => Trace['calls']): Trace {
  const [source, header, end] = run;
  const headerLine = storedHeaderLine(run);
  const trace = (headerLine === undefined ? { source, header } : { source, headerLine, header }) as Trace;
  const settle = (calls: Trace['calls']): void => {
    Object.defineProperty(trace, 'calls', { value: calls, writable: true, enumerable: true, configurable: true });
  };
  Object.defineProperty(trace, 'calls', {
    enumerable: true,
    configurable: true,
    get(): Trace['calls'] {
      const calls = readRunCalls();
      settle(calls);
      return calls;
    },
    set: settle,
  });
  const callLines = storedRunCallLines(run);
  if (callLines !== undefined) trace.callLines = callLines;
  trace.end = end;
  return trace;
}
