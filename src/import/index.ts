/**
 * Reads any supported trace file into native runs, detecting the format from the content (never from
 * the name alone): native JSONL, mini-swe-agent and SWE-agent trajectories, provider HTTP exchanges as
 * JSONL or VCR cassettes, OpenTelemetry GenAI spans as OTLP JSON, Claude Code transcripts and Codex CLI
 * rollouts.
 */
import { existsSync, readdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { UserError } from '../errors.js';
import { readTextInput } from '../io/readInput.js';
import { peekText, readLines } from '../io/readLines.js';
import { looksLikeNativeTrace, parseNativeTraces, streamNativeTraces } from '../trace/parseNative.js';
import type { Trace } from '../trace/types.js';
import { importClaudeCodeSession, importClaudeCodeText, looksLikeClaudeCodeLine, sessionFileCandidates } from './claudeCode.js';
import { importCodexRollout, importCodexText, looksLikeCodexRolloutLine } from './codex.js';
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
  const dir = dirname(path);
  const name = basename(path).replace(/\.gz$/, '').replace(/\.traj$/, '');
  if (!existsSync(dir)) return undefined;
  const candidates = readdirSync(dir)
    .filter((file) => file.endsWith('.args.yaml') && name.startsWith(file.slice(0, -'.args.yaml'.length)))
    .sort((a, b) => b.length - a.length);
  if (!candidates[0]) return undefined;
  const sidecarPath = join(dir, candidates[0]);
  return { sidecarArgsYaml: readTextInput(sidecarPath), sidecarPath };
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

export function importText(text: string, path: string, format = detectFormat(text, path)): Trace[] {
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

/** Reads one file (gzip or plain) of any supported format. */
export function loadTraceFile(path: string): Trace[] {
  return [...streamTraceFile(path)];
}

/**
 * The runs of one file as they are read. Native JSONL is read line by line (constant memory however
 * large the file); the other formats are one document each (a trajectory, a cassette) or, for exchanges
 * JSONL, runs rebuilt from the whole file, and are read whole.
 */
export function* streamTraceFile(path: string): Generator<Trace> {
  const format = lineFormat(path);
  if (format === 'native') {
    yield* streamNativeTraces(readLines(path), path);
  } else if (format === 'claude-code') {
    yield* importClaudeCodeSession(path, readLines(path));
  } else if (format === 'codex') {
    yield* importCodexRollout(path, readLines(path));
  } else {
    yield* importText(readTextInput(path), path);
  }
}

/** The format the file's first line, read alone, tells (a whole first line is needed: a partial one is not judged). */
function lineFormat(path: string): TraceFormat | undefined {
  const head = peekText(path);
  if (head === undefined || looksLikeCassette(head)) return undefined;
  const first = firstLineOf(head);
  return first.whole ? formatOfFirstLine(first.line) : undefined;
}

/**
 * Reads many files, one at a time, each as it streams (see `streamTraceFile`). A Claude Code sub-agent
 * transcript whose session file is also given is read with its session (one tree at a time), not alone.
 */
export function* loadTraceFiles(paths: readonly string[]): Generator<Trace> {
  const given = new Set(paths);
  for (const path of paths) {
    if (sessionFileCandidates(path).some((session) => given.has(session))) continue;
    yield* streamTraceFile(path);
  }
}
