/**
 * A provider's refusal of a call whose prompt + max_tokens passed the model's context window, where a log
 * records its error (docs/trace-format.md `failed.contextLengthExceeded`): only on the provider's own
 * words for it, never guessed from another error.
 *   OpenAI (and OpenAI-compatible APIs, serve): HTTP 400, `error.code` `context_length_exceeded`, "This
 *     model's maximum context length is W tokens. However, you requested … (P in the messages, M in the
 *     completion)" (src/loop/refusalWords.ts reads its numbers).
 *   Anthropic: HTTP 400 `invalid_request_error`, "prompt is too long: P tokens > W maximum", or "input
 *     length and `max_tokens` exceed context limit: P + M > W".
 *   LiteLLM (mini-swe-agent): the exception class `ContextWindowExceededError`, with the provider's text.
 * The numbers are the ones the words give; a refusal whose words give none is still one.
 */
import { CONTEXT_LENGTH_EXCEEDED, recordedRefusal, refusalOfMessage } from '../../loop/refusalWords.js';
import type { CallRecord, ContextLengthExceeded, Trace } from '../../trace/types.js';

const ANTHROPIC_PROMPT = /prompt is too long(?::\s*(\d+) tokens > (\d+) maximum)?/i;
const ANTHROPIC_INPUT_AND_MAX = /input length and `?max_tokens`? exceed context limit:\s*(\d+) \+ (\d+) > (\d+)/i;
const LITELLM_CLASS = /\bContextWindowExceededError\b/;

/** The numbers in a refusal's words (OpenAI's or Anthropic's); {} when they give none. */
function numbersIn(text: string): ContextLengthExceeded {
  const openai = refusalOfMessage(text);
  if (openai) return recordedRefusal(openai);
  const both = ANTHROPIC_INPUT_AND_MAX.exec(text);
  if (both) return { promptTokens: Number(both[1]), maxOutputTokens: Number(both[2]), contextWindowTokens: Number(both[3]) };
  const prompt = ANTHROPIC_PROMPT.exec(text);
  return prompt?.[1] !== undefined ? { promptTokens: Number(prompt[1]), contextWindowTokens: Number(prompt[2]) } : {};
}

/**
 * An API error body's `error` object (OpenAI's `{code, message}`, Anthropic's `{type, message}`) as a
 * refusal for length, when it is one: OpenAI's code `context_length_exceeded`, or Anthropic's
 * `invalid_request_error` saying the prompt is too long.
 */
export function refusalOfErrorBody(error: { code?: unknown; type?: unknown; message?: unknown }): ContextLengthExceeded | undefined {
  const message = typeof error.message === 'string' ? error.message : '';
  if (error.code === CONTEXT_LENGTH_EXCEEDED) return numbersIn(message);
  if (error.type === 'invalid_request_error' && (ANTHROPIC_PROMPT.test(message) || ANTHROPIC_INPUT_AND_MAX.test(message))) return numbersIn(message);
  return undefined;
}

/**
 * An error as a log writes it in words (an exception's text, a client's error message): a refusal for
 * length when it names OpenAI's code, LiteLLM's ContextWindowExceededError, or Anthropic's words.
 */
export function refusalInText(text: string): ContextLengthExceeded | undefined {
  if (text.includes(CONTEXT_LENGTH_EXCEEDED) || LITELLM_CLASS.test(text) || ANTHROPIC_PROMPT.test(text) || ANTHROPIC_INPUT_AND_MAX.test(text)) return numbersIn(text);
  return undefined;
}

/** `call`, failed, as a refusal for length: the refusal's numbers, and none of the usage a provider bills no refused call for. */
export function refusedCall(call: CallRecord, refusal: ContextLengthExceeded): CallRecord {
  const { inputTokens: _i, cachedInputTokens: _c, cacheWriteTokens: _w, cacheWrite1hTokens: _h, reasoningTokens: _r, webSearchRequests: _s, recordedCostUsd: _u, toolCalls: _t, ...rest } = call;
  return { ...rest, outputTokens: 0, failed: { ...call.failed!, contextLengthExceeded: refusal } };
}

/**
 * A refusal ends a run (a replay stops there): one the run went on after (a retry, a compaction the user
 * asked for) did not end it, and is kept as a plain failed call, said in the run's notes.
 */
export function endRunsAtRefusals(traces: readonly Trace[]): void {
  for (const trace of traces) {
    const last = trace.calls.length - 1;
    trace.calls.forEach((call, k) => {
      if (k === last || call.failed?.contextLengthExceeded === undefined) return;
      const { contextLengthExceeded: _refusal, ...failed } = call.failed;
      call.failed = failed;
      const notes = trace.header.importedFrom?.notes;
      const note = `call ${k + 1}: the provider refused it for its length, but the run went on: kept as a plain failed call`;
      if (trace.header.importedFrom !== undefined) trace.header.importedFrom.notes = [...(notes ?? []), note];
    });
  }
}
