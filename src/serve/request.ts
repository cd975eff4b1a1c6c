/**
 * A Chat Completions request as `loopcost serve` reads it: the fields it uses are checked (zod), every
 * other field a client sends is accepted and ignored; `n` is checked too (one choice: a replayed call has one answer). A bad field is a 400 naming it (`messages[2].role`),
 * and so is a key given twice or nesting past the limit (the rule of every JSON reader, src/io/jsonText.ts).
 */
import { z } from 'zod';
import { parsedJsonTextProblem } from '../io/jsonText.js';
import { MAX_COUNT } from '../io/limits.js';
import { ApiError, invalidRequest } from './apiError.js';
import { jsonSyntaxPlace } from '../io/jsonSyntax.js';
import { fieldPath } from '../fieldPath.js';

const textPart = z.looseObject({ type: z.string(), text: z.string().optional() });
const content = z.union([z.string(), z.null(), z.array(textPart)], { error: 'must be a string, null, or an array of parts such as {"type": "text", "text": "..."}' }).optional();

const toolCall = z.looseObject({
  id: z.string(),
  type: z.string().optional(),
  function: z.looseObject({ name: z.string(), arguments: z.string() }),
});

const message = z.looseObject({
  role: z.enum(['system', 'developer', 'user', 'assistant', 'tool', 'function']),
  content,
  name: z.string().optional(),
  tool_calls: z.array(toolCall).optional(),
  tool_call_id: z.string().optional(),
});

/** What a value a client sent reads as in a message (`1e400` reaches us as Infinity). */
function shown(value: unknown): string {
  if (typeof value === 'number' && !Number.isFinite(value)) return `${value} (a number past what JSON holds)`;
  return JSON.stringify(value) ?? String(value);
}

const capError = (issue: { input?: unknown }) => `must be a whole number of tokens from 1 to ${MAX_COUNT}, not ${shown(issue.input)}`;
/** An output cap: whole tokens, at least 1, held exactly (what a trace's counts may be). */
const outputCap = z.number({ error: capError }).int({ error: capError }).positive({ error: capError }).nullable().optional();

const choicesError = (issue: { input?: unknown }) =>
  `is ${shown(issue.input)}: loopcost serve answers one choice per request (each answer is one call of the run it replays, billed once): send n: 1, or leave it out`;
/** Choices asked for (`n`): one, the only answer a replayed run has for a call; more (or a count that is none) is a 400, not one choice answered unsaid. */
const choiceCount = z.literal(1, { error: choicesError }).nullable().optional();

const chatRequest = z.looseObject({
  model: z.string().min(1),
  messages: z.array(message).min(1),
  stream: z.boolean().nullable().optional(),
  stream_options: z.looseObject({ include_usage: z.boolean().optional() }).nullable().optional(),
  max_completion_tokens: outputCap,
  max_tokens: outputCap,
  n: choiceCount,
});

export type ChatMessage = z.infer<typeof message>;
export type ChatRequest = z.infer<typeof chatRequest>;

/** zod's words for a field not sent at all are about its type (`expected string, received undefined`): say it is missing. */
function missingField(issue: { code: string; input?: unknown; expected?: unknown; values?: readonly unknown[] }): string | undefined {
  if (issue.input !== undefined || (issue.code !== 'invalid_type' && issue.code !== 'invalid_value')) return undefined;
  const wanted = issue.values ? `one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}` : String(issue.expected);
  return `is missing (expected ${wanted})`;
}

const JSON_TEXT_HINTS: Record<string, string> = { duplicate_key: 'send each key once: readers differ on which one counts', too_deep: 'send a body that nests less deeply' };

/**
 * A body JSON.parse refused, as a 400 naming where: line and column, the field open there (its `param`),
 * and for a bare NaN or Infinity (what Python's json.dumps writes) that JSON has no such number.
 */
function syntaxError(text: string, error: unknown): ApiError {
  if (text.trim() === '') return invalidRequest('the request body is empty: send the request as one JSON object', null, 'invalid_json');
  const place = jsonSyntaxPlace(text, error, { noun: 'body' });
  const field = place.field;
  const where = place.line === undefined ? '' : ` at line ${place.line}, column ${place.column}${field === undefined ? '' : ` (${field})`}`;
  const why = place.nonNumber !== undefined ? `${place.said}: send a number, or null` : place.said;
  return invalidRequest(`the request body is not valid JSON${where}: ${why}`, field ?? null, 'invalid_json');
}

/** `text` as JSON; a 400 when it is not, or when it gives a key twice or nests too deep (JSON.parse would keep the last key silently). */
function parseJson(text: string): unknown {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw syntaxError(text, error);
  }
  const problem = parsedJsonTextProblem(text, json);
  if (!problem) return json;
  const hint = JSON_TEXT_HINTS[problem.code];
  throw invalidRequest(`${problem.field ?? 'the request body'}: ${problem.message}${hint === undefined ? '' : ` (${hint})`}`, problem.field ?? null, problem.code);
}

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/**
 * A body sent compressed (`Content-Encoding: gzip`, or any coding but `identity`) is refused as such, with
 * 415 as RFC 9110 §8.4 asks: read as it is, its bytes would be called "not valid UTF-8", which says nothing
 * of the fix.
 */
function refuseEncoded(contentEncoding: string | undefined): void {
  const coding = contentEncoding?.trim().toLowerCase();
  if (coding === undefined || coding === '' || coding === 'identity') return;
  throw new ApiError(415, `the request body is sent with Content-Encoding: ${shownCoding(contentEncoding!)}, and loopcost serve accepts no compressed body: send it uncompressed (no Content-Encoding header)`, 'invalid_request_error', null, 'unsupported_content_encoding');
}

function shownCoding(coding: string): string {
  const clean = coding.replace(/[^\x20-\x7e]/g, '?');
  return clean.length > 40 ? `${clean.slice(0, 40)}…` : clean;
}

/**
 * The request body's bytes as text; a 400 when they are not UTF-8 (RFC 8259: JSON between systems is UTF-8),
 * as for any other bad body: decoded loosely, a stray byte would become U+FFFD in a message's text and be
 * answered as if the client had sent that character.
 */
export function bodyText(bytes: Uint8Array, contentEncoding?: string): string {
  refuseEncoded(contentEncoding);
  try {
    return UTF8.decode(bytes);
  } catch {
    throw invalidRequest('the request body is not valid UTF-8: send the JSON encoded as UTF-8 (as JSON requires), with Content-Type: application/json', null, 'invalid_utf8');
  }
}

/**
 * The request body parsed and checked, or a 400 naming what is wrong. The value returned is JSON.parse's,
 * not zod's copy: zod copies a `"__proto__"` key by assignment, which would make it the copy's prototype
 * and slip unchecked fields in (`"__proto__": {"max_tokens": -5}`); JSON.parse keeps it an own key, ignored.
 */
export function parseChatRequest(body: string): ChatRequest {
  const json = parseJson(body);
  const parsed = chatRequest.safeParse(json, { error: missingField });
  if (parsed.success) return withOneCap(json as ChatRequest);
  const issue = parsed.error.issues[0]!;
  const param = fieldPath(issue.path);
  throw invalidRequest(`${param === '' ? 'the request body' : param}: ${issue.message}`, param === '' ? null : param, 'invalid_value');
}

/** Both output caps sent (`max_completion_tokens`, the older `max_tokens`) must agree: which one a provider obeys differs. */
function withOneCap(request: ChatRequest): ChatRequest {
  const { max_completion_tokens: cap, max_tokens: old } = request;
  if (cap != null && old != null && cap !== old) {
    throw invalidRequest(`max_tokens: is ${old}, but max_completion_tokens is ${cap}: send one output cap (max_completion_tokens; max_tokens is its older name), or the same value in both`, 'max_tokens', 'conflicting_output_caps');
  }
  return request;
}

/** A message's text: its content (text parts joined), and for an assistant its tool calls' names and arguments. */
export function messageText(m: ChatMessage): string {
  const parts: string[] = [];
  if (typeof m.content === 'string') parts.push(m.content);
  else if (Array.isArray(m.content)) for (const part of m.content) if (typeof part.text === 'string') parts.push(part.text);
  for (const call of m.tool_calls ?? []) parts.push(call.function.name, call.function.arguments);
  return parts.join('\n');
}
