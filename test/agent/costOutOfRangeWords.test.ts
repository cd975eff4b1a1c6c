/**
 * A run whose spend passes $9,007 (the engine's cost_out_of_range) thrown out of runAgentLoop names the
 * library's own options in its hint (brakes.maxSteps, brakes.maxCostPico or brakes.contextWindow), not the
 * CLI's flags, as the README promises of every entry point; the run's recording still ends and the error
 * carries its figures so far (`partialRun`).
 */
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/agent/clock.js';
import { memoryRecorder } from '../../src/agent/recorder.js';
import { runAgentLoop } from '../../src/agent/run.js';
import type { ErrorWithPartialRun } from '../../src/agent/thrownRun.js';
import { UserError } from '../../src/errors.js';
import { MINI } from '../helpers.js';
import { answer, ScriptedModel, toolTurn } from './scripted.js';

const echo = { name: 'echo', description: 'echo', parameters: { type: 'object' }, run: () => 'ok' };

describe("a run past $9,007 from runAgentLoop names runAgentLoop's options", () => {
  it('the hint names brakes.maxSteps, brakes.maxCostPico or brakes.contextWindow, never a flag', async () => {
    const model = new ScriptedModel([toolTurn('echo', {}), answer('huge', { inputTokens: 100_000_000_000, outputTokens: 1 })]);
    const recorder = memoryRecorder();
    const error = await runAgentLoop({ model, tools: [echo], brakes: {}, unbounded: true, context: { system: 's', goal: 'g', countTokens: (t) => t.length }, pricing: MINI, clock: new VirtualClock(), recorder }).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(UserError);
    const issue = (error as UserError).issues[0]!;
    expect(issue.code).toBe('cost_out_of_range');
    expect(issue.hint).toBe("set brakes.maxSteps, brakes.maxCostPico or brakes.contextWindow in runAgentLoop's options to bound the run");
    expect((error as Error).message).not.toContain('--max');
    expect((error as ErrorWithPartialRun).partialRun).toMatchObject({ stop: { reason: 'trace_end' } });
    expect(recorder.trace().end.outcome).toBe('error');
  });
});
