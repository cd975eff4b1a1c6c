/**
 * The real loop (agentLoop, OpenAI adapter) against `loopcost serve` answering from the same scenario as
 * the simulated loop: serve refuses the call as OpenAI does (400 `context_length_exceeded`, the numbers in
 * its message), the adapter reads it as a refusal, and the run stops as the simulated one does —
 * `provider_refused` at call 4 after 3 steps, the refused call paid nothing, under `--max-steps 4` too;
 * a context-window brake that fires first wins in both. The served prompts are the tokenizer's count
 * of the messages, within 100 tokens of the simulated ones (providerRefusalWorld.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_BRAKES, type BrakeConfig } from '../../src/brakes/config.js';
import { refusalOfMessage } from '../../src/loop/refusalWords.js';
import { scenarioRuns } from '../../src/scenario/run.js';
import { startServer, type RunningServer } from '../../src/serve/index.js';
import { get, post } from '../serve/client.js';
import { PRICES4, realLoopAgainstServe, REFUSED_CALL, SCENARIO4, WINDOW4 } from './providerRefusalWorld.js';

let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ sources: { scenario: { scenario: SCENARIO4 } }, prices: PRICES4, port: 0 });
});
afterAll(() => server.close());

function simulated(brakes: BrakeConfig) {
  const [run] = [...scenarioRuns(SCENARIO4, { prices: PRICES4, runs: 1, brakes }, false)];
  return run!.result;
}

const DETAIL = /^the provider refused the call: prompt of (\d+) tokens \+ max_tokens 4096 > context window 8000$/;

describe('real loop against serve = simulated loop, when the provider refuses the call', () => {
  for (const brakes of [NO_BRAKES, { ...NO_BRAKES, maxSteps: 4 }]) {
    it(`${brakes.maxSteps === undefined ? 'no brakes' : '--max-steps 4'}: both stop provider_refused at call ${REFUSED_CALL}, after ${REFUSED_CALL - 1} steps, the refused call paid nothing`, async () => {
      const records: unknown[] = [];
      const real = await realLoopAgainstServe(server, brakes, { header() {}, call: (record) => records.push(record), end: (record) => records.push(record) });
      const sim = simulated(brakes);
      expect([real.stop.reason, real.steps, real.calls, real.failedCalls]).toEqual(['provider_refused', REFUSED_CALL - 1, REFUSED_CALL, 1]);
      expect([sim.stopReason, sim.steps, sim.failedCalls]).toEqual([real.stop.reason, real.steps, real.failedCalls]);
      const served = Number(DETAIL.exec(real.stop.detail)![1]);
      const simulatedPrompt = Number(DETAIL.exec(sim.stopDetail!)![1]);
      expect(Math.abs(served - simulatedPrompt)).toBeLessThan(100);
      // Nothing billed for the refused call: the run's cost is what serve billed for the calls it answered.
      const session = (await get(server.url, '/loopcost/sessions')).json.sessions.at(-1);
      expect([session.calls, session.steps, session.failedCalls, session.costPico]).toEqual([REFUSED_CALL, REFUSED_CALL - 1, 1, String(real.costPico)]);
      // Its recording: the refused call a failed call billed nothing, recorded as the refusal with its numbers
      // (a replay of the recording ends there too), and the run's end an error saying why.
      const contextLengthExceeded = { promptTokens: served, maxOutputTokens: 4096, contextWindowTokens: 8000 };
      expect(records.slice(-2)).toEqual([
        { type: 'call', outputTokens: 0, latencyMs: 0, failed: { status: 400, message: expect.stringMatching(/^This model's maximum context length is 8000 tokens/), contextLengthExceeded } },
        { type: 'end', outcome: 'error', status: real.stop.detail, recordedCostUsd: expect.any(Number) },
      ]);
    });
  }

  it('--context-window model: the brake stops both before the call, context_overflow after 3 steps', async () => {
    const brakes: BrakeConfig = { ...NO_BRAKES, contextWindow: 'model', maxSteps: 4 };
    const real = await realLoopAgainstServe(server, brakes);
    expect([real.stop.reason, real.steps, real.calls, real.failedCalls]).toEqual(['context_overflow', 3, 3, 0]);
    expect(simulated(brakes).stopReason).toBe('context_overflow');
  });

  it("serve says the refusal in OpenAI's words and code, which the adapter reads back", async () => {
    const words = (n: number) => Array.from({ length: n }, () => 'word').join(' ');
    const answer = await post(server.url, { model: 'tiny4', messages: [{ role: 'user', content: words(7900) }], max_tokens: 4096 }, { 'x-loopcost-session': 'words' });
    expect([answer.status, answer.json.error.code, answer.json.error.type]).toEqual([400, 'context_length_exceeded', 'invalid_request_error']);
    const refusal = refusalOfMessage(answer.json.error.message)!;
    expect(refusal).toMatchObject({ maxOutputTokens: 4096, contextWindowTokens: WINDOW4 });
    expect(refusal.promptTokens + 4096).toBeGreaterThan(WINDOW4);
    // OpenAI's own messages, with and without max_tokens.
    expect(refusalOfMessage("This model's maximum context length is 128000 tokens. However, you requested 130096 tokens (126000 in the messages, 4096 in the completion). Please reduce the length of the messages or completion.")).toEqual({ promptTokens: 126000, maxOutputTokens: 4096, contextWindowTokens: 128000 });
    expect(refusalOfMessage("This model's maximum context length is 8192 tokens. However, your messages resulted in 9000 tokens. Please reduce the length of the messages.")).toEqual({ promptTokens: 9000, contextWindowTokens: 8192 });
    expect(refusalOfMessage('Rate limit reached')).toBeUndefined();
  });
});
