/**
 * A run whose model calls failed until a brake stopped it before their retry names the failure. Each failed
 * attempt counts as a step (as replay counts a recorded failed call), so with no server listening and
 * `maxSteps: 3` the step cap stops the run after 3 attempts, before the loop gives up after its 3 retries
 * (4 attempts, which would end `trace_end` naming the error): the stop said only "3 steps taken, limit 3"
 * and ECONNREFUSED appeared nowhere in the result (user review of runAgentLoop, cr.mjs). The run's `notes`
 * now name the last failure; the stop's detail stays the brake's, which a replay of the recording says too.
 */
import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/agent/clock.js';
import { openAIChatModel } from '../../src/agent/openaiChat.js';
import { memoryRecorder } from '../../src/agent/recorder.js';
import { runAgentLoop } from '../../src/agent/run.js';
import { ModelCallError } from '../../src/agent/types.js';
import { NO_BRAKES, type BrakeConfig } from '../../src/brakes/config.js';
import { MINI } from '../helpers.js';
import { closedPort, unhandledRejections } from './netDoubles.js';
import { ScriptedModel, toolTurn } from './scripted.js';
import { figures, replayFigures } from './traceDriven.js';

const unhandled = unhandledRejections();
afterEach(() => expect(unhandled.reasons).toEqual([]));

const context = { system: 's', goal: 'g', countTokens: (text: string) => text.length };
const pricing = { ...MINI, requested: 'gpt-4o-mini' };

describe('model calls that failed until a brake stopped the run: the run names the failure', () => {
  it('no server listening, maxSteps 3: stopped max_steps, its notes naming ECONNREFUSED; the recording replays to the same stop', async () => {
    const client = new OpenAI({ apiKey: 'k', baseURL: `http://127.0.0.1:${await closedPort()}/v1`, maxRetries: 0 });
    const recorder = memoryRecorder();
    const run = await runAgentLoop({ model: openAIChatModel({ model: 'gpt-4o-mini', client }), tools: [], brakes: { maxSteps: 3 }, context, pricing, clock: new VirtualClock(), recorder });
    expect(run.stop).toEqual({ reason: 'max_steps', detail: '3 steps taken, limit 3' });
    expect([run.steps, run.calls, run.failedCalls, run.costPico]).toEqual([3, 3, 3, 0]);
    expect(run.notes).toHaveLength(1);
    expect(run.notes![0]).toMatch(/^the run's last 3 model calls failed \(each counted as a step: every step the run took, no call answered\) and the run stopped \(max_steps\) before a retry; the last failure: Connection error\. .*ECONNREFUSED/);
    const settings = { brakes: { ...NO_BRAKES, maxSteps: 3 } as BrakeConfig, strategy: { kind: 'full' as const, cache: 'recorded' as const }, pricing };
    expect(figures(run)).toEqual(replayFigures(recorder.trace(), settings));
  });

  it('failures after answered steps: the ones in a row at the end are counted, with the last one named (its status first)', async () => {
    const refused = new ModelCallError('connection refused', { retryable: true });
    const limited = new ModelCallError('rate limited', { status: 429, retryable: true });
    const model = new ScriptedModel([toolTurn('nope', {}), refused, toolTurn('nope', {}), refused, limited]);
    const run = await runAgentLoop({ model, tools: [], brakes: { maxSteps: 5 }, context, pricing: MINI, retry: { maxRetries: 3, backoffMs: () => 0 } });
    expect(run.stop.reason).toBe('max_steps');
    expect(run.notes).toEqual(["the run's last 2 model calls failed (each counted as a step) and the run stopped (max_steps) before a retry; the last failure: 429 rate limited"]);
  });

  it("a timeout whose detail names the failed call not retried: no note repeats it", async () => {
    const refused = new ModelCallError('connection refused', { retryable: true });
    const model = new ScriptedModel([refused, refused, refused, refused, refused]);
    const run = await runAgentLoop({ model, tools: [], brakes: { maxSteps: 10, timeoutMs: 2500 }, context, pricing: MINI, clock: new VirtualClock(), retry: { maxRetries: 5, backoffMs: () => 1000 } });
    expect(run.stop.reason).toBe('timeout');
    expect(run.stop.detail).toContain('the failed model call was not retried: its retry would start past the timeout');
    expect(run.notes).toBeUndefined();
  });

  it('a run that gives up names the failure in its stop already, and one that ends on an answer has nothing to note', async () => {
    const refused = new ModelCallError('connection refused', { retryable: true });
    const gaveUp = await runAgentLoop({ model: new ScriptedModel([refused, refused]), tools: [], brakes: { maxSteps: 5 }, context, pricing: MINI, retry: { maxRetries: 1, backoffMs: () => 0 } });
    expect(gaveUp.stop).toEqual({ reason: 'trace_end', detail: 'model call failed: connection refused; gave up after 1 retries' });
    expect(gaveUp.notes).toBeUndefined();
    const answered = await runAgentLoop({ model: new ScriptedModel([refused, toolTurn('nope', {})]), tools: [], brakes: { maxSteps: 2 }, context, pricing: MINI, retry: { maxRetries: 3, backoffMs: () => 0 } });
    expect(answered.stop.reason).toBe('max_steps');
    expect(answered.notes).toBeUndefined();
  });
});
