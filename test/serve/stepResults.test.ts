/**
 * Serve's view of which answered steps' tool results a request still holds whole (src/serve/stepResults.ts):
 * a result counts as masked once the request sends it otherwise than the first request that carried it,
 * whatever the placeholder says, or leaves it out; a step without tool calls never moves the boundary.
 */
import { describe, expect, it } from 'vitest';
import { answeredStep, firstKeptStep, firstUnmaskedStep } from '../../src/serve/stepResults.js';
import type { ChatMessage } from '../../src/serve/request.js';

const assistant = (id: string): ChatMessage => ({ role: 'assistant', content: null, tool_calls: [{ id, type: 'function', function: { name: 'read_log', arguments: '{}' } }] });
const tool = (id: string, content: string): ChatMessage => ({ role: 'tool', tool_call_id: id, content });
const head: ChatMessage[] = [{ role: 'system', content: 's' }, { role: 'user', content: 'g' }];

describe('serve: the first step whose tool results are as first sent', () => {
  it('a result sent otherwise since it was first sent is masked, whatever its words; the steps after it are not', () => {
    const steps = [answeredStep(['a'], ''), answeredStep(['b'], ''), answeredStep(['c'], '')];
    const whole = [...head, assistant('a'), tool('a', 'log A'), assistant('b'), tool('b', 'log B'), assistant('c'), tool('c', 'log C')];
    expect(firstUnmaskedStep(steps, whole, firstKeptStep(steps, whole))).toBe(0);
    const masked = [...head, assistant('a'), tool('a', '[removed]'), assistant('b'), tool('b', '[removed]'), assistant('c'), tool('c', 'log C')];
    expect(firstUnmaskedStep(steps, masked, firstKeptStep(steps, masked))).toBe(2);
    // The same text again: not masked (it is what the tool returned).
    expect(firstUnmaskedStep(steps, whole, 0)).toBe(0);
  });

  it('a result left out counts as masked; a step without tool calls does not move the boundary; never before the first kept step', () => {
    const steps = [answeredStep(['a'], ''), answeredStep([], 'thinking'), answeredStep(['c'], '')];
    const first = [...head, assistant('a'), tool('a', 'log A'), { role: 'assistant', content: 'thinking' } as ChatMessage, assistant('c'), tool('c', 'log C')];
    expect(firstUnmaskedStep(steps, first, 0)).toBe(0);
    const left = [...head, assistant('a'), { role: 'assistant', content: 'thinking' } as ChatMessage, assistant('c'), tool('c', 'log C')];
    expect(firstUnmaskedStep(steps, left, 0)).toBe(1);
    const windowed = [...head, assistant('c'), tool('c', 'log C')];
    expect(firstKeptStep(steps, windowed)).toBe(2);
    expect(firstUnmaskedStep(steps, windowed, 2)).toBe(2);
  });
});
