/**
 * Reads any supported trace file into native runs, detecting the format from the content (never from
 * the name alone): native JSONL, mini-swe-agent and SWE-agent trajectories, provider HTTP exchanges as
 * JSONL or VCR cassettes, OpenTelemetry GenAI spans as OTLP JSON, Claude Code transcripts and Codex CLI
 * rollouts.
 */
import { existsSync, readdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { MAX_REPORTED_ISSUES, UserError } from '../errors.js';
import { traceRuleIssues } from '../trace/rules.js';
import { MAX_NESTING_DEPTH, readLimits, type ReadLimits } from '../io/limits.js';
import { openInput, STDIN_LABEL, type OpenedInput } from '../io/openInput.js';
import { readSmallTextFileSync } from '../io/readInput.js';
import { lineBatches, readDocument } from '../io/readLines.js';
import { looksLikeNativeTrace, parseNativeTraces, streamNativeTracesAsync } from '../trace/parseNative.js';
import type { Trace } from '../trace/types.js';
import { importClaudeCodeStream, importClaudeCodeText, looksLikeClaudeCodeLine, sessionFileCandidates } from './claudeCode.js';
import { importCodexStream, importCodexText, looksLikeCodexRolloutLine } from './codex.js';
import { parseJsonDocument } from './common/jsonDocument.js';
import { importCassette, looksLikeCassette } from './http/cassette.js';
import { importExchangesJsonl, looksLikeExchangeLine } from './http/exchanges.js';
import { importMiniSweAgent, looksLikeMiniSweAgent } from './miniSweAgent.js';
import { importOtlpJson, looksLikeOtlp } from './otel.js';
import { importSweAgent, looksLikeSweAgent } from './sweAgent.js';

export type TraceFormat = 'native' | 'mini-swe-agent' | 'swe-agent' | 'cassette' | 'exchanges' | 'otlp' | 'claude-code' | 'codex';

/** The first non-blank line (BOM and leading blank lines skipped), and whether it is whole (a newline ends it). */
function firstLineOf(text: string): { line: string; whole: boolean } {
  const trimmed = text.replace(/^\uFEFF/, '').trimStart();
  const end = trimmed.indexOf('\n');
  return end < 0 ? { line: trimmed, whole: false } : { line: trimmed.slice(0, end), whole: true };
}

/** The SWE-agent run's `*.args.yaml` beside it: the longest such file whose name prefixes the trace's. */
function sweAgentSidecar(path: string): { sidecarArgsYaml: string; sidecarPath: string } | undefined {
  if (path === STDIN_LABEL) return undefined;
  const dir = dirname(path);
  const name = basename(path).replace(/\.gz$/, '').replace(/\.traj$/, '');
  if (!existsSync(dir)) return undefined;
  const candidates = readdirSync(dir)
    .filter((file) => file.endsWith('.args.yaml') && name.startsWith(file.slice(0, -'.args.yaml'.length)))
    .sort((a, b) => b.length - a.length);
  if (!candidates[0]) return undefined;
  const sidecarPath = join(dir, candidates[0]);
  return { sidecarArgsYaml: readSmallTextFileSync(sidecarPath), sidecarPath };
}

function unknownFormat(path: string): UserError {
  return new UserError({
    file: path,
    code: 'unknown_format',
    message: 'is not a trace format loopcost reads',
    hint: 'expected native JSONL, a mini-swe-agent or SWE-agent trajectory, provider exchanges JSONL, a VCR cassette, OTLP JSON, a Claude Code transcript or a Codex rollout',
  });
}

/**
 * The format a first line tells on its own; undefined when only the whole document can tell. A line that
 * is a native record but not a valid header (truncated, or a run missing its header) is native: the
 * native reader says what is wrong with it.
 */
function formatOfFirstLine(head: string): TraceFormat | undefined {
  if (looksLikeNativeTrace(head)) return 'native';
  if (head.startsWith('{') && head.trimEnd().endsWith('}')) {
    try {
      const obj: unknown = JSON.parse(head);
      if (looksLikeExchangeLine(obj)) return 'exchanges';
      if (looksLikeOtlp(obj)) return 'otlp';
      if (looksLikeMiniSweAgent(obj)) return 'mini-swe-agent';
      if (looksLikeSweAgent(obj)) return 'swe-agent';
      if (looksLikeClaudeCodeLine(obj)) return 'claude-code';
      if (looksLikeCodexRolloutLine(obj)) return 'codex';
    } catch {
      // Not a one-line JSON document: the whole file may be one.
    }
  }
  if (/"type"\s*:\s*"(call|end|header)"/.test(head)) return 'native';
  return undefined;
}

export function detectFormat(text: string, path: string): TraceFormat {
  const head = firstLineOf(text).line;
  if (head === '') {
    throw new UserError({ file: path, code: 'empty', message: 'is empty', hint: 'pass a trace file with content' });
  }
  if (looksLikeCassette(text)) return 'cassette';
  const byFirstLine = formatOfFirstLine(head);
  if (byFirstLine !== undefined) return byFirstLine;
  if (head.startsWith('{')) {
    const whole = parseJsonDocument(text, path, 'JSON trace');
    if (looksLikeMiniSweAgent(whole)) return 'mini-swe-agent';
    if (looksLikeSweAgent(whole)) return 'swe-agent';
    if (looksLikeOtlp(whole)) return 'otlp';
  }
  throw unknownFormat(path);
}

/**
 * The runs of a document of any supported format, held to the rules every run obeys
 * (src/trace/rules.ts); an issue an importer could not place in a file is placed in this one.
 */
export function importText(text: string, path: string, format?: TraceFormat): Trace[] {
  let traces: Trace[];
  try {
    traces = importUnchecked(text, path, format ?? detectFormat(text, path));
  } catch (error) {
    throw placedError(error, path);
  }
  return ruleChecked(traces);
}

/** An importer's error as the reader reports it: a stack overflow is too deep; an issue without a file is the input's. */
function placedError(error: unknown, path: string): unknown {
  if (isStackOverflow(error)) return tooDeep(path);
  if (!(error instanceof UserError) || error.issues.every((issue) => issue.file !== undefined)) return error;
  return new UserError(error.issues.map((issue) => ({ ...issue, file: issue.file ?? path })));
}

/** The runs, when every one obeys the rules of src/trace/rules.ts; else their issues, thrown together. */
function ruleChecked(traces: Trace[]): Trace[] {
  const issues = traces.flatMap(traceRuleIssues);
  if (issues.length > 0) throw new UserError(issues.slice(0, MAX_REPORTED_ISSUES));
  return traces;
}

function isStackOverflow(error: unknown): boolean {
  return error instanceof RangeError && /call stack/i.test(error.message);
}

/**
 * The last guard of the depth limit: a reader that walks a value recursively (a YAML composer) ran out
 * of stack on a document nested past MAX_NESTING_DEPTH, before its own check could name the place.
 */
function tooDeep(path: string): UserError {
  return new UserError({ file: path, code: 'too_deep', message: `nests deeper than ${MAX_NESTING_DEPTH} levels of arrays, objects or mappings`, hint: 'the file looks corrupted or made up: export it again' });
}

function importUnchecked(text: string, path: string, format: TraceFormat): Trace[] {
  switch (format) {
    case 'native':
      return parseNativeTraces(text, path);
    case 'mini-swe-agent':
      return importMiniSweAgent(text, path);
    case 'swe-agent': {
      return importSweAgent(text, path, sweAgentSidecar(path) ?? {});
    }
    case 'cassette':
      return importCassette(text, path);
    case 'exchanges':
      return importExchangesJsonl(text, path);
    case 'otlp':
      return importOtlpJson(text, path);
    case 'claude-code':
      return importClaudeCodeText(text, path);
    case 'codex':
      return importCodexText(text, path);
  }
}

/** How inputs are read: the size limits (see src/io/limits.ts). */
export interface ReadOptions {
  limits?: Partial<ReadLimits>;
}

/** Reads one input (a file, gzip or plain, a pipe, or `-` for standard input) of any supported format. */
export async function loadTraceFile(path: string, options: ReadOptions = {}): Promise<Trace[]> {
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
export async function* streamTraceFile(path: string, options: ReadOptions = {}): AsyncGenerator<Trace> {
  const limits = readLimits(options.limits);
  const input = await openInput(path, limits);
  try {
    const format = lineFormat(new TextDecoder('utf-8').decode(input.head));
    if (format === 'native') {
      yield* streamNativeTracesAsync(lineBatches(input, limits.maxLineBytes), input.label);
    } else if (format === 'claude-code' || format === 'codex') {
      yield* await importAgentLog(format, input, limits);
    } else {
      yield* importText(await readDocument(input, limits), input.label);
    }
  } finally {
    await input.close();
  }
}

/** A coding agent's log (Claude Code, Codex), read line by line, its runs held to the rules like every import. */
async function importAgentLog(format: 'claude-code' | 'codex', input: OpenedInput, limits: ReadLimits): Promise<Trace[]> {
  const batches = lineBatches(input, limits.maxLineBytes);
  let traces: Trace[];
  try {
    traces = format === 'codex' ? await importCodexStream(input.label, batches) : await importClaudeCodeStream(input.label, batches, limits);
  } catch (error) {
    throw placedError(error, input.label);
  }
  return ruleChecked(traces);
}

/** The format the input's first line, read alone, tells (a whole first line is needed: a partial one is not judged). */
function lineFormat(head: string): TraceFormat | undefined {
  if (looksLikeCassette(head)) return undefined;
  const first = firstLineOf(head);
  return first.whole ? formatOfFirstLine(first.line) : undefined;
}

/**
 * The inputs read on their own: a Claude Code sub-agent transcript whose session file is also given is
 * read with its session (one tree at a time), not alone.
 */
export function readAlone(paths: readonly string[]): string[] {
  const given = new Set(paths);
  return paths.filter((path) => !sessionFileCandidates(path).some((session) => given.has(session)));
}

/** Reads many inputs, one at a time, each as it streams (see `streamTraceFile` and `readAlone`). */
export async function* loadTraceFiles(paths: readonly string[], options: ReadOptions = {}): AsyncGenerator<Trace> {
  for (const path of readAlone(paths)) yield* streamTraceFile(path, options);
}
