/**
 * A provider's refusal of a prompt past the model's window (WindowRefusal), in OpenAI's words: its 400
 * `context_length_exceeded` says the numbers in its message. `loopcost serve` answers a synthetic agent's
 * refusal so (src/serve/synthetic.ts), and the real loop's OpenAI adapter reads the numbers back from
 * it (src/agent/openaiChat.ts), from serve or from OpenAI itself; and a recording's words for it
 * (recordedRefusal, refusalOfRecorded). Pure.
 */
import type { ContextLengthExceeded } from '../trace/types.js';
import type { WindowRefusal } from './types.js';

/** OpenAI's error code for a request past the model's context window. */
export const CONTEXT_LENGTH_EXCEEDED = 'context_length_exceeded';

/** OpenAI's message for `refusal` (with max_tokens: the sum and its parts; without: the messages alone). */
export function refusalMessage(refusal: WindowRefusal): string {
  const { promptTokens, maxOutputTokens, contextWindowTokens } = refusal;
  const head = `This model's maximum context length is ${contextWindowTokens} tokens. However, `;
  if (maxOutputTokens === undefined) return `${head}your messages resulted in ${promptTokens} tokens. Please reduce the length of the messages.`;
  return `${head}you requested ${promptTokens + maxOutputTokens} tokens (${promptTokens} in the messages, ${maxOutputTokens} in the completion). Please reduce the length of the messages or completion.`;
}

const WINDOW = /maximum context length is (\d+) tokens/;
const PARTS = /\((\d+) in the messages, (\d+) in the completion\)/;
const MESSAGES = /your messages resulted in (\d+) tokens/;

/** The numbers of a `context_length_exceeded` message (refusalMessage's, OpenAI's); undefined when it does not give them. */
export function refusalOfMessage(message: string): WindowRefusal | undefined {
  const window = WINDOW.exec(message);
  if (!window) return undefined;
  const contextWindowTokens = Number(window[1]);
  const parts = PARTS.exec(message);
  if (parts) return { promptTokens: Number(parts[1]), maxOutputTokens: Number(parts[2]), contextWindowTokens };
  const messages = MESSAGES.exec(message);
  return messages ? { promptTokens: Number(messages[1]), contextWindowTokens } : undefined;
}

/**
 * A refusal as a recording says it (a failed call's `contextLengthExceeded`, docs/trace-format.md): the
 * numbers the provider gave, a number not known (NaN) left out. A replay of the recording ends at that
 * call, provider_refused, as the run did.
 */
export function recordedRefusal(refusal: WindowRefusal): ContextLengthExceeded {
  const { promptTokens, maxOutputTokens, contextWindowTokens } = refusal;
  const known = (n: number | undefined): n is number => n !== undefined && !Number.isNaN(n);
  return { ...(known(promptTokens) ? { promptTokens } : {}), ...(known(maxOutputTokens) ? { maxOutputTokens } : {}), ...(known(contextWindowTokens) ? { contextWindowTokens } : {}) };
}

/** A recorded refusal as the loop takes it (recordedRefusal's inverse): a number not recorded is NaN (a stop's detail leaves it out). */
export function refusalOfRecorded(recorded: ContextLengthExceeded): WindowRefusal {
  const { promptTokens = NaN, maxOutputTokens, contextWindowTokens = NaN } = recorded;
  return { promptTokens, contextWindowTokens, ...(maxOutputTokens === undefined ? {} : { maxOutputTokens }) };
}
