/**
 * A Chat Completions response as the real loop takes it (openAIChatModel, openaiChat.ts). Every body a
 * server answered with 200 is billed as its usage says and recorded, never thrown as a TypeError:
 *   a body that is no chat completion        a failed call (ModelCallError, the status, what the server sent,
 *   (empty, not JSON, an `error` object,     clipped, and the usage it reports), retried as a 5xx is: the
 *   no `choices` list)                       request was taken, the server failed to answer it
 *   an empty response (`choices: []`, no     `unparseable`: a step that makes no progress, as one cut off
 *   text and no tool calls)                  at the output cap is, never a completion
 *   one cut off at the output cap            `unparseable` whatever it holds, its tool calls dropped (never
 *   (`finish_reason: "length"`)              run: cut output), as serve's provider cuts it (cutAtCap)
 *   a tool call that is no function call     named '' (no name): the loop takes the response as unparseable
 *   (no `function`, no `function.name`)      (records.ts readableTurn), as it takes a nameless call
 *   `function.arguments` that is no string   its JSON text (absent: ''), as the loop reads any arguments
 *                                            (tools.ts parseArguments: null or a number is refused to the model)
 * A tool call without `type` is a function call: the API has no other type the loop offers tools of. One
 * without an `id` is read with `""`, which the loop replaces by an id of its own (records.ts withCallIds).
 * `loopcost serve`'s own marks of an answer (`loopcost.record.backtrack`, `unparseable`) are the turn's marks
 * (serveMarksOf): a served backtrack is a backtrack, not the final answer its text and `stop` would read as.
 */
import type { ChatCompletion } from 'openai/resources/chat/completions';
import { billedByServe, implausibleUsage, USAGE_FIELDS, usageOf } from './openaiUsage.js';
import { ModelCallError, type ModelToolCall, type ModelTurn } from './types.js';

/** The most characters of a body a failed call's message quotes. */
export const QUOTED_BODY_CHARS = 200;

/** Statuses worth another attempt: timeouts, conflicts, rate limits, server errors. */
export function retryableStatus(status: number | undefined): boolean {
  return status === undefined || status === 408 || status === 409 || status === 429 || status >= 500;
}

/**
 * Whether a failed answer is worth another attempt, as the openai SDK decides it (its `shouldRetry`): the
 * server's `x-should-retry` when it says `true` or `false` (`loopcost serve` says `true` for a recorded
 * failure its recorded run went on past, a 400 too, and `false` for its own errors), else by status.
 */
export function retryableAnswer(status: number | undefined, headers: Headers | undefined): boolean {
  const said = headers?.get('x-should-retry');
  if (said === 'true') return true;
  if (said === 'false') return false;
  return retryableStatus(status);
}

/**
 * A response whose usage no call can have: a failed call (the loop records it and ends the run, naming
 * the server's figure), not retried (a server that misreports once is not trusted to bill the retry) and
 * billed nothing (what it cost is unknown).
 */
export function serverUsageError(why: string, status: number | undefined, cause: unknown): ModelCallError {
  return new ModelCallError(`${why}; the call is recorded as failed, billed nothing`, { ...(status === undefined ? {} : { status }), retryable: false, cause });
}

/**
 * The body of a response the server answered (2xx) as a chat completion; a ModelCallError when it is none
 * (see the module comment). Reading it may throw what the request's signal throws: that passes as it is.
 */
export async function completionOf(response: Response, contextWindowTokens: number | undefined): Promise<ChatCompletion> {
  const text = await response.text();
  const body = parsed(text);
  const what = notACompletion(body, text);
  if (what === undefined) return body as ChatCompletion;
  const usage = record(record(body)?.['usage']) ? usageOf(body as ChatCompletion) : undefined;
  const wrong = usage && implausibleUsage(usage, USAGE_FIELDS, contextWindowTokens);
  if (wrong) throw serverUsageError(wrong, response.status, body);
  throw new ModelCallError(`the response is no chat completion: ${what}`, {
    status: response.status,
    retryable: retryableStatus(errorStatusOf(body)),
    ...(usage ? { usage } : {}),
    cause: body ?? text,
  });
}

/** What the body is when it is no chat completion (quoted, clipped); undefined when it is one. */
function notACompletion(body: unknown, text: string): string | undefined {
  if (text.trim() === '') return 'the body is empty';
  if (body === undefined) return `the body is not JSON: ${clipped(text)}`;
  const fields = record(body);
  if (fields === undefined) return `the body is JSON but no object: ${clipped(text)}`;
  const error = fields['error'];
  if (error !== undefined && error !== null) return `the body is an error: ${errorWords(error)}`;
  if (!Array.isArray(fields['choices'])) return `the body has no choices list: ${clipped(text)}`;
  return undefined;
}

/** An `error` a body carries, in words: its message and code when it has them, else its JSON. */
function errorWords(error: unknown): string {
  const fields = record(error);
  const message = fields?.['message'];
  if (typeof message !== 'string') return clipped(JSON.stringify(error));
  const code = fields?.['code'];
  return clipped(typeof code === 'string' || typeof code === 'number' ? `${message} (code ${code})` : message);
}

/** The HTTP status an `error` in a 200 body names (OpenRouter's `code`: 429, 502, …); undefined (retried) when it names none. */
function errorStatusOf(body: unknown): number | undefined {
  const error = record(record(body)?.['error']);
  const status = error?.['status'] ?? error?.['code'];
  return typeof status === 'number' && Number.isInteger(status) && status >= 400 && status <= 599 ? status : undefined;
}

/** `text` on one line, at most QUOTED_BODY_CHARS characters (an ellipsis marks the cut). */
export function clipped(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length <= QUOTED_BODY_CHARS ? line : `${line.slice(0, QUOTED_BODY_CHARS - 1)}…`;
}

function parsed(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function record(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

/** The completion as the loop's turn: its usage (a figure no call can have fails the call), text, tool calls and marks. */
export function turnOf(completion: ChatCompletion, contextWindowTokens: number | undefined): ModelTurn {
  const usage = usageOf(completion);
  const wrong = implausibleUsage(usage, USAGE_FIELDS, contextWindowTokens);
  if (wrong !== undefined) throw serverUsageError(wrong, undefined, completion);
  const choice = record(completion.choices[0]);
  const message = record(choice?.['message']);
  // Cut off at the output cap: whatever the answer holds is cut (a tool call's arguments, a parallel list's
  // last calls), so none of its tool calls runs — as serve's provider cuts it (synthetic/outputCap.ts cutAtCap).
  const cut = choice?.['finish_reason'] === 'length';
  const toolCalls = cut ? [] : toolCallsOf(message?.['tool_calls']);
  // A refusal (`message.refusal`, content null) is the model's answer: it declined, in words the user reads.
  const content = textOf(message?.['content']);
  const text = content || textOf(message?.['refusal']) || content;
  // An output of 0 for a response with text or tool calls is no call's: not reported, counted by the loop (unreportedUsage.ts).
  if (usage.outputTokens === 0 && (text || toolCalls.length > 0) && !billedByServe(completion)) usage.outputNotReported = true;
  const turn: ModelTurn = { text, toolCalls, usage, raw: completion };
  const served = serveMarksOf(completion);
  if (cut) delete served.final; // A cut answer is no final answer either (cutAtCap drops the mark too).
  const marks = { ...served, ...(toolCalls.length === 0 && (unusable(choice?.['finish_reason']) || !text) ? { unparseable: true } : {}) };
  if (Object.keys(marks).length > 0) turn.marks = marks;
  return turn;
}

/**
 * What `loopcost serve` says the answer is beyond what Chat Completions carries (its `loopcost.record`, the
 * call as replay plays it): a backtrack (the previous step leaves the prompt; paid, no step), an unparseable
 * response (a step that makes no progress), a recorded compaction call (paid, no step, the run goes on) or a
 * final answer that also calls tools (the run ends after them). The first three are answered as text with
 * `finish_reason: "stop"` — the protocol has no form for them — which a plain client takes for a final
 * answer; the loop takes each as replay does. Another server sends no such field: no marks.
 */
const SERVE_MARKS = ['backtrack', 'unparseable', 'compaction', 'final'] as const;

function serveMarksOf(completion: ChatCompletion): NonNullable<ModelTurn['marks']> {
  const said = record(record(record(completion)?.['loopcost'])?.['record']);
  const marks: NonNullable<ModelTurn['marks']> = {};
  for (const mark of SERVE_MARKS) if (said?.[mark] === true) marks[mark] = true;
  return marks;
}

function textOf(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

/**
 * A response with no usable answer (a step that makes no progress, as a replay counts it): cut off at the
 * output cap (`length`), or withheld by the provider's content filter (`content_filter`) — no answer was
 * given, so the run must not end `completed` on it. (One with no text and no tool call is none either: turnOf.)
 */
function unusable(finishReason: unknown): boolean {
  return finishReason === 'length' || finishReason === 'content_filter';
}

/** The response's tool calls (none for `null` or absent); a list that is none is one call the loop cannot run. */
function toolCallsOf(calls: unknown): ModelToolCall[] {
  if (calls === undefined || calls === null) return [];
  return Array.isArray(calls) ? calls.map(toolCallOf) : [toolCallOf(calls)];
}

/** One tool call: a function call when its `type` is `function` or absent, with `function.name`; else nameless (see the module comment). */
function toolCallOf(call: unknown): ModelToolCall {
  const fields = record(call);
  const id = typeof fields?.['id'] === 'string' ? fields['id'] : '';
  const fn = fields?.['type'] === undefined || fields['type'] === 'function' ? record(fields?.['function']) : undefined;
  const name = typeof fn?.['name'] === 'string' ? fn['name'] : '';
  return { id, name, arguments: argumentsText(fn?.['arguments']) };
}

/** `function.arguments` as JSON text: a string as sent; another value as its JSON (an object its arguments, null refused); absent: '' (none). */
function argumentsText(value: unknown): string {
  if (typeof value === 'string') return value;
  return value === undefined ? '' : (JSON.stringify(value) ?? '');
}
