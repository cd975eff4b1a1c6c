/**
 * Token counting for importers that must rebuild token counts from text (SWE-agent `.traj` files carry
 * run totals only) and for tool results (mini-swe-agent records usage per model call, not per tool output).
 *
 * One encoding per model family:
 * - OpenAI (gpt-*, o-series, codex, ...): gpt-tokenizer's `o200k_base` / `cl100k_base`, exact.
 * - Claude (any name containing `claude`: `claude-3-5-sonnet-20240620`, `anthropic/claude-sonnet-4.6`,
 *   Bedrock's `anthropic.claude-3-5-sonnet-20240620-v1:0`, Vertex's `claude-3-5-sonnet@20240620`):
 *   `claude`, Anthropic's public tokenizer (@anthropic-ai/tokenizer). It is the tokenizer of the models
 *   before Claude 3 and exact for them; Anthropic has not published the Claude 3+ tokenizer and says the
 *   public one is "no longer accurate, but can be used as a very rough approximation" for them
 *   (anthropics/anthropic-tokenizer-typescript README). On the SWE-agent Claude 3.5 Sonnet runs it counts
 *   5-6% fewer input tokens and 3-8% fewer output tokens than the API reported (cl100k_base: ~15% fewer).
 * - Everything else (DeepSeek, Gemini, Llama, ...): `cl100k_base`, a documented APPROXIMATION (no vendor
 *   tokenizer is available here). Callers that know a recorded total should scale to it (see `sweAgent.ts`).
 */
import { createRequire } from 'node:module';
import { nodeCrypto } from '../io/builtins.js';
import { countInPieces } from './tokenPieces.js';

type GptEncoding = typeof import('gpt-tokenizer/encoding/cl100k_base');
type GptSplitPatterns = typeof import('gpt-tokenizer/encodingParams/constants');
type AnthropicTokenizerModule = typeof import('@anthropic-ai/tokenizer');

/*
 * gpt-tokenizer builds its BPE tables when its module loads (~180 ms for both encodings), and
 * @anthropic-ai/tokenizer loads a WebAssembly tiktoken: load each on first use (CommonJS, through
 * require) so commands that count no tokens start fast.
 */
const requireModule = createRequire(import.meta.url);
let cl100k: GptEncoding | undefined;
let o200k: GptEncoding | undefined;
function countCl100k(text: string, options: typeof PLAIN_TEXT): number {
  cl100k ??= requireModule('gpt-tokenizer/encoding/cl100k_base') as GptEncoding;
  return cl100k.countTokens(text, options);
}
function countO200k(text: string, options: typeof PLAIN_TEXT): number {
  o200k ??= requireModule('gpt-tokenizer/encoding/o200k_base') as GptEncoding;
  return o200k.countTokens(text, options);
}

export type EncodingName = 'o200k_base' | 'cl100k_base' | 'claude';

let splitPatterns: GptSplitPatterns | undefined;
/**
 * The pre-token pattern of `encoding`, the tokenizer's own: gpt-tokenizer's for cl100k_base and o200k_base
 * (its o200k_base uses the cl100k_base pattern), and for `claude` gpt-tokenizer's copy of the GPT-2 pattern,
 * which is the `pat_str` of Anthropic's claude.json (test/import/tokenPieces.test.ts checks both).
 */
export function preTokenPattern(encoding: EncodingName): RegExp {
  splitPatterns ??= requireModule('gpt-tokenizer/encodingParams/constants') as GptSplitPatterns;
  return encoding === 'claude' ? splitPatterns.R50K_TOKEN_SPLIT_REGEX : splitPatterns.CL_AND_O_TOKEN_SPLIT_PATTERN;
}

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

/** Claude family: the name mentions `claude` anywhere (provider prefixes, Bedrock and Vertex ids included). */
function isClaude(name: string): boolean {
  return name.includes('claude');
}

/** Claude models before Claude 3 (claude-instant, claude-1.x, claude-2.x): the public tokenizer is theirs. */
function isPreClaude3(name: string): boolean {
  return /claude-(instant|v?[12](?![0-9]))/.test(name);
}

/**
 * Encoding used for a model: `claude` for the Claude family; `o200k_base` for gpt-4o, gpt-4.1, gpt-4.5,
 * gpt-5, o-series, gpt-oss and codex; `cl100k_base` for gpt-4 / gpt-3.5 and, as an approximation, for
 * every other model.
 */
export function encodingForModel(model: string): EncodingName {
  const name = bareModelName(model);
  if (isClaude(name)) return 'claude';
  if (/^(gpt-?4o|chatgpt-4o|gpt-4\.1|gpt-4\.5|gpt-5|gpt-oss|o[1-9](\b|-|$)|codex)/.test(name)) return 'o200k_base';
  return 'cl100k_base';
}

/**
 * True when `encodingForModel(model)` is only an approximation of the model's own tokenizer: every
 * non-OpenAI model, Claude 3 and later included (Anthropic's public tokenizer predates Claude 3). Only the
 * pre-Claude-3 models (claude-instant, claude-1, claude-2) are counted with their own tokenizer.
 */
export function isApproximateTokenizer(model: string): boolean {
  const name = bareModelName(model);
  if (isClaude(name)) return !isPreClaude3(name);
  return !/^(gpt|chatgpt|o[1-9](\b|-|$)|codex|text-|davinci)/.test(name);
}

type ClaudeTokenizer = ReturnType<AnthropicTokenizerModule['getTokenizer']>;
let claudeTokenizer: ClaudeTokenizer | undefined;

/**
 * Same count as the package's `countTokens` (NFKC-normalised text, special tokens such as `<EOT>` allowed),
 * but with one tokenizer kept for the process: the package's `countTokens` builds a new one from its BPE
 * table on every call (~90 ms each).
 */
function countClaude(normalizedText: string): number {
  claudeTokenizer ??= (requireModule('@anthropic-ai/tokenizer') as AnthropicTokenizerModule).getTokenizer();
  return claudeTokenizer.encode(normalizedText, 'all').length;
}

/*
 * Counts are cached per (encoding, distinct text): agent logs repeat their texts (the system prompt of
 * every run, the same tool output read again, a session's sub-agents), and a tokenizer pass costs far more
 * than a lookup. Long texts are keyed by their SHA-1 (so the cache never holds a large string, or the line
 * a sliced string points into); the cache is emptied when it reaches MAX_CACHED_COUNTS entries, so its
 * memory stays bounded however much is read.
 */
const MAX_CACHED_COUNTS = 65_536;
const LONG_TEXT_CHARS = 256;
const cachedCounts = new Map<string, number>();
let tokenizerCalls = 0;

function cacheKey(text: string, encoding: string): string {
  if (text.length <= LONG_TEXT_CHARS) return `${encoding}\0${text}`;
  return `${encoding}\0#${text.length}:${nodeCrypto().createHash('sha1').update(text).digest('base64')}`;
}

/** How many texts were run through a tokenizer in this process (not served from the cache): for tests. */
export function tokenizerCallCount(): number {
  return tokenizerCalls;
}

export function countTokensWith(text: string, encoding: EncodingName): number {
  if (text.length === 0) return 0;
  return cachedCount(cacheKey(text, encoding), () => countBounded(text, encoding));
}

function cachedCount(key: string, count: () => number): number {
  const cached = cachedCounts.get(key);
  if (cached !== undefined) return cached;
  const value = count();
  if (cachedCounts.size >= MAX_CACHED_COUNTS) cachedCounts.clear();
  cachedCounts.set(key, value);
  return value;
}

/**
 * A text is handed to the tokenizer in pieces none of whose pre-tokens is longer than MAX_PIECE_CHARS
 * (src/import/tokenPieces.ts): whole, as before, unless it holds such a run, whose cost would be quadratic.
 * The pieces of a text that is cut are cached too (a long run of one character is the same piece again and
 * again), under their own keys: a Claude piece is already NFKC-normalised.
 */
function countBounded(text: string, encoding: EncodingName): number {
  const prepared = encoding === 'claude' ? text.normalize('NFKC') : text;
  return countInPieces(prepared, {
    splitPattern: preTokenPattern(encoding),
    countPiece: (piece) => (piece === prepared ? tokenize(piece, encoding) : cachedCount(cacheKey(piece, `${encoding}/piece`), () => tokenize(piece, encoding))),
  });
}

/** Tokens of `text` by `encoding`'s tokenizer, in one pass (a Claude text already NFKC-normalised). */
function tokenize(text: string, encoding: EncodingName): number {
  tokenizerCalls += 1;
  switch (encoding) {
    case 'o200k_base':
      return countO200k(text, PLAIN_TEXT);
    case 'cl100k_base':
      return countCl100k(text, PLAIN_TEXT);
    case 'claude':
      return countClaude(text);
  }
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
 * Claude framing. Anthropic does not document how the Messages API renders a request for the model; the
 * framing counted here is that of the Text Completions prompt the Messages API replaced: the system prompt
 * as is, each turn after `\n\nHuman:` or `\n\nAssistant:`, and the reply primed with `\n\nAssistant:`
 * (4 tokens each with the public tokenizer). It is a few tokens per turn: the SWE-agent Claude runs, whose
 * gap to the recorded totals is 700-950 tokens per call, cannot confirm or refute it, so nothing was fitted.
 */
export const CLAUDE_HUMAN_TURN = '\n\nHuman:';
export const CLAUDE_ASSISTANT_TURN = '\n\nAssistant:';

/** Tokens added to a prompt by the reply priming of `encoding`'s chat format. */
export function replyPrimingTokens(encoding: EncodingName): number {
  return encoding === 'claude' ? countTokensWith(CLAUDE_ASSISTANT_TURN, 'claude') : REPLY_PRIMING_TOKENS;
}

/**
 * Prompt tokens of a chat request. OpenAI families as the OpenAI cookbook counts them: for each message
 * 3 + tokens(role) + tokens(content) (+ 1 + tokens(name)), plus 3 for the reply priming. Claude as the
 * Messages API takes them: system messages are the `system` prompt (content only); consecutive turns of the
 * same side (user and tool results are the human side) are one turn, framed once (see `CLAUDE_HUMAN_TURN`);
 * plus the reply priming. Zero messages → 0.
 */
export function countChatTokens(messages: readonly ChatMessageText[], model: string): number {
  return countChatTokensWith(messages, encodingForModel(model));
}

export function countChatTokensWith(messages: readonly ChatMessageText[], encoding: EncodingName): number {
  if (messages.length === 0) return 0;
  let total = replyPrimingTokens(encoding);
  if (encoding === 'claude') {
    let side: string | undefined;
    for (const message of messages) {
      total += countTokensWith(message.content, encoding);
      if (message.role === 'system') continue;
      const next = claudeSide(message.role);
      if (next !== side) total += countTokensWith(next === 'assistant' ? CLAUDE_ASSISTANT_TURN : CLAUDE_HUMAN_TURN, encoding);
      side = next;
    }
    return total;
  }
  for (const message of messages) total += chatMessageTokens(message, encoding);
  return total;
}

function claudeSide(role: string): 'assistant' | 'human' {
  return role === 'assistant' ? 'assistant' : 'human';
}

/**
 * One message's share of `countChatTokens` (without the reply priming). For Claude, a non-system message is
 * counted as a turn of its own (framing included): callers that send consecutive same-side messages as one
 * turn should merge them first.
 */
export function chatMessageTokens(message: ChatMessageText, encoding: EncodingName): number {
  if (encoding === 'claude') {
    const content = countTokensWith(message.content, encoding);
    if (message.role === 'system') return content;
    return countTokensWith(claudeSide(message.role) === 'assistant' ? CLAUDE_ASSISTANT_TURN : CLAUDE_HUMAN_TURN, encoding) + content;
  }
  let total = TOKENS_PER_MESSAGE + countTokensWith(message.role, encoding) + countTokensWith(message.content, encoding);
  if (message.name !== undefined) total += TOKENS_PER_NAME + countTokensWith(message.name, encoding);
  return total;
}
