/**
 * What a tool threw reaches the model (and the recording, which the same-tool-same-error brake compares) in
 * words a reader can use: an Error's message once, its name only when it adds something; another value as
 * its JSON. Before, `throw new Error('OrderNotFound: ZZ')` read "error: Error: OrderNotFound: ZZ" and a thrown
 * plain object "error: [object Object]" (user review of runAgentLoop).
 */
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { memoryRecorder } from '../../src/agent/recorder.js';
import { runAgentLoop } from '../../src/agent/run.js';
import { defineTool } from '../../src/agent/tools.js';
import { thrownWords } from '../../src/agent/thrownWords.js';
import { MINI } from '../helpers.js';
import { answer, ScriptedModel, toolTurn } from './scripted.js';

class OrderNotFound extends Error {
  override name = 'OrderNotFound';
}

/** A run whose one tool throws `thrown`, then answers: what the model read, and what the recording keeps. */
async function thrownBy(thrown: unknown) {
  const lookup = defineTool({ name: 'lookup', description: 'looks an order up', parameters: { type: 'object' }, run: () => Promise.reject(thrown) });
  const model = new ScriptedModel([toolTurn('lookup', { orderId: 'ZZ' }), answer('sorry')]);
  const recorder = memoryRecorder();
  const run = await runAgentLoop({ model, tools: [lookup], brakes: { maxSteps: 5 }, context: { system: 's', goal: 'g', countTokens: (text) => text.length }, pricing: MINI, recorder });
  expect(run.stop.reason).toBe('completed');
  const observation = model.requests[1]!.messages.at(-1) as { role: string; content: string };
  expect(observation.role).toBe('tool');
  return { observation: observation.content, recorded: recorder.trace().calls[0]!.toolCalls![0]!.error };
}

describe("a tool's error as the model reads it", () => {
  it.each([
    ['an Error: its message once', new Error('OrderNotFound: ZZ'), 'OrderNotFound: ZZ'],
    ['a TypeError: the name says what went wrong', new TypeError('x is not a function'), 'TypeError: x is not a function'],
    ['an Error class of its own: its name', new OrderNotFound('ZZ'), 'OrderNotFound: ZZ'],
    ['an Error without a message: its name', new RangeError(), 'RangeError'],
    ['a plain object: its JSON', { code: 'E42', orderId: 'ZZ' }, '{"code":"E42","orderId":"ZZ"}'],
    ['a string: as it is', 'no such order', 'no such order'],
    ['a number', 404, '404'],
  ])('%s', async (_, thrown, words) => {
    const { observation, recorded } = await thrownBy(thrown);
    expect(observation).toBe(`error: ${words}`);
    expect(recorded).toBe(words);
  });

  it('a value with no JSON (a cycle, a BigInt) or no text at all, and an Error of another realm: readable, never a throw', () => {
    const cycle: Record<string, unknown> = { code: 'E42' };
    cycle['self'] = cycle;
    expect(thrownWords(cycle)).toBe('[object Object] (no JSON; keys code, self)');
    expect(thrownWords({ n: 10n })).toBe('[object Object] (no JSON; keys n)');
    expect(thrownWords(Object.create(null))).toBe('{}');
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    expect(thrownWords(proxy)).toBe('a value with no text (object) was thrown');
    expect(thrownWords(runInNewContext("new Error('OrderNotFound: ZZ')"))).toBe('OrderNotFound: ZZ');
    expect(thrownWords(runInNewContext("new TypeError('x')"))).toBe('TypeError: x');
    expect(thrownWords(undefined)).toBe('undefined');
    expect(thrownWords('')).toBe('an empty string was thrown');
  });
});
