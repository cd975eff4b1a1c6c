/**
 * The text a synthetic session's answer carries counts, under the model's tokenizer, exactly the tokens its
 * usage reports (src/serve/sizedText.ts): its assistant message with the chat framing and its tool calls, or
 * a summary's text alone; built deterministically, and fast enough for answers of thousands of tokens.
 */
import { describe, expect, it } from 'vitest';
import { chatMessageTokens, countTokensWith, tokenizerCallCount, type EncodingName } from '../../src/import/tokenCount.js';
import { messageText } from '../../src/serve/request.js';
import { fillerWords, sizedAnswerContent, textOfTokens } from '../../src/serve/sizedText.js';
import type { Reply } from '../../src/serve/reply.js';

const ENCODINGS: EncodingName[] = ['o200k_base', 'cl100k_base', 'claude'];

function reply(output: number, toolCalls: Reply['toolCalls'] = []): Reply {
  return {
    session: 's',
    call: 1,
    model: 'gpt-4o-mini',
    content: null,
    toolCalls,
    record: { type: 'call', outputTokens: output, ...(toolCalls.length > 0 ? { toolCalls: toolCalls.map((c) => ({ name: c.function.name, arguments: c.function.arguments, resultTokens: 1 })) } : { final: true }) },
    usage: { input: 10, cached: 0, cacheWrite: 0, cacheWrite1h: 0, output, reasoning: 0 },
    costPico: 0,
  };
}

const READ_LOG = [{ id: 'call_s_1_1', type: 'function' as const, function: { name: 'read_log', arguments: '{"since":"monday","path":"logs/app.log"}' } }];

/** The assistant message's tokens as serve counts the messages it is sent (synthetic.ts viewOf). */
function counted(content: string | null, toolCalls: Reply['toolCalls'], encoding: EncodingName): number {
  const text = messageText(toolCalls.length > 0 ? { role: 'assistant', content, tool_calls: toolCalls.map((c) => ({ ...c, function: { ...c.function } })) } : { role: 'assistant', content });
  return chatMessageTokens({ role: 'assistant', content: text }, encoding);
}

describe('sized text: an answer counts the output tokens it reports', () => {
  it.each(ENCODINGS)('%s: a text answer and a step with tool calls count exactly their output, from a handful of tokens to thousands', (encoding) => {
    for (const output of [6, 7, 12, 15, 16, 17, 20, 40, 99, 400, 1234]) {
      const answer = sizedAnswerContent(reply(output), 'synthetic healthy', encoding);
      expect(counted(answer, [], encoding)).toBe(output);
      const step = sizedAnswerContent(reply(output, READ_LOG), 'synthetic healthy', encoding);
      // Its tool call alone counts ~20 tokens (framing, name, arguments): from there on, exact.
      if (output >= 30) expect(counted(step, READ_LOG, encoding)).toBe(output);
      else expect(step === null || counted(step, READ_LOG, encoding) === output).toBe(true);
    }
    // Large enough, the label leads: what answered and its size.
    expect(sizedAnswerContent(reply(400), 'synthetic healthy', encoding)).toMatch(/^\[loopcost\] synthetic healthy answer \(400 output tokens\) the agent is to plan/);
    expect(sizedAnswerContent(reply(400, READ_LOG), 'synthetic healthy', encoding)).toMatch(/^\[loopcost\] synthetic healthy step \(400 output tokens\) the agent/);
  });

  it('below what the message frames and its tool calls count: no text with tool calls, one word for a text answer (never empty: it would read as no answer)', () => {
    expect(sizedAnswerContent(reply(3, READ_LOG), 'synthetic healthy', 'o200k_base')).toBeNull();
    expect(sizedAnswerContent(reply(0), 'synthetic healthy', 'o200k_base')).toBe('the');
    expect(sizedAnswerContent(reply(2), 'synthetic healthy', 'claude')).toBe('the');
  });

  it.each(ENCODINGS)('%s: a summary\'s text alone counts its tokens', (encoding) => {
    for (const tokens of [1, 2, 5, 13, 14, 300, 2000]) expect(countTokensWith(textOfTokens(tokens, '[loopcost] context summary (x output tokens)', encoding), encoding)).toBe(tokens);
  });

  it('is deterministic: the same size gives the same text, a smaller filler is a prefix of a larger', () => {
    expect(sizedAnswerContent(reply(500), 'synthetic healthy', 'o200k_base')).toBe(sizedAnswerContent(reply(500), 'synthetic healthy', 'o200k_base'));
    expect(fillerWords(1000).startsWith(fillerWords(10))).toBe(true);
    expect(fillerWords(3)).toBe(' the agent is');
  });

  it('is cheap: an answer of 4,000 tokens costs two tokenizer passes (the count the request re-sending it reads from the cache)', () => {
    const calls = (page: number) => [{ ...READ_LOG[0]!, function: { name: 'read_log', arguments: `{"page":${page}}` } }];
    sizedAnswerContent(reply(4000, calls(-1)), 'synthetic healthy', 'o200k_base'); // the tokenizer loaded
    const passes = tokenizerCallCount();
    for (let i = 0; i < 20; i++) {
      const content = sizedAnswerContent(reply(4000, calls(i)), 'synthetic healthy', 'o200k_base');
      expect(counted(content, calls(i), 'o200k_base')).toBe(4000);
    }
    // Per answer: its label, one word and its tool call counted, then the whole message once; counted again (as the next request counts it), from the cache.
    expect(tokenizerCallCount() - passes).toBe(20 * 2);
  });
});
