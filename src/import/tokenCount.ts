/**
 * Token counting for importers that must rebuild token counts from text (SWE-agent `.traj` files carry
 * run totals only) and for tool results (mini-swe-agent records usage per model call, not per tool output).
 *
 * Exact for OpenAI models (gpt-tokenizer implements OpenAI's BPE encodings). For every other family
 * (Claude, DeepSeek, Gemini, Llama, ...) the vendor tokenizer is not available here, so `cl100k_base` is used
 * as an APPROXIMATION: on the SWE-agent Claude 3.5 Sonnet runs it undercounts by about 15% (input and output
 * alike), so callers that know a recorded total should scale to it (see `sweAgent.ts`).
 */
import { countTokens as countCl100k } from 'gpt-tokenizer/encoding/cl100k_base';
import { countTokens as countO200k } from 'gpt-tokenizer/encoding/o200k_base';

export type EncodingName = 'o200k_base' | 'cl100k_base';

/**
 * Special-token markers such as `<|endoftext|>` found in recorded text are ordinary text: count them as
 * such instead of letting gpt-tokenizer throw (its default disallows them).
 */
const PLAIN_TEXT = { disallowedSpecial: new Set<string>() };

/** Strip routing prefixes (`openai/`, `azure:`, `ft:`) and lower-case, leaving the bare model id. */
function bareModelName(model: string): string {
  let name = model.trim().toLowerCase();
  const slash = name.lastIndexOf('/');
  if (slash >= 0) name = name.slice(slash + 1);
  if (name.startsWith('ft:')) name = name.split(':')[1] ?? name;
  const colon = name.indexOf(':');
  if (colon >= 0 && /^(azure|bedrock|ollama|openai)$/.test(name.slice(0, colon))) name = name.slice(colon + 1);
  return name;
}

/**
 * Encoding used for a model: `o200k_base` for gpt-4o, gpt-4.1, gpt-4.5, gpt-5, o-series, gpt-oss and codex;
 * `cl100k_base` for gpt-4 / gpt-3.5 and, as an approximation, for every non-OpenAI model.
 */
export function encodingForModel(model: string): EncodingName {
  const name = bareModelName(model);
  if (/^(gpt-?4o|chatgpt-4o|gpt-4\.1|gpt-4\.5|gpt-5|gpt-oss|o[1-9](\b|-|$)|codex)/.test(name)) return 'o200k_base';
  return 'cl100k_base';
}

/** True when `encodingForModel(model)` is only an approximation of the model's own tokenizer. */
export function isApproximateTokenizer(model: string): boolean {
  const name = bareModelName(model);
  return !/^(gpt|chatgpt|o[1-9](\b|-|$)|codex|text-|davinci)/.test(name);
}

export function countTokensWith(text: string, encoding: EncodingName): number {
  if (text.length === 0) return 0;
  return encoding === 'o200k_base' ? countO200k(text, PLAIN_TEXT) : countCl100k(text, PLAIN_TEXT);
}

/** Tokens of `text` for `model` (see `encodingForModel`; approximate for non-OpenAI models). */
export function countTokens(text: string, model: string): number {
  return countTokensWith(text, encodingForModel(model));
}

export interface ChatMessageText {
  role: string;
  content: string;
  name?: string;
}

/** Per-message overhead of the chat format (OpenAI cookbook, gpt-3.5-turbo-0613 and later). */
export const TOKENS_PER_MESSAGE = 3;
/** Extra token when a message carries a `name`. */
export const TOKENS_PER_NAME = 1;
/** Every reply is primed with `<|start|>assistant<|message|>`. */
export const REPLY_PRIMING_TOKENS = 3;

/**
 * Prompt tokens of a chat request as the OpenAI cookbook counts them: for each message 3 + tokens(role) +
 * tokens(content) (+ 1 + tokens(name)), plus 3 for the reply priming. Zero messages → 0.
 */
export function countChatTokens(messages: readonly ChatMessageText[], model: string): number {
  return countChatTokensWith(messages, encodingForModel(model));
}

export function countChatTokensWith(messages: readonly ChatMessageText[], encoding: EncodingName): number {
  if (messages.length === 0) return 0;
  let total = REPLY_PRIMING_TOKENS;
  for (const message of messages) total += chatMessageTokens(message, encoding);
  return total;
}

/** One message's share of `countChatTokens` (without the reply priming). */
export function chatMessageTokens(message: ChatMessageText, encoding: EncodingName): number {
  let total = TOKENS_PER_MESSAGE + countTokensWith(message.role, encoding) + countTokensWith(message.content, encoding);
  if (message.name !== undefined) total += TOKENS_PER_NAME + countTokensWith(message.name, encoding);
  return total;
}
