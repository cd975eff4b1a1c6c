/**
 * runAgentLoop's options the loop calls into or relies on (validate.ts): `clock: {}`, `recorder: {}` and
 * `pricing: { base: {} }` were raw TypeErrors mid-run; `signal: 'x'`, `brakes: undefined` and
 * `subagentLimits` with no sub-agent tool were accepted silently; a `retry.backoffMs` returning -5 turned a
 * VirtualClock back. Each is now a UserError naming the option (`<runAgentLoop options> field …`), the
 * first ones before the model is called; VirtualClock.sleep refuses a negative wait.
 */
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/agent/clock.js';
import { runAgentLoop } from '../../src/agent/run.js';
import { scriptedModel, type ScriptedModel } from '../../src/agent/scriptedModel.js';
import { ModelCallError, type AgentLoopOptions } from '../../src/agent/types.js';
import { UserError } from '../../src/errors.js';
import { MINI } from '../helpers.js';
import { answer } from './scripted.js';

/** One call scripted: answered `done`, or (`failing`) failed with a retryable 503; a second call throws. */
function counting(failing = false): ScriptedModel {
  const overloaded = () => {
    throw new ModelCallError('overloaded', { status: 503, retryable: true });
  };
  return scriptedModel([failing ? overloaded : answer('done')], { name: 'mini' });
}

const echo = { name: 'echo', description: 'says it back', parameters: { type: 'object' }, run: () => 'echoed' };

async function refusal(extra: Record<string, unknown>, model = counting()) {
  const options = { model, tools: [echo], brakes: {}, unbounded: true, context: { system: 's', goal: 'g', countTokens: (t: string) => t.length }, pricing: MINI, clock: new VirtualClock(), ...extra } as AgentLoopOptions;
  const error = await runAgentLoop(options).then(
    () => new Error('the run completed'),
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(UserError);
  expect((error as Error).message).toContain('<runAgentLoop options> field');
  return { issues: (error as UserError).issues.map(({ field, code }) => [field, code]), calls: model.calls, message: (error as Error).message };
}

describe('the options the loop calls into are checked', () => {
  it.each([
    ['clock {}', { clock: {} }, [['clock', 'invalid_value']]],
    ['recorder {}', { recorder: {} }, [['recorder', 'invalid_value']]],
    ["signal 'x'", { signal: 'x' }, [['signal', 'invalid_value']]],
    ['brakes undefined', { brakes: undefined }, [['brakes', 'missing_field']]],
    ['subagentLimits with no sub-agent tool', { subagentLimits: { maxSteps: 2 } }, [['subagentLimits', 'ignored_option']]],
    ['pricing { base: {} }', { pricing: { base: {} } }, [['pricing.base.input', 'missing_field'], ['pricing.base.output', 'missing_field'], ['pricing.tiers', 'invalid_value']]],
    ['a fractional price', { pricing: { ...MINI, base: { ...MINI.base, output: 0.5 } } }, [['pricing.base.output', 'invalid_number']]],
  ])('%s: a UserError naming it, the model never called', async (_, extra, issues) => {
    const { issues: got, calls } = await refusal(extra);
    expect(got).toEqual(issues);
    expect(calls).toBe(0);
  });

  // Before, only now() and sleep() were checked: a timer that was no function surfaced as a TypeError at the first call's end (deadline.ts), once a timeout was set.
  it.each([
    ['a number', 5],
    ['null', null],
    ['an object', {}],
  ])('clock.timer %s: a UserError naming clock.timer, the model never called (with a timeout or without)', async (_, timer) => {
    const clock = { now: () => 0, sleep: async () => {}, timer };
    for (const brakes of [{ timeoutMs: 1000 }, {}]) {
      const { issues, calls, message } = await refusal({ clock, brakes });
      expect(issues).toEqual([['clock.timer', 'invalid_value']]);
      expect(calls).toBe(0);
      expect(message).toContain('is not a function');
    }
  });

  it('a back-off of -5 ms: a UserError naming retry.backoffMs at the first retry', async () => {
    const { issues, calls, message } = await refusal({ retry: { backoffMs: () => -5 } }, counting(true));
    expect(issues).toEqual([['retry.backoffMs', 'invalid_number']]);
    expect(calls).toBe(1);
    expect(message).toContain('returned -5 for retry 1');
  });

  it('VirtualClock.sleep refuses a negative wait', async () => {
    const clock = new VirtualClock();
    await expect(clock.sleep(-5)).rejects.toThrow(RangeError);
    expect(clock.now()).toBe(0);
    await clock.sleep(5);
    expect(clock.now()).toBe(5);
  });

  it('the parts as given work: a real AbortSignal, a clock and recorder with their methods', async () => {
    const model = counting();
    const result = await runAgentLoop({ model, tools: [echo], brakes: {}, unbounded: true, context: { system: 's', goal: 'g' }, pricing: MINI, clock: new VirtualClock(), signal: new AbortController().signal, recorder: { header() {}, call() {}, end() {} } });
    expect(result.stop.reason).toBe('completed');
  });
});
