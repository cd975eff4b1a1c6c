/**
 * A run nothing ends is refused before its model is called: no step cap, budget, timeout or token cap and no
 * AbortSignal (a model stuck calling tools would run, and bill, for ever, keeping every step) is a UserError
 * naming `brakes` and the options that bound a run, unless the caller says `unbounded: true`. Before, runAgentLoop
 * took `brakes: {}` and ran.
 */
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/agent/clock.js';
import { runAgentLoop } from '../../src/agent/run.js';
import type { AgentLoopOptions } from '../../src/agent/types.js';
import { REFERENCE_PRESET } from '../../src/brakes/config.js';
import { UserError } from '../../src/errors.js';
import { MINI } from '../helpers.js';
import { answer, ScriptedModel } from './scripted.js';

function options(extra: Partial<AgentLoopOptions>): { model: ScriptedModel; options: AgentLoopOptions } {
  const model = new ScriptedModel([answer('done')]);
  return { model, options: { model, tools: [], brakes: {}, context: { system: 's', goal: 'g', countTokens: (t) => t.length }, pricing: MINI, clock: new VirtualClock(), ...extra } };
}

async function outcome(extra: Partial<AgentLoopOptions>) {
  const { model, options: given } = options(extra);
  const result = await runAgentLoop(given).catch((error: unknown) => error);
  return { result, calls: model.requests.length };
}

describe('a run with nothing to end it', () => {
  it.each([
    ['brakes {}', {}],
    ['per-call brakes only (repeat, same error, context window)', { brakes: { maxRepeat: 3, maxSameError: 2, contextWindow: 'model' as const } }],
    ['unbounded: false', { unbounded: false }],
  ])('%s: a UserError naming brakes and what bounds a run, the model never called', async (_, extra) => {
    const { result, calls } = await outcome(extra);
    expect(result).toBeInstanceOf(UserError);
    const error = result as UserError;
    expect(error.issues.map(({ field, code }) => [field, code])).toEqual([['brakes', 'unbounded_run']]);
    expect(error.message).toContain("<runAgentLoop options> field 'brakes'");
    for (const option of ['brakes.maxSteps', 'brakes.maxCostPico', 'brakes.timeoutMs', 'brakes.maxTokens', 'signal', 'unbounded: true']) expect(error.issues[0]!.hint).toContain(option);
    expect(calls).toBe(0);
  });

  it.each([
    ['a step cap', { brakes: { maxSteps: 5 } }],
    ['a budget', { brakes: { maxCostPico: 1_000_000 } }],
    ['a timeout', { brakes: { timeoutMs: 60_000 } }],
    ['a token cap', { brakes: { maxTokens: 100_000 } }],
    ['the reference brakes', { brakes: REFERENCE_PRESET }],
    ['an AbortSignal', { signal: new AbortController().signal }],
    ['unbounded: true', { unbounded: true }],
  ])('%s: runs', async (_, extra) => {
    const { result } = await outcome(extra);
    expect(result).toMatchObject({ stop: { reason: 'completed' } });
  });

  it('unbounded that is no boolean is named; a misspelt cap is named as that alone', async () => {
    const notBoolean = (await outcome({ unbounded: 'yes' as never })).result as UserError;
    expect(notBoolean.issues.map(({ field, code }) => [field, code])).toEqual([['unbounded', 'invalid_value']]);
    const misspelt = (await outcome({ brakes: { maxStep: 5 } as never })).result as UserError;
    expect(misspelt.issues.map(({ field }) => field)).toEqual(['brakes.maxStep']);
  });
});
