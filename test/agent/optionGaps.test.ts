/**
 * runAgentLoop's options, the gaps the first checks left (validate.ts): a misspelt brake (`maxStep`) was
 * ignored and the run went unbraked; a model without a name, or `tools` that is no list, ended in a
 * TypeError. Each is now a UserError naming its field (a misspelt key with the nearest known one, as the
 * CLI and scenario files refuse unknown keys), and the model is never called: the double (an empty scriptedModel) throws on any call.
 */
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/agent/clock.js';
import { runAgentLoop } from '../../src/agent/run.js';
import { scriptedModel, type ScriptedModel } from '../../src/agent/scriptedModel.js';
import type { AgentLoopOptions, Model } from '../../src/agent/types.js';
import { UserError } from '../../src/errors.js';
import { MINI } from '../helpers.js';
import { answer, toolTurn } from './scripted.js';

/** A model that must never be called: an empty script, which counts the calls it gets and throws on each. */
const neverCalled = (name = 'mini'): ScriptedModel => scriptedModel([], { name });

const echo = { name: 'echo', description: 'says it back', parameters: { type: 'object' }, run: () => 'echoed' };

function options(model: Model, extra: Record<string, unknown> = {}): AgentLoopOptions {
  return { model, tools: [echo], brakes: {}, unbounded: true, context: { system: 's', goal: 'g', countTokens: (text) => text.length }, pricing: MINI, clock: new VirtualClock(), ...extra } as AgentLoopOptions;
}

async function issuesOf(model: ScriptedModel, extra: Record<string, unknown>) {
  const error = await runAgentLoop(options(model, extra)).catch((thrown: unknown) => thrown);
  expect(error).toBeInstanceOf(UserError);
  expect(model.calls).toBe(0);
  return (error as UserError).issues.map(({ field, code, hint }) => ({ field, code, hint }));
}

describe('runAgentLoop refuses what it used to ignore or crash on, before calling the model', () => {
  it('a misspelt brake is refused with the nearest setting, not run unbraked', async () => {
    expect(await issuesOf(neverCalled(), { brakes: { maxStep: 5 } })).toEqual([{ field: 'brakes.maxStep', code: 'unrecognized_keys', hint: 'did you mean maxSteps?' }]);
    // The flag's name of a setting whose key carries its unit; a key near nothing lists the settings.
    const [cost, timeout, other] = await issuesOf(neverCalled(), { brakes: { maxCost: 1, timeout: 1000, speed: 2 } });
    expect(cost!.hint).toMatch(/^did you mean maxCostPico\? It takes picodollars/);
    expect(timeout!.hint).toBe('did you mean timeoutMs? It takes milliseconds');
    expect(other!.hint).toMatch(/^fields here: maxSteps, maxRepeat, /);
  });

  it('so is a misspelt option, context option, retry setting or sub-agent limit', async () => {
    const issues = await issuesOf(neverCalled(), { brake: { maxSteps: 5 }, context: { system: 's', goal: 'g', stratgy: { kind: 'full' } }, retry: { max_retries: 1 }, subagentLimits: { maxStep: 2 } });
    expect(issues.map((issue) => [issue.field, issue.hint])).toEqual([
      ['brake', 'did you mean brakes?'],
      ['retry.max_retries', 'did you mean maxRetries?'],
      ['context.stratgy', 'did you mean strategy?'],
      ['subagentLimits.maxStep', 'did you mean maxSteps?'],
    ]);
  });

  it("a model without a name is named (it was a TypeError reading 'trim')", async () => {
    const model = Object.assign(neverCalled(), { name: undefined as unknown as string });
    expect(await issuesOf(model, {})).toEqual([{ field: 'model.name', code: 'invalid_model', hint: "a model as priced, e.g. 'gpt-4o-mini'" }]);
    expect((await issuesOf(neverCalled(''), {}))[0]!.field).toBe('model.name');
  });

  it('tools that are no list are named (it was "(options.tools ?? []).forEach is not a function")', async () => {
    expect((await issuesOf(neverCalled(), { tools: 'x' }))[0]).toMatchObject({ field: 'tools', code: 'invalid_value' });
    expect((await issuesOf(neverCalled(), { tools: undefined }))[0]).toMatchObject({ field: 'tools', code: 'missing_field' });
  });

  it('every problem in one UserError', async () => {
    const issues = await issuesOf(neverCalled(''), { tools: {}, brakes: { maxStep: 5, maxCostPico: 0.5 }, pricing: undefined });
    expect(issues.map((issue) => issue.field)).toEqual(['model.name', 'tools', 'brakes.maxStep', 'brakes.maxCostPico', 'pricing']);
  });

  it('the same options spelt right run (the brake holds)', async () => {
    const model = scriptedModel([toolTurn('echo', {}), toolTurn('echo', { again: true }), answer('done')], { name: 'mini' });
    const run = await runAgentLoop(options(model, { brakes: { maxSteps: 1 } }));
    expect([run.stop.reason, model.calls]).toEqual(['max_steps', 1]);
  });
});
