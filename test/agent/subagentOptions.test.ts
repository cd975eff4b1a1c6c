/**
 * A sub-agent tool's spec is checked by the rules runAgentLoop's options are (agent/validate.ts
 * subagentSpecIssues) before the sub-agent's model is called: a misspelt brake, a key the spec does not
 * take (subagentLimits, which the root run takes), a model without call() — one UserError naming the
 * sub-agent and each field, thrown out of runAgentLoop (not an error observation the parent goes on
 * from). Before, `{ maxStep: 2 }` ran the sub-agent with no step cap, silently.
 */
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/agent/clock.js';
import { runAgentLoop } from '../../src/agent/run.js';
import { defineSubagentTool } from '../../src/agent/subagent.js';
import { subagentSpecIssues } from '../../src/agent/validate.js';
import type { SubagentSpec } from '../../src/agent/types.js';
import { NO_BRAKES } from '../../src/brakes/config.js';
import { UserError } from '../../src/errors.js';
import { MINI } from '../helpers.js';
import { answer, ScriptedModel, toolTurn } from './scripted.js';

const echo = { name: 'echo', description: 'says it back', parameters: { type: 'object' }, run: () => 'echoed' };

/** main delegates once to a researcher started with `spec` (on top of a valid one); what the run gave or threw, and the models' calls. */
async function delegate(spec: Record<string, unknown>) {
  const researcher = new ScriptedModel([toolTurn('echo', {}), toolTurn('echo', {}), toolTurn('echo', { a: 2 }), answer('found it')]);
  const tool = defineSubagentTool<{ task: string }>({
    name: 'delegate',
    description: 'hands a task to a researcher',
    parameters: { type: 'object' },
    agent: ({ task }) => ({ agentId: 'researcher', model: researcher, tools: [echo], context: { system: 'You research.', goal: task }, ...spec }) as SubagentSpec,
  });
  const main = new ScriptedModel([toolTurn('delegate', { task: 'find it' }), answer('done')]);
  const outcome = await runAgentLoop({ model: main, tools: [tool], brakes: NO_BRAKES, unbounded: true, context: { system: 's', goal: 'g', countTokens: (text) => text.length }, pricing: MINI, clock: new VirtualClock() }).then(
    (run) => ({ run, error: undefined }),
    (error: unknown) => ({ run: undefined, error }),
  );
  return { ...outcome, researcherCalls: researcher.requests.length, mainCalls: main.requests.length };
}

describe("a sub-agent's options are checked before its model is called", () => {
  it('a misspelt brake of its own (maxStep): a UserError naming the sub-agent and the field, its model never called', async () => {
    const { error, researcherCalls, mainCalls } = await delegate({ brakes: { maxStep: 2 } });
    expect(error).toBeInstanceOf(UserError);
    expect((error as UserError).issues.map((i) => [i.file, i.field, i.code])).toEqual([['<sub-agent researcher options>', 'brakes.maxStep', 'unrecognized_keys']]);
    expect((error as UserError).issues[0]!.hint).toMatch(/maxSteps/);
    expect([researcherCalls, mainCalls]).toEqual([0, 1]);
  });

  it('subagentLimits in the spec (the root run takes it), a repeat cap of 0, a model with no call(): each named', async () => {
    const { error, researcherCalls } = await delegate({ subagentLimits: { maxSteps: 1 }, brakes: { maxRepeat: 0 }, model: { name: 'x' } });
    expect((error as UserError).issues.map((i) => [i.field, i.code])).toEqual([
      ['subagentLimits', 'unrecognized_keys'],
      ['model', 'invalid_model'],
      ['brakes.maxRepeat', 'invalid_number'],
    ]);
    expect((error as UserError).issues[0]!.hint).toMatch(/root run's runAgentLoop/);
    expect(researcherCalls).toBe(0);
  });

  it("a brake that binds the tree's totals (maxSteps, timeoutMs) in a sub-agent's own brakes did nothing: refused, naming where it goes", async () => {
    const { error, researcherCalls } = await delegate({ brakes: { maxSteps: 2, timeoutMs: 10, maxRepeat: 1 } });
    expect((error as UserError).issues.map((i) => [i.field, i.code])).toEqual([['brakes.maxSteps', 'ignored_brake'], ['brakes.timeoutMs', 'ignored_brake']]);
    expect((error as UserError).issues[0]!.hint).toMatch(/subagentLimits\.maxSteps/);
    expect(researcherCalls).toBe(0);
  });

  it('a valid spec with its own per-call brakes runs under them (a repeat cap of 1 stops the researcher at its second echo)', async () => {
    const { run, error, researcherCalls } = await delegate({ brakes: { maxRepeat: 1 } });
    expect(error).toBeUndefined();
    expect(researcherCalls).toBe(2);
    expect(run!.tree!.agents.map((a) => [a.agentId, a.stop.reason])).toEqual([['main', 'completed'], ['researcher', 'repeat']]);
  });

  it('subagentSpecIssues: a context without a goal, a strategy --context cannot say, prices that are none', () => {
    const issues = subagentSpecIssues({ agentId: 'r', model: new ScriptedModel([]), context: { system: 's', strategy: { kind: 'window' } }, pricing: 'gpt-4o' } as unknown as SubagentSpec);
    expect(issues.map((i) => i.field)).toEqual(['context.strategy', 'context.goal', 'pricing']);
  });
});
