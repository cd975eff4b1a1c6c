/**
 * Reads any supported trace file into native runs, detecting the format from the content (never from
 * the name alone): native JSONL, mini-swe-agent and SWE-agent trajectories, provider HTTP exchanges as
 * JSONL or VCR cassettes, OpenTelemetry GenAI spans as OTLP JSON, Claude Code transcripts and Codex CLI
 * rollouts. Detection is light (src/import/formats.ts); the importer of the detected format is loaded then.
 * The synchronous `importText` is in importText.ts (it loads every importer).
 */
import { refuseWideText } from '../io/inputErrors.js';
import { readLimits, type ReadLimits } from '../io/limits.js';
import { openInput, type OpenedInput } from '../io/openInput.js';
import type { RangeRead } from '../io/byteRangeTypes.js';
import { lineBatches, readDocument } from '../io/readLines.js';
import { streamNativeTracesAsync, type HeaderRead } from '../trace/parseNative.js';
import type { Trace } from '../trace/types.js';
import { detectFormat, lineFormat, sessionFileCandidates, type TraceFormat } from './formats.js';
import { handedOver, importWith, loadImporter, placedError } from './importers.js';
import { readNativeRange } from './nativeRange.js';
import { siblingSessionFiles } from './claudeCode/siblingAgents.js';
import { walkSiblingsKey } from './claudeCode/walkSiblings.js';
import { madeValidStream } from '../options/traceValues.js';
import { requireReadArguments } from './readArguments.js';

export { detectFormat, type TraceFormat };

/** How inputs are read: the size limits (see src/io/limits.ts), and a cache of runs already read (none unless given). */
export interface ReadOptions {
  limits?: Partial<ReadLimits>;
  cache?: RunsCache;
  /** Only the runs whose header line starts in this byte range of a plain native file (nativeRange.ts; never with `cache`). */
  range?: RangeRead;
  /**
   * Told each valid header line of a native file read (not of runs a cache gives): also of a run never
   * handed out, its file found bad, so that a bad file's runs can still be placed in their session trees.
   */
  headerRead?: HeaderRead;
  /**
   * Every file of the walk this input is read in (a folder, a project, a command's inputs): a Claude Code
   * session file's calls that another session file of it copies are counted once (claudeCode/copiedCalls.ts).
   */
  walk?: readonly string[];
}

/** Runs already read from the same bytes under the same settings (src/cache/traceCache.ts). */
export interface RunsCache {
  /** The runs of `path`: from the cache when it holds them, else from `read` (which tells the format it found). */
  runsOf(path: string, settings: string, read: (formatSeen: (format: TraceFormat) => void) => AsyncGenerator<Trace>): AsyncGenerator<Trace>;
}

/** Reads one input (a file, gzip or plain, a pipe, or `-` for standard input) of any supported format. */
export async function loadTraceFile(path: string, options: ReadOptions = {}): Promise<Trace[]> {
  requireReadArguments('loadTraceFile', path, options);
  const traces: Trace[] = [];
  for await (const trace of streamTraceFile(path, options)) traces.push(trace);
  return traces;
}

/**
 * The runs of one input as they are read. Native JSONL is read line by line (constant memory however
 * large the input, gzip included); so are Claude Code transcripts (with their sub-agents' files) and
 * Codex rollouts, whose calls are gathered as the lines come and cut into runs at the end. The other
 * formats are one document each (a trajectory, a cassette) or, for exchanges JSONL, runs rebuilt from the
 * whole file, and are read whole (at most --max-line-mb).
 */
export function streamTraceFile(path: string, options: ReadOptions = {}): AsyncGenerator<Trace> {
  requireReadArguments('streamTraceFile', path, options);
  // The runs a reader makes are valid by construction: an entry point given one does not check its values again.
  return madeValidStream(readRuns(path, options));
}

function readRuns(path: string, options: ReadOptions): AsyncGenerator<Trace> {
  const limits = readLimits(options.limits);
  if (options.range !== undefined) return readNativeRange(path, options.range, limits);
  const told = { headerRead: options.headerRead, walk: options.walk };
  if (options.cache === undefined) return readTraceFile(path, limits, told);
  const siblings = walkSiblingsKey(path, options.walk);
  const settings = siblings === '' ? JSON.stringify(limits) : `${JSON.stringify(limits)}\u0000${siblings}`;
  return options.cache.runsOf(path, settings, (formatSeen) => readTraceFile(path, limits, { ...told, formatSeen }));
}

interface Told {
  formatSeen?: (format: TraceFormat) => void;
  headerRead?: HeaderRead | undefined;
  walk?: readonly string[] | undefined;
}

async function* readTraceFile(path: string, limits: ReadLimits, told: Told): AsyncGenerator<Trace> {
  const { formatSeen } = told;
  const input = await openInput(path, limits);
  try {
    refuseWideText(input.head, input.label);
    const format = lineFormat(new TextDecoder('utf-8').decode(input.head));
    if (format !== undefined) formatSeen?.(format);
    if (format === 'native') {
      yield* streamNativeTracesAsync(lineBatches(input, limits.maxLineBytes), input.label, told.headerRead);
    } else if (format === 'claude-code' || format === 'codex') {
      yield* await importAgentLog(format, input, { limits, walk: told.walk });
    } else {
      yield* await importDocument(await readDocument(input, limits), input.label, formatSeen);
    }
  } finally {
    await input.close();
  }
}

/** A whole document, read by the importer of the format it is detected to be (loaded now). */
async function importDocument(text: string, path: string, formatSeen?: (format: TraceFormat) => void): Promise<Trace[]> {
  let format: TraceFormat;
  try {
    format = detectFormat(text, path);
  } catch (error) {
    throw placedError(error, path);
  }
  formatSeen?.(format);
  const importer = await loadImporter(format);
  return importWith(() => importer, text, path, format);
}

/** A coding agent's log (Claude Code, Codex), read line by line, its runs handed over like every import's (one of none refused). */
async function importAgentLog(format: 'claude-code' | 'codex', input: OpenedInput, { limits, walk }: { limits: ReadLimits; walk: readonly string[] | undefined }): Promise<Trace[]> {
  const batches = lineBatches(input, limits.maxLineBytes);
  let traces: Trace[];
  try {
    traces =
      format === 'codex'
        ? await (await import('./codex.js')).importCodexStream(input.label, batches)
        : await (await import('./claudeCode.js')).importClaudeCodeStream(input.label, batches, limits, walk);
  } catch (error) {
    throw placedError(error, input.label);
  }
  return handedOver(traces, input.label);
}

/**
 * The inputs read on their own: a Claude Code sub-agent transcript whose session file is also given is
 * read with its session (one tree at a time), not alone: under `<session>/subagents/`, or beside it naming it (2.0.x).
 */
export function readAlone(paths: readonly string[]): string[] {
  const given = new Set(paths);
  return paths.filter((path) => ![...sessionFileCandidates(path), ...siblingSessionFiles(path)].some((session) => given.has(session)));
}

/**
 * The runs of many input files as an async generator, not a Promise: iterate it (`for await (const trace of
 * loadTraceFiles(paths))`); `await loadTraceFiles(…)` gives the generator itself. One file at a time, each as
 * it streams (see `streamTraceFile` and `readAlone`); files only: `readTraces(paths)` reads directories and
 * globs too, into a `Promise<Trace[]>`.
 */
export async function* loadTraceFiles(paths: readonly string[], options: ReadOptions = {}): AsyncGenerator<Trace> {
  const walk = readAlone(paths);
  for (const path of walk) yield* streamTraceFile(path, { walk, ...options });
}
