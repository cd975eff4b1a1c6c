/**
 * The real loop under `contextWindow: 'model'`: it sends max_tokens with every call, so it stops before
 * a call whose prompt estimate + that max_tokens passes the model's window (a provider would refuse it).
 */
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/agent/clock.js';
import { runAgentLoop } from '../../src/agent/run.js';
import { defineTool } from '../../src/agent/tools.js';
import { NO_BRAKES, type BrakeConfig } from '../../src/brakes/config.js';
import { handPriced } from '../helpers.js';
import { answer, ScriptedModel, toolTurn } from './scripted.js';

const words = (text: string) => text.split(/\s+/).filter(Boolean).length;
const long = defineTool({ name: 'echo', description: '', parameters: {}, run: () => 'w '.repeat(200) });

async function run(brakes: Partial<BrakeConfig>) {
  // The prompt estimate before call 2 is 1,250 tokens (test/agent/loop.test.ts); the model's window 1,349.
  const model = new ScriptedModel([toolTurn('echo', {}), answer('done')], 'small');
  const result = await runAgentLoop({
    model,
    tools: [long],
    brakes: { ...NO_BRAKES, ...brakes },
    unbounded: true,
    context: { system: 'You are terse.', goal: 'Say hello twice.', countTokens: words },
    pricing: handPriced('small', { input: 1, output: 2 }, 1349),
    clock: new VirtualClock(),
  });
  return { result, requests: model.requests };
}

describe("runAgentLoop under contextWindow: 'model'", () => {
  it('stops before a call whose prompt + max_tokens passes the window, and sends one whose sum fits', async () => {
    const stopped = await run({ contextWindow: 'model', maxOutputTokens: 100 });
    expect(stopped.result.stop).toEqual({ reason: 'context_overflow', detail: 'next prompt holds 1250 tokens + max_tokens 100 > context window 1349' });
    expect(stopped.requests).toHaveLength(1);

    const fits = await run({ contextWindow: 'model', maxOutputTokens: 99 });
    expect(fits.result.stop.reason).toBe('completed');
    expect(fits.requests.map((r) => r.maxOutputTokens)).toEqual([99, 99]);
  });

  it('an explicit window of 1,349 tokens lets the 1,250-token prompt through, whatever max_tokens', async () => {
    const explicit = await run({ contextWindow: 1349, maxOutputTokens: 4096 });
    expect(explicit.result.stop.reason).toBe('completed');
  });
});
