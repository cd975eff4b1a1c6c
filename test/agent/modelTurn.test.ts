/**
 * A Model whose turn the loop cannot bill — no usage, a count that is negative, NaN, fractional or a
 * string — is the Model adapter's bug, not the caller's input: a ModelTurnError (not a UserError) naming
 * the model and each bad field, thrown when the turn arrives and before it is billed. Before, no usage
 * was a TypeError reading 'inputTokens', `{ inputTokens: -10, outputTokens: NaN }` a UserError blaming the
 * run ("one run costs more than $9,007 … set --max-steps"), and strings ('10') ran to the end silently.
 */
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/agent/clock.js';
import { memoryRecorder } from '../../src/agent/recorder.js';
import { runAgentLoop } from '../../src/agent/run.js';
import { ModelTurnError } from '../../src/agent/turnCheck.js';
import type { ModelTurn } from '../../src/agent/types.js';
import { UserError } from '../../src/errors.js';
import { MINI } from '../helpers.js';
import { answer, ScriptedModel, toolTurn } from './scripted.js';

const echo = { name: 'echo', description: 'says it back', parameters: { type: 'object' }, run: () => 'echoed' };
const turn = (usage: unknown): ModelTurn => ({ text: 'done', toolCalls: [], usage: usage as ModelTurn['usage'] });

async function failure(script: ModelTurn[], strategy?: unknown) {
  const model = new ScriptedModel(script);
  const recorder = memoryRecorder();
  const context = { system: 's', goal: 'g', countTokens: (text: string) => text.length, ...(strategy === undefined ? {} : { strategy }) };
  const error = await runAgentLoop({ model, tools: [echo], brakes: {}, unbounded: true, context, pricing: MINI, clock: new VirtualClock(), recorder } as Parameters<typeof runAgentLoop>[0]).then(
    () => new Error('the run completed'),
    (thrown: unknown) => thrown,
  );
  return { error, calls: model.requests.length, recorded: recorder.trace().calls };
}

describe("a turn the loop cannot bill is the Model's error, named", () => {
  it.each([
    ['no usage', undefined, ['usage'], 'usage is undefined, not { inputTokens, outputTokens }'],
    ['a negative prompt and NaN output', { inputTokens: -10, outputTokens: NaN }, ['usage.inputTokens', 'usage.outputTokens'], 'usage.inputTokens is -10; usage.outputTokens is NaN'],
    ['counts given as strings', { inputTokens: '10', outputTokens: '5' }, ['usage.inputTokens', 'usage.outputTokens'], 'usage.inputTokens is "10"; usage.outputTokens is "5"'],
    ['a fractional cached part', { inputTokens: 10, cachedInputTokens: 2.5, outputTokens: 5 }, ['usage.cachedInputTokens'], 'usage.cachedInputTokens is 2.5'],
    ['no output count', { inputTokens: 10 }, ['usage.outputTokens'], 'usage.outputTokens is undefined'],
  ])('%s: a ModelTurnError naming the model and the fields, the call never billed nor recorded', async (_, usage, fields, said) => {
    const { error, calls, recorded } = await failure([toolTurn('echo', {}), turn(usage)]);
    expect(error).toBeInstanceOf(ModelTurnError);
    expect(error).not.toBeInstanceOf(UserError);
    expect(error).toMatchObject({ name: 'ModelTurnError', model: 'mini', fields });
    expect((error as Error).message).toContain(`model "mini" answered a call with a turn the loop cannot bill: ${said} (a token count is a whole number, 0 or more`);
    expect((error as Error).message).toContain("This is the Model's bug");
    expect(calls).toBe(2);
    // The first call was billed and recorded; the bad turn never was.
    expect(recorded).toHaveLength(1);
  });

  it('a summary call answered with no usage is named as a summary call', async () => {
    const strategy = { kind: 'summary', summary: { triggerTokens: 1, keepSteps: 1, summaryTokens: 10 } };
    const { error } = await failure([toolTurn('echo', { a: 1 }), toolTurn('echo', { a: 2 }), turn({ outputTokens: -1 })], strategy);
    expect(error).toBeInstanceOf(ModelTurnError);
    expect((error as Error).message).toMatch(/^model "mini" answered a summary call with a turn the loop cannot bill: usage.outputTokens is -1 /);
  });

  it('a turn with whole counts (inputTokens left out) runs as before', async () => {
    const model = new ScriptedModel([toolTurn('echo', {}), answer('done', { outputTokens: 20 } as never)]);
    const run = await runAgentLoop({ model, tools: [echo], brakes: {}, unbounded: true, context: { system: 's', goal: 'g', countTokens: (text) => text.length }, pricing: MINI, clock: new VirtualClock() });
    expect(run.stop.reason).toBe('completed');
  });
});
