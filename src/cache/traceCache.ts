/**
 * A cache of the runs read from trace files, for repeated replays and sweeps of the same inputs (off
 * unless `--cache-dir` is given). An entry is keyed by the SHA-256 of the input's bytes, its path as given
 * (importers name it in the runs), loopcost's version, the cache format, the read limits and a hash of the
 * importers' code (compilerCode.ts importerCodeHash: a changed importer needs no format bump), so a changed
 * file, a new loopcost, another importer or other limits never meet an old entry: they look for another key. Only formats whose runs depend on the file's bytes alone
 * are kept (not SWE-agent trajectories, which read the `*.args.yaml` beside them, nor Claude Code
 * sessions, which read their sub-agents' files). The cache never makes a run fail: an entry that cannot be
 * read, fails its checksum or does not parse is ignored (the file is read as if there were none, and the
 * entry written again), and an entry that cannot be written is skipped.
 *
 * Entry file `<dir>/<key>.runs`: one JSON line `{cache, key, runs, sha256}` (sha256 of what follows),
 * then each run as one JSON line, parsed as the runs are taken. Measured (README, speed): ~2× faster than
 * reading the input again; `v8.serialize` was tried and its `deserialize` is slower than reading again.
 * The directory is bounded (cacheBound.ts): an entry read is touched, and every write sweeps the least
 * recently used entries past the bound away; an entry larger than the whole bound is not written.
 */
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sha256Hex } from '../io/builtins.js';
import { makeDirectories } from '../io/makeDirectories.js';
import { BoundedDir, type CacheBound } from './cacheBound.js';
import { contentHash } from './contentHash.js';
import { importerCodeHash } from './compilerCode.js';
import type { RunsCache } from '../import/index.js';
import type { TraceFormat } from '../import/formats.js';
import { callLinesOfStored, storedCallLines } from '../trace/callLines.js';
import type { Trace } from '../trace/types.js';

/**
 * Part of every key. An importer's change is keyed by itself (importerCodeHash); bump it when what an input
 * reads into changes otherwise without a new loopcost version (a development build keeps the package's version).
 */
// 2: importers read a provider's refusal of a prompt past the window into a failed call's contextLengthExceeded.
// 3: a refusal that contradicts itself, a 2xx failed status and an end completed after a refusal are refused (src/trace/rules.ts); importers leave a 2xx failed status out.
// 4: a logged time without a time zone is read as UTC (src/import/common/timestamp.ts); statuses outside 100-599 and a failed call marked final are refused, importers leave such statuses out; end records may say `aborted`, tool calls `unreached`.
// 5: a native run keeps its header's line (Trace.headerLine: an unknown model names it).
// 6: a Codex 0.40 rollout (token_count before its response's items) pairs each call with its own items; a turn_aborted ends its run.
// 7: a mini-swe-agent run notes the model its responses name when it is not the one it is priced as (miniSweAgent/servedModel.ts).
// 8: a native run keeps its calls' lines (Trace.callLines, stored as trace/callLines.ts stores them: a call past $9,007 on its own names its line).
// 9: calls keep the web searches run inside them (CallRecord.webSearchRequests: Claude Code, Codex, HTTP recordings), priced per search.
export const TRACE_CACHE_FORMAT = 'loopcost.runs-cache/9';

/** Largest input file kept: its runs are held in memory while it is read, to be written after. */
export const MAX_CACHED_INPUT_BYTES = 512 * 2 ** 20;

/** The formats whose runs depend on the input's bytes alone. */
export const SELF_CONTAINED: ReadonlySet<TraceFormat> = new Set<TraceFormat>(['native', 'mini-swe-agent', 'cassette', 'exchanges', 'otlp', 'codex']);

/**
 * A run read in part from another file than its input (Trace.modelPlace: a Claude Code sub-agent's run,
 * its model and calls read from its own transcript): an entry's key hashes the input's bytes alone, so
 * neither cache keeps such a run (a warm read would serve the other file's old calls and say its model's
 * place no more). SELF_CONTAINED keeps the formats that read other files out; this holds it run by run.
 */
export function readsOtherFile(trace: Trace): boolean {
  return trace.modelPlace !== undefined;
}

interface EntryHead {
  cache: string;
  key: string;
  runs: number;
  sha256: string;
}

export class TraceFileCache implements RunsCache {
  private readonly bounded: BoundedDir;

  /** `bound`: most entries and bytes the directory keeps (default DEFAULT_CACHE_BOUND, cacheBound.ts). */
  constructor(
    readonly dir: string,
    private readonly version: string,
    options: { bound?: Partial<CacheBound> } = {},
  ) {
    this.bounded = new BoundedDir(dir, options.bound);
  }

  async *runsOf(path: string, settings: string, read: (formatSeen: (format: TraceFormat) => void) => AsyncGenerator<Trace>): AsyncGenerator<Trace> {
    const key = this.keyOf(path, settings);
    const entry = key === undefined ? undefined : this.load(key);
    let served = 0;
    if (entry !== undefined) {
      try {
        for (const line of entry) {
          const run = JSON.parse(line) as Trace;
          const callLines = callLinesOfStored(run.callLines);
          if (callLines === undefined) delete run.callLines;
          else run.callLines = callLines;
          served += 1;
          yield run;
        }
        return;
      } catch {
        // An entry that passed its checksum but does not parse: read the file for the runs not yet served.
      }
    }
    let format: TraceFormat | undefined;
    const kept: Trace[] = [];
    let index = 0;
    for await (const trace of read((seen) => (format = seen))) {
      if (key !== undefined) kept.push(trace);
      if (index++ >= served) yield trace;
    }
    if (key !== undefined && format !== undefined && SELF_CONTAINED.has(format) && !kept.some(readsOtherFile)) this.store(key, kept);
  }

  /** The entry's key: undefined when the input is no regular file, is too large to keep, or cannot be read. */
  keyOf(path: string, settings: string): string | undefined {
    const content = contentHash(path, { dir: this.dir, maxBytes: MAX_CACHED_INPUT_BYTES, bounded: this.bounded });
    if (content === undefined) return undefined;
    return sha256Hex(JSON.stringify([TRACE_CACHE_FORMAT, this.version, importerCodeHash(), settings, path, content.sha256]));
  }

  private entryPath(key: string): string {
    return join(this.dir, `${key}.runs`);
  }

  /**
   * The runs of an entry that holds (its head names this key and format, its checksum matches), one JSON
   * text each, decoded as they are taken (the first run is ready once the entry is read and checked); else undefined.
   */
  load(key: string): Iterable<string> | undefined {
    try {
      const path = this.entryPath(key);
      const bytes = readFileSync(path);
      const end = bytes.indexOf(10);
      if (end < 0) return undefined;
      const head = JSON.parse(bytes.subarray(0, end).toString('utf8')) as EntryHead;
      const payload = bytes.subarray(end + 1);
      if (head.cache !== TRACE_CACHE_FORMAT || head.key !== key || !Number.isSafeInteger(head.runs)) return undefined;
      if (sha256Hex(payload) !== head.sha256) return undefined;
      this.bounded.use(key, path);
      return linesOf(payload, head.runs);
    } catch {
      return undefined;
    }
  }

  /**
   * Writes an entry (the directory created if need be; to a temporary file renamed into place, so a
   * reader never sees half of one), then sweeps the directory to its bound; a failure is ignored.
   */
  store(key: string, runs: readonly Trace[]): void {
    const target = this.entryPath(key);
    const temporary = `${target}.${process.pid}.tmp`;
    try {
      const payload = Buffer.from(runs.map((run) => JSON.stringify(run.callLines === undefined ? run : { ...run, callLines: storedCallLines(run.callLines) })).join('\n'), 'utf8');
      const head: EntryHead = { cache: TRACE_CACHE_FORMAT, key, runs: runs.length, sha256: sha256Hex(payload) };
      const bytes = Buffer.concat([Buffer.from(`${JSON.stringify(head)}\n`, 'utf8'), payload]);
      if (!this.bounded.mayWrite(bytes.length)) return;
      makeDirectories(this.dir);
      writeFileSync(temporary, bytes);
      renameSync(temporary, target);
      this.bounded.written(key);
    } catch {
      rmSync(temporary, { force: true });
    }
  }
}

/** The `count` newline-separated lines of `payload`, decoded one at a time. */
function* linesOf(payload: Buffer, count: number): Generator<string> {
  let start = 0;
  for (let line = 0; line < count; line++) {
    const newline = payload.indexOf(10, start);
    const end = newline < 0 ? payload.length : newline;
    if (start > payload.length || (newline < 0) !== (line === count - 1)) throw new Error('cache entry: run count does not match');
    yield payload.toString('utf8', start, end);
    start = end + 1;
  }
}
