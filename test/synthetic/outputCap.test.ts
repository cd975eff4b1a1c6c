/**
 * A synthetic agent's provider cuts an answer at the request's max_tokens, as a real one does and as
 * `serve` does: a response drawn longer than the max_tokens the loop sends (`--max-output-tokens`) is
 * billed at the cap, unparseable, with no tool calls and no final answer (src/synthetic/outputCap.ts).
 * A final answer cut there does not complete the task: the agent has nothing more to send, and the run
 * ends (cut_off) with the task not done. Served over HTTP to a client sending that max_tokens, the same
 * run answers the same calls, cut the same way (finish_reason "length"), and ends at the same call.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_BRAKES } from '../../src/brakes/config.js';
import { scenarioRuns, type SyntheticRun } from '../../src/scenario/run.js';
import { startServer, type RunningServer } from '../../src/serve/index.js';
import { post } from '../serve/client.js';
import { CAP, PICO, PRICES, SCENARIO, STEPS } from './outputCapScenario.js';

const RUNS = 30;
const simulated = (maxOutputTokens: number): SyntheticRun[] => [...scenarioRuns(SCENARIO, { prices: PRICES, runs: RUNS, brakes: { ...NO_BRAKES, maxOutputTokens }, keepSteps: true }, true)];
const uncut = simulated(4096);
const capped = simulated(CAP);
/** What each call drew (nothing is near 4096): its output before any cut. */
const drawnOf = (k: number) => uncut[k]!.calls.map((call) => call.outputTokens);
/** The first run whose final answer is drawn past CAP and whose first call fits under it. */
const RUN = uncut.findIndex((_, k) => drawnOf(k)[STEPS - 1]! > CAP && drawnOf(k)[0]! <= CAP);

let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ sources: { scenario: { scenario: SCENARIO } }, prices: PRICES, port: 0 });
});
afterAll(() => server.close());

describe('a synthetic agent drawing past max_tokens is cut there, simulated and served alike', () => {
  it(`at max_tokens 4096 every run completes in ${STEPS} steps (the draws fit)`, () => {
    for (const run of uncut) {
      expect(run.result.stopReason).toBe('completed');
      expect(run.result.steps).toBe(STEPS);
      expect(run.truth.taskDone).toBe(true);
    }
    expect(RUN).toBeGreaterThanOrEqual(0);
  });

  it(`at max_tokens ${CAP} a call drawn longer is billed at the cap, unparseable, with no tool calls; a cut final answer does not complete the run`, () => {
    let cutCalls = 0;
    capped.forEach((run, k) => {
      const drawn = drawnOf(k);
      expect(run.calls).toHaveLength(STEPS);
      run.calls.forEach((call, i) => {
        expect(call.outputTokens).toBe(Math.min(drawn[i]!, CAP));
        if (drawn[i]! > CAP) {
          cutCalls += 1;
          expect(call.unparseable).toBe(true);
          expect(call.toolCalls).toBeUndefined();
          expect(call.final).toBeUndefined();
        } else expect(call).toEqual(uncut[k]!.calls[i]);
        const row = run.result.rows[i]!;
        expect(row.outputTokens).toBe(call.outputTokens);
        expect(row.costPico).toBe(row.inputTokens * PICO.input + call.outputTokens * PICO.output);
      });
      const finalCut = drawn[STEPS - 1]! > CAP;
      expect(run.result.stopReason).toBe(finalCut ? 'trace_end' : 'completed');
      expect(run.ending).toBe(finalCut ? 'cut_off' : undefined);
      expect(run.truth.taskDone).toBe(!finalCut);
      expect(run.result.steps).toBe(STEPS);
      expect(run.result.outputTokens).toBe(drawn.reduce((sum, n) => sum + Math.min(n, CAP), 0));
    });
    expect(cutCalls).toBeGreaterThan(0);
  });

  it(`served to a client sending max_tokens ${CAP}, the run whose final answer is cut answers the same calls and ends at the same call`, async () => {
    const sim = capped[RUN]!;
    const messages: Record<string, unknown>[] = [
      { role: 'system', content: 'be brief' },
      { role: 'user', content: 'do the task' },
    ];
    const headers = { 'x-loopcost-session': 'cut', 'x-loopcost-run': String(RUN + 1) };
    for (const [i, call] of sim.calls.entries()) {
      const answer = await post(server.url, { model: 'tiny', messages, max_tokens: CAP }, headers);
      expect(answer.status).toBe(200);
      const choice = answer.json.choices[0];
      const cut = call.unparseable === true;
      expect(choice.finish_reason, `call ${i + 1}`).toBe(cut ? 'length' : i === STEPS - 1 ? 'stop' : 'tool_calls');
      expect(answer.json.usage.completion_tokens).toBe(call.outputTokens);
      expect(answer.json.loopcost.costPico).toBe(String(answer.json.usage.prompt_tokens * PICO.input + call.outputTokens * PICO.output));
      const record = answer.json.loopcost.record;
      expect(record.unparseable).toBe(call.unparseable);
      expect(record.final).toBe(call.final);
      expect((record.toolCalls ?? []).length).toBe(call.toolCalls?.length ?? 0);
      const message = choice.message;
      messages.push({ role: 'assistant', content: message.content, ...(message.tool_calls ? { tool_calls: message.tool_calls } : {}) });
      for (const tool of message.tool_calls ?? []) messages.push({ role: 'tool', tool_call_id: tool.id, content: 'ok' });
    }
    // The final answer was cut: the agent has not finished, and has nothing more to send (as the simulated run ends, cut_off).
    expect(sim.ending).toBe('cut_off');
    const after = await post(server.url, { model: 'tiny', messages, max_tokens: CAP }, headers);
    expect(after.status).toBe(409);
    expect(after.json.error.loopcost.agentEnding).toBe('cut_off');
  });
});
