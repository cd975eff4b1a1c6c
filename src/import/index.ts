/**
 * Reads any supported trace file into native runs, detecting the format from the content (never from
 * the name alone): native JSONL, mini-swe-agent and SWE-agent trajectories, provider HTTP exchanges as
 * JSONL or VCR cassettes, and OpenTelemetry GenAI spans as OTLP JSON.
 */
import { existsSync, readdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { UserError } from '../errors.js';
import { readTextInput } from '../io/readInput.js';
import { looksLikeNativeTrace, parseNativeTraces } from '../trace/parseNative.js';
import type { Trace } from '../trace/types.js';
import { parseJsonDocument } from './common/jsonDocument.js';
import { importCassette, looksLikeCassette } from './http/cassette.js';
import { importExchangesJsonl, looksLikeExchangeLine } from './http/exchanges.js';
import { importMiniSweAgent, looksLikeMiniSweAgent } from './miniSweAgent.js';
import { importOtlpJson, looksLikeOtlp } from './otel.js';
import { importSweAgent, looksLikeSweAgent } from './sweAgent.js';

export type TraceFormat = 'native' | 'mini-swe-agent' | 'swe-agent' | 'cassette' | 'exchanges' | 'otlp';

function firstLine(text: string): string {
  const trimmed = text.replace(/^\uFEFF/, '').trimStart();
  const end = trimmed.indexOf('\n');
  return end < 0 ? trimmed : trimmed.slice(0, end);
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
    hint: 'expected native JSONL, a mini-swe-agent or SWE-agent trajectory, provider exchanges JSONL, a VCR cassette or OTLP JSON',
  });
}

export function detectFormat(text: string, path: string): TraceFormat {
  const head = firstLine(text);
  if (head === '') {
    throw new UserError({ file: path, code: 'empty', message: 'is empty', hint: 'pass a trace file with content' });
  }
  if (looksLikeCassette(text)) return 'cassette';
  if (looksLikeNativeTrace(head)) return 'native';
  if (head.startsWith('{') && head.trimEnd().endsWith('}')) {
    try {
      const obj: unknown = JSON.parse(head);
      if (looksLikeExchangeLine(obj)) return 'exchanges';
      if (looksLikeOtlp(obj)) return 'otlp';
      if (looksLikeMiniSweAgent(obj)) return 'mini-swe-agent';
      if (looksLikeSweAgent(obj)) return 'swe-agent';
    } catch {
      // Not a one-line JSON document: fall through to whole-file JSON.
    }
  }
  // A native record that is not a valid header line (truncated, or a run missing its header): let the
  // native reader say what is wrong with it.
  if (/"type"\s*:\s*"(call|end|header)"/.test(head)) return 'native';
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
  }
}

/** Reads one file (gzip or plain) of any supported format. */
export function loadTraceFile(path: string): Trace[] {
  return importText(readTextInput(path), path);
}

/** Reads many files, one at a time, so memory holds one file's text at once. */
export function* loadTraceFiles(paths: readonly string[]): Generator<Trace> {
  for (const path of paths) yield* loadTraceFile(path);
}
