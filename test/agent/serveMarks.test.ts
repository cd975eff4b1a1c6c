/**
 * The adapter reads `loopcost serve`'s own marks of an answer (openaiResponse.ts serveMarksOf): a served
 * backtrack or unparseable response is answered as text with `finish_reason: "stop"`, which alone reads as a
 * final answer; `loopcost.record` says what it is. The parity over HTTP: test/serve/servedBacktrackMaskParity.test.ts.
 */
import type { ChatCompletion } from 'openai/resources/chat/completions';
import { describe, expect, it } from 'vitest';
import { turnOf } from '../../src/agent/openaiResponse.js';

function served(record: Record<string, unknown> | undefined, finish = 'stop'): ChatCompletion {
  return {
    id: 'c', object: 'chat.completion', created: 0, model: 'gpt-4o-mini',
    choices: [{ index: 0, message: { role: 'assistant', content: '[loopcost] synthetic backtracker backtrack (12 output tokens)', refusal: null }, logprobs: null, finish_reason: finish }],
    usage: { prompt_tokens: 100, completion_tokens: 12, total_tokens: 112 },
    ...(record === undefined ? {} : { loopcost: { session: 's', call: 2, record } }),
  } as unknown as ChatCompletion;
}

describe('openAIChatModel reads loopcost serve\'s marks of an answer', () => {
  it('a served backtrack is a backtrack, a served unparseable response unparseable (not a final answer)', () => {
    expect(turnOf(served({ type: 'call', outputTokens: 12, backtrack: true }), undefined).marks).toEqual({ backtrack: true });
    expect(turnOf(served({ type: 'call', outputTokens: 12, unparseable: true }), undefined).marks).toEqual({ unparseable: true });
    // A backtrack cut at the output cap: both, as serve's record says (the replay of the call reads both).
    expect(turnOf(served({ type: 'call', outputTokens: 12, backtrack: true, unparseable: true }, 'length'), undefined).marks).toEqual({ backtrack: true, unparseable: true });
  });

  it('a recorded compaction call is a compaction (paid, no step, the run goes on), a recorded final answer final', () => {
    expect(turnOf(served({ type: 'call', outputTokens: 12, compaction: true }), undefined).marks).toEqual({ compaction: true });
    expect(turnOf(served({ type: 'call', outputTokens: 12, final: true }, 'tool_calls'), undefined).marks).toEqual({ final: true });
  });

  it('an answer serve marks as neither, one whose mark is no `true`, or another server\'s, is the answer it reads as', () => {
    expect(turnOf(served({ type: 'call', outputTokens: 12 }), undefined).marks).toBeUndefined();
    expect(turnOf(served({ type: 'call', outputTokens: 12, backtrack: 'true', unparseable: 1 }), undefined).marks).toBeUndefined();
    expect(turnOf(served(undefined), undefined).marks).toBeUndefined();
  });
});
