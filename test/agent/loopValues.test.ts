/**
 * The values the real loop reads from the caller's code — the token counter's counts, a tool's result
 * (tokens, error, output), the clock's readings, the task name — are checked where they are read. Before,
 * `countTokens: t => t.length / 4` (1.5) or a tool's `tokens: 2.5` made a recording `replay` refuses
 * ("goalTokens: is 1.5: must be a whole number of tokens"), a tool's NaN tokens broke the brakes ("next
 * prompt holds Infinity tokens" / a $9,007 UserError blaming the settings), `error: 42` or `task: 42` were
 * recorded as they were, a clock reading NaN or going backwards ran on. Now each is a LoopValueError naming
 * the source, the field and the value (task: a UserError on the option), before anything is recorded wrong.
 */
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/agent/clock.js';
import { memoryRecorder } from '../../src/agent/recorder.js';
import { runAgentLoop } from '../../src/agent/run.js';
import type { AgentLoopOptions, Clock } from '../../src/agent/types.js';
import { LoopValueError } from '../../src/agent/valueCheck.js';
import { UserError } from '../../src/errors.js';
import { MINI } from '../helpers.js';
import { answer, ScriptedModel, toolTurn } from './scripted.js';

type Extra = Partial<Omit<AgentLoopOptions, 'context'>> & { context?: Partial<AgentLoopOptions['context']>; result?: unknown };

async function thrownBy(extra: Extra) {
  const { result, context, ...rest } = extra;
  const tool = { name: 'echo', description: 'echo', parameters: { type: 'object' }, run: () => (result ?? 'ok') as string };
  const recorder = memoryRecorder();
  const options = { model: new ScriptedModel([toolTurn('echo', {}), answer('done')]), tools: [tool], brakes: {}, unbounded: true, pricing: MINI, clock: new VirtualClock(), recorder, ...rest, context: { system: 'sys', goal: 'the goal', countTokens: (t: string) => t.length, ...context } };
  return runAgentLoop(options as AgentLoopOptions).then(
    () => new Error('the run completed'),
    (thrown: unknown) => thrown,
  );
}

/** A clock reading `readings` in turn (then the last one again). */
function clockReading(readings: number[]): Clock {
  let i = 0;
  return { now: () => readings[Math.min(i++, readings.length - 1)]!, sleep: async () => {} };
}

describe('values the loop reads are checked where it reads them', () => {
  it.each([
    ['a fractional count (t => t.length / 4)', { context: { countTokens: (t: string) => t.length / 4 } }, 'countTokens', 'context.countTokens(system)', 0.75],
    ["a tool's count NaN", { context: { countTokens: (t: string) => (t === 'ok' ? NaN : t.length) } }, 'countTokens', 'context.countTokens(tools.echo output)', NaN],
    ["a tool's tokens -5", { result: { output: 'x', tokens: -5 } }, 'tool', 'tools.echo.tokens', -5],
    ["a tool's tokens NaN", { result: { output: 'x', tokens: NaN } }, 'tool', 'tools.echo.tokens', NaN],
    ["a tool's tokens 2.5", { result: { output: 'x', tokens: 2.5 } }, 'tool', 'tools.echo.tokens', 2.5],
    ["a tool's error 42", { result: { output: 'x', error: 42 } }, 'tool', 'tools.echo.error', 42],
    ["a tool's output undefined", { result: { tokens: 3 } }, 'tool', 'tools.echo.output', undefined],
    ['a clock reading NaN', { clock: clockReading([NaN]) }, 'clock', 'clock.now()', NaN],
    ['a clock going backwards', { clock: clockReading([100, 50]) }, 'clock', 'clock.now()', 50],
  ])('%s: a LoopValueError naming it', async (_, extra, source, field, value) => {
    const error = await thrownBy(extra as Extra);
    expect(error).toBeInstanceOf(LoopValueError);
    expect(error).toMatchObject({ name: 'LoopValueError', source, field });
    expect((error as LoopValueError).value).toStrictEqual(value);
    expect((error as Error).message).toContain(field);
  });

  it('a goal counted fractional names the goal', async () => {
    const error = await thrownBy({ context: { countTokens: (t: string) => (t === 'sys' ? 3 : 1.5) } });
    expect(error).toMatchObject({ field: 'context.countTokens(goal)', value: 1.5 });
    expect((error as Error).message).toMatch(/is 1\.5, not a token count/);
  });

  it('task 42 is refused as an option, before the model is called', async () => {
    const error = await thrownBy({ task: 42 as unknown as string });
    expect(error).toBeInstanceOf(UserError);
    expect((error as Error).message).toContain("<runAgentLoop options> field 'task': 42 is not a task name");
  });

  it('whole counts, a text error and a steady clock run to the end as before', async () => {
    const error = await thrownBy({ result: { output: 'x', tokens: 4, error: 'boom' }, task: 't', clock: clockReading([5, 5, 7]) });
    expect((error as Error).message).toBe('the run completed');
  });
});
