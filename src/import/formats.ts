/**
 * What tells an input's format, and which inputs are read together — light on purpose: no importer is
 * loaded to detect a format (src/import/index.ts loads the one importer the format needs), so reading a
 * directory of native traces loads no YAML parser, OpenTelemetry names or HTTP readers.
 */
import { basename, dirname, join } from 'node:path';
import { UserError } from '../errors.js';
import { jsonTextError, parseJsonDocument } from './common/jsonDocument.js';
import { jsonTextProblem } from '../io/jsonText.js';
import { isJsonObject } from './common/jsonValue.js';
import { looksLikeNativeTrace } from '../trace/parseNative.js';
import { looksLikeCodexRolloutLine } from './codex/rolloutLines.js';
import { looksLikeOtlp } from './otel/readSpans.js';
import { otelSdkJsonRefusal, otelSdkTextRefusal } from './otel/sdkJson.js';
import { agentsSdkTraceRefusal } from './agentsSdkTrace.js';
import { langSmithRunsRefusal } from './langSmithRuns.js';
import { looksLikeUnmarkedScenario, MISSING_SCENARIO_LINE, SCENARIO_MARK, SCENARIO_NOT_AS_FILE, scenarioKeys } from '../scenario/scenarioMark.js';
import { requireStrings } from '../options/textArguments.js';
import { shapelessYamlIssue } from '../scenario/scenarioShape.js';

/** Every trace format loopcost reads, as a message names it: the one list (the refusals of an input name them from it). */
export const TRACE_FORMATS = {
  native: 'a native JSONL trace',
  'mini-swe-agent': 'a mini-swe-agent trajectory',
  'swe-agent': 'a SWE-agent trajectory',
  exchanges: 'provider exchanges JSONL',
  cassette: 'a VCR cassette',
  otlp: 'OTLP JSON spans',
  'claude-code': 'a Claude Code transcript',
  codex: 'a Codex rollout',
} as const;

export type TraceFormat = keyof typeof TRACE_FORMATS;

/** The line types of a Claude Code transcript (claudeCode/lineFields.ts: a line of another type is not read). */
export const CLAUDE_CODE_LINE_TYPES = new Set(['user', 'assistant', 'system', 'progress', 'summary', 'file-history-snapshot', 'queue-operation', 'custom-title']);

/** A parsed line of a Claude Code transcript: one of its line types, with its session fields. */
export function looksLikeClaudeCodeLine(value: unknown): boolean {
  if (!isJsonObject(value) || typeof value.type !== 'string' || !CLAUDE_CODE_LINE_TYPES.has(value.type)) return false;
  if (value.type === 'summary') return typeof value.leafUuid === 'string';
  if (value.type === 'file-history-snapshot') return 'snapshot' in value && 'messageId' in value;
  return typeof value.sessionId === 'string';
}

/** A top-level key of a YAML mapping, at the start of its line (`name:` or `name: value`). */
const TOP_LEVEL_KEY = /^[A-Za-z_][\w-]*\s*:(\s|$)/;

/**
 * True when the text is a YAML mapping with a top-level key `interactions:` (vcrpy) or `http_interactions:`
 * (Ruby VCR) among its first 50 lines (comments and a `---` start allowed): recorders write it first; a
 * hand-made file may define anchors under other keys before it (read as a cassette, its aliases are then
 * held to the alias limit: cassetteYaml.ts).
 */
export function looksLikeCassette(text: string): boolean {
  for (const raw of text.split(/\r?\n/, 50)) {
    const line = raw.trimEnd();
    if (line === '' || line.startsWith('#') || line === '---' || line.startsWith('%')) continue;
    if (/^(?:http_)?interactions:(\s|$)/.test(line)) return true;
    if (!TOP_LEVEL_KEY.test(line) && !/^[\s-]/.test(line)) return false;
  }
  return false;
}

/** A JSON document (a YAML one too) whose top-level `interactions` or `http_interactions` is a list: a cassette, written as JSON. */
export function looksLikeJsonCassette(parsed: unknown): boolean {
  return isJsonObject(parsed) && (Array.isArray(parsed.interactions) || Array.isArray(parsed.http_interactions));
}

export function looksLikeExchangeLine(obj: unknown): boolean {
  return isJsonObject(obj) && isJsonObject(obj.request) && 'response' in obj;
}

/**
 * Cheap check on the parsed JSON: a mini-swe-agent trajectory (top-level `messages` + `info`). One that
 * names itself (`trajectory_format: mini-swe-agent-…`), or holds `messages` beside mini-swe-agent's `info`,
 * is one whatever those fields hold: its reader names a broken one (`messages: null`).
 */
export function looksLikeMiniSweAgent(parsed: unknown): boolean {
  if (!isJsonObject(parsed)) return false;
  const format = parsed.trajectory_format;
  if (typeof format === 'string') return format.startsWith('mini-swe-agent');
  if (!('messages' in parsed) || !isJsonObject(parsed.info) || looksLikeSweAgent(parsed)) return false;
  return 'mini_version' in parsed.info || isJsonObject(parsed.info.model_stats);
}

/**
 * Cheap check on the parsed JSON: top-level `trajectory` and `history` (one of them an array; its reader
 * names the other when broken) and an `info` object.
 */
export function looksLikeSweAgent(parsed: unknown): boolean {
  return (
    isJsonObject(parsed) &&
    'trajectory' in parsed &&
    'history' in parsed &&
    (Array.isArray(parsed.trajectory) || Array.isArray(parsed.history)) &&
    isJsonObject(parsed.info) &&
    !Array.isArray(parsed.messages)
  );
}

/** A Claude Code sub-agent transcript file name (`agent-<id>.jsonl[.gz]`). */
export const CLAUDE_CODE_AGENT_FILE = /^agent-(.+?)\.jsonl(\.gz)?$/i;

/**
 * The session file a sub-agent file belongs to (`<dir>/<session>/subagents/agent-*.jsonl` →
 * `<dir>/<session>.jsonl` or `.jsonl.gz`), when the path has that layout; the file need not exist.
 */
export function sessionFileCandidates(path: string): string[] {
  const subagents = dirname(path);
  if (basename(subagents) !== 'subagents' || !CLAUDE_CODE_AGENT_FILE.test(basename(path))) return [];
  const sessionDir = dirname(subagents);
  const base = join(dirname(sessionDir), basename(sessionDir));
  return [`${base}.jsonl`, `${base}.jsonl.gz`];
}

/** The first non-blank line (BOM and leading blank lines skipped), and whether it is whole (a newline ends it). */
function firstLineOf(text: string): { line: string; whole: boolean } {
  const trimmed = text.replace(/^\uFEFF/, '').trimStart();
  const end = trimmed.indexOf('\n');
  return end < 0 ? { line: trimmed, whole: false } : { line: trimmed.slice(0, end), whole: true };
}

const EXPECTED_FORMATS = `expected ${Object.values(TRACE_FORMATS).slice(0, -1).join(', ')} or ${Object.values(TRACE_FORMATS).at(-1)}`;

/** What loopcost reads instead of conversations without the calls' usage. */
const READ_INSTEAD =
  'loopcost replays recorded model calls with their usage: provider exchanges JSONL (`{request, response}` a line), a VCR cassette, OTLP GenAI spans or native JSONL (docs/trace-format.md); for a loop not yet recorded, a scenario file (docs/scenarios.md)';

/** Records of a well-known shape that is not a trace: what they look like, in words. */
function foreignShape(record: Record<string, unknown>): string | undefined {
  if (Array.isArray(record.messages) && !('info' in record) && !('trajectory_format' in record)) return 'chat fine-tuning or eval data, a `messages` list a record: conversations without the token usage of model calls';
  if (typeof record.role === 'string' && 'content' in record) return 'chat messages, `{role, content}` a record: a conversation without the token usage of model calls';
  if ('prompt' in record && ('completion' in record || 'chosen' in record)) return 'prompt/completion pairs (fine-tuning data): no model calls with their token usage';
  return undefined;
}

/** `record`: the input's first JSON record (a JSONL line, or the one document), when it has one. */
function unknownFormat(path: string, record?: unknown): UserError {
  const sdkJson = otelSdkJsonRefusal(record, path) ?? agentsSdkTraceRefusal(record, path) ?? langSmithRunsRefusal(record, path);
  if (sdkJson !== undefined) return sdkJson;
  const shape = isJsonObject(record) ? foreignShape(record) : undefined;
  if (shape !== undefined) {
    return new UserError({ file: path, code: 'unknown_format', message: `is not a trace format loopcost reads: it looks like ${shape}`, hint: READ_INSTEAD });
  }
  const keys = isJsonObject(record) ? Object.keys(record) : [];
  const fields = keys.length === 0 ? '' : ` (its first record's fields: ${keys.slice(0, 6).join(', ')}${keys.length > 6 ? ', …' : ''})`;
  return new UserError({ file: path, code: 'unknown_format', message: `is not a trace format loopcost reads${fields}`, hint: EXPECTED_FORMATS });
}

/**
 * Refuses a text that nests past MAX_NESTING_DEPTH (src/io/limits.ts) for that, naming its line and field,
 * as a native line that deep is: said before "not a trace format" or a JSON syntax error (a file of
 * 10,000 `[` is both). Only on the way to refusing the input: a readable file is not scanned here.
 */
function refuseTooDeep(text: string, path: string): void {
  const problem = jsonTextProblem(text);
  if (problem?.code === 'too_deep') throw jsonTextError(problem, text, path, 'no trace nests this deep: the file looks corrupted or made up; export the run again');
}

/**
 * The whole document parsed (format detection, when its first line does not tell); a text too deep is
 * refused as such, and spans the OpenTelemetry console exporter printed one after another as those.
 */
function parsedDocument(text: string, path: string): unknown {
  try {
    return parseJsonDocument(text, path, 'JSON trace');
  } catch (error) {
    refuseTooDeep(text, path);
    throw otelSdkTextRefusal(text, path) ?? error;
  }
}

/** A first line that is one whole JSON object, parsed; undefined otherwise. */
function jsonObjectLine(head: string): Record<string, unknown> | undefined {
  if (!head.startsWith('{') || !head.trimEnd().endsWith('}')) return undefined;
  try {
    const value: unknown = JSON.parse(head);
    return isJsonObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
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

/** A JSON report of loopcost's: its first field names loopcost (`{"tool": {"name": "loopcost", …`), pretty or compact. */
const JSON_REPORT = /^\s*\{\s*"tool"\s*:\s*\{\s*"name"\s*:\s*"loopcost"/;
/** A CSV report of loopcost's: a header line of field names with the price table's columns every CSV report ends with. */
const CSV_REPORT = /^[A-Za-z][\w.]*(,[\w.]+)*,priceSource,priceVersion,priceHash,/;
/** A table or chart report of loopcost's: its settings line, then its prices line. */
const TEXT_REPORT = /^settings: brakes .*\r?\nprices: /m;

/**
 * Refuses one of loopcost's own reports (JSON, CSV, table: written by --out or --report-dir) as such:
 * left in an input directory, the next run reads it with the traces.
 */
function refuseReport(text: string, head: string, path: string): void {
  if (!JSON_REPORT.test(text.slice(0, 200)) && !CSV_REPORT.test(head) && !TEXT_REPORT.test(text)) return;
  throw new UserError({
    file: path,
    code: 'loopcost_report',
    message: 'is a loopcost report (written by --out or --report-dir), not a trace',
    hint: 'move it out of the input directory, or name the trace files',
  });
}

/**
 * The input's format. A first line that is a whole JSON object of no format is refused as such (JSONL of
 * records loopcost does not read, never "not one JSON document"); a file with a scenario's keys but no
 * `scenario:` line is told so, and one of loopcost's own reports as such (refuseReport).
 */
export function detectFormat(text: string, path: string): TraceFormat {
  requireStrings('detectFormat', { text, path });
  const head = firstLineOf(text).line;
  if (head === '') {
    throw new UserError(shapelessYamlIssue(text, path) ?? { file: path, code: 'empty', message: 'is empty', hint: 'pass a trace file with content' });
  }
  if (looksLikeCassette(text)) return 'cassette';
  const byFirstLine = formatOfFirstLine(head);
  if (byFirstLine !== undefined) return byFirstLine;
  refuseReport(text, head, path);
  let record: unknown = jsonObjectLine(head);
  if (record === undefined && head.startsWith('{')) {
    record = parsedDocument(text, path);
    if (looksLikeMiniSweAgent(record)) return 'mini-swe-agent';
    if (looksLikeSweAgent(record)) return 'swe-agent';
    if (looksLikeOtlp(record)) return 'otlp';
  }
  if (looksLikeJsonCassette(record)) return 'cassette';
  if (SCENARIO_MARK.test(text)) throw new UserError({ file: path, ...SCENARIO_NOT_AS_FILE });
  if (isJsonObject(record) ? scenarioKeys(Object.keys(record)) : looksLikeUnmarkedScenario(text)) throw new UserError({ file: path, ...MISSING_SCENARIO_LINE });
  refuseTooDeep(text, path);
  const shapeless = shapelessYamlIssue(text, path);
  throw shapeless === undefined ? unknownFormat(path, record) : new UserError(shapeless);
}

/** The format the input's first line, read alone, tells (a whole first line is needed: a partial one is not judged). */
export function lineFormat(head: string): TraceFormat | undefined {
  if (looksLikeCassette(head)) return undefined;
  const first = firstLineOf(head);
  return first.whole ? formatOfFirstLine(first.line) : undefined;
}
