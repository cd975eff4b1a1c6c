/**
 * Text of an exact size in tokens, for a synthetic session's answers (synthetic.ts): a real model's answer is
 * re-sent in every later prompt, so a served answer carries as many tokens as its usage reports the growth
 * model keeps of it (keptOutputTokens: a step holds its call's output entering the context), and the real loop's
 * next prompt grows as the CLI's run of the same scenario grows.
 *
 * The filler is a fixed cycle of words each one token with its leading space under every encoding served
 * (o200k_base, cl100k_base, Anthropic's public tokenizer): each word is a pre-token of its own, so n words
 * count n tokens. The size is not taken on trust: the text is counted with the model's tokenizer
 * (src/import/tokenCount.ts, which caches the count for the next request that re-sends it) and corrected
 * by the difference until it counts exactly. Deterministic: no randomness, the same size gives the same text.
 */
import { chatMessageTokens, countTokensWith, type EncodingName } from '../import/tokenCount.js';
import { outputEnteringContext } from '../kernel/stepTokens.js';
import type { CallUsage } from '../pricing/types.js';
import { answerKind, type Reply } from './reply.js';
import { messageText, type ChatMessage } from './request.js';

const WORDS = ' the agent is to plan the next step of the task and call a tool with the result'.split(/(?= )/);
const CYCLE = WORDS.join('');
/** CYCLE_ENDS[k] = the length of the cycle's first k words. */
const CYCLE_ENDS = WORDS.reduce((ends, word) => [...ends, ends[ends.length - 1]! + word.length], [0]);

/** `words` filler words (a leading space before each), deterministic: the cycle repeated, then its first words. */
export function fillerWords(words: number): string {
  return CYCLE.repeat(Math.floor(words / WORDS.length)) + CYCLE.slice(0, CYCLE_ENDS[words % WORDS.length]);
}

/** How a sized text is counted: the tokens of the message it is sent in, given its content (null: none). */
export type CountOf = (content: string | null) => number;

/** The content `label` + filler, or the filler alone (`label` ''), for which `count` gives `targetTokens`; undefined if none does. */
function fitted(targetTokens: number, label: string, count: CountOf): string | undefined {
  const fewest = label === '' ? 1 : 0;
  const build = (words: number) => (label === '' ? fillerWords(words).slice(1) : label + fillerWords(words));
  // Estimated from one word (its joins, to the label and to what follows, are those of any size), so the
  // long text is counted once; a word more or less is a token more or less: a count corrects any miss.
  let words = Math.max(fewest, 1 + targetTokens - count(build(1)));
  for (let tries = 0; tries < 4; tries++) {
    const got = count(build(words));
    if (got === targetTokens) return build(words);
    const next = words + targetTokens - got;
    if (next < fewest || next === words) return undefined;
    words = next;
  }
  return undefined;
}

export interface SizedText {
  /** What the message must count, framing and everything else in it included. */
  targetTokens: number;
  /** Leads the text when it fits (what answered, and its size), for people reading a transcript. */
  label: string;
  count: CountOf;
  /** The content may be null (an answer with tool calls): when even the shortest text counts past the target. */
  nullable: boolean;
}

/**
 * The content of a message that counts `targetTokens` by `count`: the label and filler, else filler alone;
 * when no text is short enough (a message whose framing and tool calls already count past the target), the
 * shortest there is: none for an answer with tool calls, one word for a text answer (an empty one would read
 * as no answer: the real loop's adapter marks it unparseable).
 */
export function sizedText({ targetTokens, label, count, nullable }: SizedText): string | null {
  const found = fitted(targetTokens, label, count) ?? fitted(targetTokens, '', count);
  if (found !== undefined) return found;
  return nullable ? null : fillerWords(1).slice(1);
}

/** The content of text alone (no framing: a context summary's, which the real loop wraps in a message of its own) that counts `tokens` under `encoding`. */
export function textOfTokens(tokens: number, label: string, encoding: EncodingName): string {
  return sizedText({ targetTokens: tokens, label, count: (content) => countTokensWith(content ?? '', encoding), nullable: false }) ?? '';
}

/**
 * The tokens a later prompt holds of an answer whose usage is `usage`: what the growth model keeps of its output
 * (kernel/stepTokens.ts outputEnteringContext) in a synthetic session, whose reasoning re-enters its prompts as the
 * CLI's run of the scenario takes it (ServeSession's default). Synthetic agents report no reasoning, so it is the
 * whole output: what the real loop's tracker keeps too (the output less its reasoning, by default: loop/session.ts
 * recordResponse), from the usage serve reports.
 */
export function keptOutputTokens(usage: CallUsage): number {
  return outputEnteringContext(usage.output, usage.reasoning, true);
}

/**
 * The content of a synthetic session's answer `reply` (answered by `what`: `synthetic healthy`), sized so
 * its assistant message, re-sent, counts under `encoding` (src/import/tokenCount.ts, as the session counts
 * the messages it is sent: the chat format's framing, and the tool calls' names and arguments, included)
 * the output tokens a later prompt holds of it (keptOutputTokens).
 */
export function sizedAnswerContent(reply: Reply, what: string, encoding: EncodingName): string | null {
  const targetTokens = keptOutputTokens(reply.usage);
  const calls: NonNullable<ChatMessage['tool_calls']> = reply.toolCalls.map((call) => ({ ...call, function: { ...call.function } }));
  const count: CountOf = (content) => chatMessageTokens({ role: 'assistant', content: messageText(calls.length > 0 ? { role: 'assistant', content, tool_calls: calls } : { role: 'assistant', content }) }, encoding);
  const label = `[loopcost] ${what} ${answerKind(reply.record)} (${targetTokens} output tokens)`;
  return sizedText({ targetTokens, label, count, nullable: reply.toolCalls.length > 0 });
}
