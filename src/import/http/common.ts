/**
 * Shared pieces of the provider-HTTP importers: the provider-neutral view of one request and one response,
 * a field reader that turns every malformed field into a UserError naming file, line and field, and text
 * helpers (retry-prompt detection, flattening of content parts).
 */
import { UserError } from '../../errors.js';
import { countTokens as countTokensImpl } from '../tokenCount.js';

/** Tokens of a text for a model (the model family's tokenizer; see src/import/tokenCount.ts). */
export function countTokens(text: string, model: string): number {
  if (text === '') return 0;
  return countTokensImpl(text, model);
}

/** Request/response body shapes we understand. */
export type Shape = 'openai-chat' | 'openai-responses' | 'anthropic' | 'gemini' | 'bedrock';

/** A tool result found in a request's history. */
export interface NormToolResult {
  /** Call id it answers (tool_call_id, call_id, tool_use_id, functionResponse.id, toolUseId). */
  id?: string;
  name?: string;
  /** Text the model reads (what we count tokens of). */
  text: string;
  /** Error text when the result is flagged as an error (is_error, status error, retry prompt). */
  error?: string;
}

/** One message (or item) of a request's history, provider-neutral. */
export interface NormMessage {
  /** `system`, `user`, `assistant`, `tool`, or an item type for opaque items (`compaction`, `reasoning`, ...). */
  role: string;
  text: string;
  /** Tool calls of an assistant turn as echoed in the history (arguments as sent back). */
  toolCalls: { id?: string; name: string; arguments?: unknown }[];
  toolResults: NormToolResult[];
  /** Item ids (Responses API) this message carries, e.g. a compaction item id. */
  itemIds?: string[];
}

export interface ParsedRequest {
  model?: string;
  /** System prompt / instructions text. */
  system: string;
  messages: NormMessage[];
  /** Responses API: the response this request continues server-side. */
  previousResponseId?: string;
  notes: string[];
}

export interface ParsedToolCall {
  id?: string;
  name: string;
  arguments: unknown;
}

export interface ParsedUsage {
  inputTokens: number;
  cachedInputTokens?: number;
  cacheWriteTokens?: number;
  cacheWrite1hTokens?: number;
  outputTokens: number;
  reasoningTokens?: number;
  recordedCostUsd?: number;
}

export interface ParsedResponse {
  usage: ParsedUsage;
  toolCalls: ParsedToolCall[];
  /** The response carried text (an answer). */
  hasText: boolean;
  model?: string;
  /** Response id (Responses API chains on it). */
  id?: string;
  /** Item ids the response produced that a later request may carry (compaction items). */
  producedItemIds: string[];
  latencyMs?: number;
  notes: string[];
}

/** Where a body sits in the input, for error messages. */
export interface Loc {
  file: string;
  /** 1-based line (JSONL line, or the YAML line of a cassette interaction). */
  line?: number;
  /** Path of the body inside the record, e.g. `response` or `interactions[3].response.parsed_body`. */
  base: string;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Uint8Array);
}

export function joinPath(base: string, path: string): string {
  if (path === '') return base;
  if (base === '') return path;
  return path.startsWith('[') ? `${base}${path}` : `${base}.${path}`;
}

/**
 * Reads typed fields out of a JSON body and fails with a UserError naming the file, line and full field
 * path. All importers go through it so that a wrong type never surfaces as a TypeError.
 */
export class Reader {
  constructor(readonly loc: Loc) {}

  at(path: string): Reader {
    return new Reader({ ...this.loc, base: joinPath(this.loc.base, path) });
  }

  field(path: string): string {
    return joinPath(this.loc.base, path);
  }

  fail(path: string, code: string, message: string, hint?: string): never {
    throw new UserError({
      file: this.loc.file,
      ...(this.loc.line !== undefined ? { line: this.loc.line } : {}),
      field: this.field(path),
      code,
      message,
      ...(hint !== undefined ? { hint } : {}),
    });
  }

  object(value: unknown, path: string, what = 'an object'): Record<string, unknown> {
    if (!isRecord(value)) {
      if (value === undefined || value === null) this.fail(path, 'missing_field', `missing ${what}`, hintFor(path));
      this.fail(path, 'wrong_type', `expected ${what}, got ${describe(value)}`, hintFor(path));
    }
    return value;
  }

  optObject(value: unknown, path: string): Record<string, unknown> | undefined {
    if (value === undefined || value === null) return undefined;
    return this.object(value, path);
  }

  array(value: unknown, path: string): unknown[] {
    if (!Array.isArray(value)) {
      if (value === undefined || value === null) this.fail(path, 'missing_field', 'missing array', hintFor(path));
      this.fail(path, 'wrong_type', `expected an array, got ${describe(value)}`, hintFor(path));
    }
    return value;
  }

  optArray(value: unknown, path: string): unknown[] | undefined {
    if (value === undefined || value === null) return undefined;
    return this.array(value, path);
  }

  optString(value: unknown, path: string): string | undefined {
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'string') this.fail(path, 'wrong_type', `expected a string, got ${describe(value)}`);
    return value;
  }

  string(value: unknown, path: string): string {
    const s = this.optString(value, path);
    if (s === undefined) this.fail(path, 'missing_field', 'missing string', hintFor(path));
    return s;
  }

  /** A token count or cost: a finite, non-negative number (token counts must be integers). */
  optCount(value: unknown, path: string, opts: { integer?: boolean } = {}): number | undefined {
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'number' || !Number.isFinite(value)) {
      this.fail(path, 'wrong_type', `expected a number, got ${describe(value)}`, hintFor(path));
    }
    if (value < 0) this.fail(path, 'negative_number', `expected a non-negative number, got ${value}`);
    if ((opts.integer ?? true) && !Number.isInteger(value)) {
      this.fail(path, 'wrong_type', `expected a whole number of tokens, got ${value}`);
    }
    return value;
  }

  count(value: unknown, path: string): number {
    const n = this.optCount(value, path);
    if (n === undefined) this.fail(path, 'missing_field', 'missing token count', hintFor(path));
    return n;
  }
}

function hintFor(path: string): string | undefined {
  if (/usage/i.test(path)) {
    return 'the response must carry the provider usage block; record non-streaming responses, or streaming ones with usage enabled';
  }
  return undefined;
}

export function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (value instanceof Uint8Array) return 'binary data';
  if (typeof value === 'string') return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  if (typeof value === 'object') return 'an object';
  return `${typeof value} ${String(value)}`;
}

/** Text of a content value: a string, an array of parts (`{text}`, `{type:'text', text}`, nested content), or JSON. */
export function flattenText(content: unknown): string {
  if (content === undefined || content === null) return '';
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map(flattenText).filter((s) => s !== '').join('\n');
  if (isRecord(content)) {
    if (typeof content.text === 'string') return content.text;
    if ('content' in content) return flattenText(content.content);
    if ('json' in content) return JSON.stringify(content.json);
    return '';
  }
  return String(content);
}

/** The marker pydantic-ai appends to a retry prompt sent back as a tool result. */
export const RETRY_MARKER = 'Fix the errors and try again.';

/**
 * Error text when a tool result is a retry prompt (pydantic-ai `RetryPromptPart`: "…\n\nFix the errors and
 * try again." or a pydantic validation error list "N validation errors: …"), else undefined.
 */
export function retryPromptError(text: string): string | undefined {
  const trimmed = text.trim();
  const isRetry = trimmed.endsWith(RETRY_MARKER) || /^\d+ validation errors?( for [^:\n]+)?:/.test(trimmed);
  if (!isRetry) return undefined;
  const body = trimmed.endsWith(RETRY_MARKER) ? trimmed.slice(0, -RETRY_MARKER.length).trim() : trimmed;
  return clip(body === '' ? trimmed : body);
}

export function clip(text: string, max = 500): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/** Tool-call arguments: parsed JSON when a string holds valid JSON, else the raw string; objects as given. */
export function parseArguments(raw: unknown): unknown {
  if (typeof raw !== 'string') return raw ?? {};
  if (raw.trim() === '') return {};
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return raw;
  }
}

export function emptyMessage(role: string): NormMessage {
  return { role, text: '', toolCalls: [], toolResults: [] };
}

/**
 * Dotted path of the innermost value open at `pos` in a JSON text (e.g. `response.usage` for a line cut
 * inside the usage object), to name the field of a JSON syntax error. Undefined at the top level.
 */
export function jsonPathAt(text: string, pos: number): string | undefined {
  type Frame = { kind: 'object'; key?: string; expectKey: boolean } | { kind: 'array'; index: number };
  const stack: Frame[] = [];
  let i = 0;
  const end = Math.min(pos, text.length);
  while (i < end) {
    const ch = text[i]!;
    const top = stack[stack.length - 1];
    if (ch === '"') {
      let j = i + 1;
      while (j < end && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      if (j >= end) break; // cut inside a string: a half key is no field
      if (top?.kind === 'object' && top.expectKey) {
        try {
          top.key = JSON.parse(text.slice(i, j + 1)) as string;
        } catch {
          top.key = text.slice(i + 1, j);
        }
        top.expectKey = false;
      }
      i = j + 1;
      continue;
    }
    if (ch === '{') stack.push({ kind: 'object', expectKey: true });
    else if (ch === '[') stack.push({ kind: 'array', index: 0 });
    else if (ch === '}' || ch === ']') stack.pop();
    else if (ch === ',') {
      if (top?.kind === 'object') top.expectKey = true;
      else if (top?.kind === 'array') top.index += 1;
    }
    i += 1;
  }
  let path = '';
  // The outermost object is the record itself; each open frame contributes the key/index that leads into the next.
  for (let k = 0; k < stack.length; k++) {
    const frame = stack[k]!;
    if (frame.kind === 'object') {
      if (frame.key !== undefined && !frame.expectKey) path = path === '' ? frame.key : `${path}.${frame.key}`;
    } else {
      path = `${path}[${frame.index}]`;
    }
  }
  return path === '' ? undefined : path;
}

/** Position of a JSON.parse error in `text` (end of text for "Unexpected end of JSON input"). */
export function jsonErrorPosition(text: string, err: unknown): number {
  const m = /position (\d+)/.exec(err instanceof Error ? err.message : '');
  return m?.[1] !== undefined ? Number(m[1]) : text.length;
}
