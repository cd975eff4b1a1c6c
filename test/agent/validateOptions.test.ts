/**
 * runAgentLoop's options are refused before the model is called: a number a brake, the retry policy, a
 * sub-agent limit or the context sizes could not hold (NaN, ±Infinity, negative, fractional counts,
 * fractional picodollars, past 2^53 − 1, the wrong type) is a UserError naming its field, never another
 * error mid-run (a fractional maxCostPico used to end a budget stop in picoToUsdString's RangeError).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/agent/clock.js';
import { runAgentLoop } from '../../src/agent/run.js';
import { defineTool } from '../../src/agent/tools.js';
import type { AgentLoopOptions } from '../../src/agent/types.js';
import { parseContextSpec } from '../../src/context/strategy.js';
import { UserError } from '../../src/errors.js';
import { MINI } from '../helpers.js';
import { answer, ScriptedModel, toolTurn } from './scripted.js';

const echo = defineTool<{ text: string }>({ name: 'echo', description: 'says it back', parameters: { type: 'object' }, run: ({ text }) => text });

function options(model: ScriptedModel, extra: Partial<AgentLoopOptions> = {}): AgentLoopOptions {
  return {
    model,
    tools: [echo],
    brakes: {},
    unbounded: true,
    context: { system: 'You are terse.', goal: 'Say hello.', countTokens: (text) => text.length, strategy: { kind: 'window', windowSteps: 8 } },
    pricing: MINI,
    clock: new VirtualClock(),
    retry: { maxRetries: 2, backoffMs: () => 0 },
    ...extra,
  };
}

const NOT_NUMBERS = [NaN, Infinity, -Infinity, '5', null, true];
const TOO_BIG = 2 ** 53;
/** Bad values for each numeric option, by where it sits in the options. */
const BAD: Record<string, unknown[]> = {
  'brakes.maxSteps': [0, -1, 0.5, 2.5, TOO_BIG, ...NOT_NUMBERS],
  'brakes.maxRepeat': [0, -3, 1.5, TOO_BIG, ...NOT_NUMBERS],
  'brakes.maxSameError': [0, -1, 2.5, ...NOT_NUMBERS],
  'brakes.maxTokens': [0, -1, 100.5, TOO_BIG, ...NOT_NUMBERS],
  'brakes.maxOutputTokens': [0, -1, 0.5, TOO_BIG, ...NOT_NUMBERS],
  'brakes.maxBacktracks': [-1, 0.5, TOO_BIG, ...NOT_NUMBERS],
  'brakes.maxSkips': [-1, 1.5, ...NOT_NUMBERS],
  'brakes.skipWarningTokens': [-1, 40.5, ...NOT_NUMBERS],
  'brakes.maxCostPico': [0.5, 1e9 + 0.25, -1, TOO_BIG, ...NOT_NUMBERS],
  'brakes.timeoutMs': [-1, -0.5, ...NOT_NUMBERS],
  'brakes.contextWindow': [0, -1, 0.5, TOO_BIG, 'big', ...NOT_NUMBERS],
  'brakes.budgetMode': ['predicted', '', 1, null],
  'brakes.repeatMode': ['cycles', '', 0, null],
  'brakes.sameErrorMode': ['all', '', null],
  'brakes.repeatAction': ['warn', '', null],
  'retry.maxRetries': [-1, 0.5, NaN, -Infinity, '3', null],
  'subagentLimits.maxSteps': [0, -1, 0.5, TOO_BIG, ...NOT_NUMBERS],
  'subagentLimits.maxCostPico': [0.5, -1, TOO_BIG, ...NOT_NUMBERS],
  'context.systemTokens': [-1, 0.5, TOO_BIG, ...NOT_NUMBERS],
  'context.goalTokens': [-1, 0.5, TOO_BIG, ...NOT_NUMBERS],
  'context.strategy': [
    { kind: 'window', windowSteps: NaN },
    { kind: 'window', windowSteps: 0 },
    { kind: 'window', windowSteps: 2.5 },
    { kind: 'window', windowSteps: '8' },
    { kind: 'bogus' },
    { kind: 'mask', maskSteps: -1 },
    { kind: 'mask', maskSteps: 2, placeholderTokens: 0.5 },
    { kind: 'summary', summary: { triggerTokens: Infinity, keepSteps: 2, summaryTokens: 100 } },
    { kind: 'summary', summary: { triggerTokens: 5000, keepSteps: 0, summaryTokens: 100 } },
    { kind: 'hybrid', maskSteps: 2, summary: { triggerPercent: 150, keepSteps: 2, summaryTokens: 100 } },
    'window:8',
    null,
  ],
  'context.strategy.toolResultCap': [-1, 0.5, TOO_BIG, ...NOT_NUMBERS],
  'context.strategy.cache': ['yes', '', null],
};

/** `base` with the value at a dotted path replaced (each object on the way copied). */
function withValue<T>(base: T, path: string, value: unknown): T {
  const [key, ...rest] = path.split('.') as [string, ...string[]];
  const here = (base ?? {}) as Record<string, unknown>;
  return { ...here, [key]: rest.length === 0 ? value : withValue(here[key], rest.join('.'), value) } as T;
}

async function rejection(run: Promise<unknown>): Promise<unknown> {
  return run.then(
    () => new Error('runAgentLoop resolved'),
    (error: unknown) => error,
  );
}

describe('runAgentLoop option validation', () => {
  it('refuses a fractional maxCostPico (picodollars are whole) before any call, instead of a RangeError at the budget stop', async () => {
    const model = new ScriptedModel([toolTurn('echo', { text: 'hi' }), answer('done')]);
    const error = await rejection(runAgentLoop(options(model, { brakes: { maxCostPico: 1.5 } })));
    expect(error).toBeInstanceOf(UserError);
    const [issue] = (error as UserError).issues;
    expect(issue).toMatchObject({ field: 'brakes.maxCostPico', code: 'invalid_number' });
    expect(issue!.message).toContain('picodollars are whole');
    expect(issue!.hint).toContain('usdToPico');
    expect(model.requests).toHaveLength(0);
  });

  it('a whole maxCostPico still stops the run on its budget, with the limit in the detail', async () => {
    const model = new ScriptedModel([toolTurn('echo', { text: 'hi' }), answer('done')]);
    const run = await runAgentLoop(options(model, { brakes: { maxCostPico: 2 } }));
    expect(run.stop.reason).toBe('budget');
    expect(run.stop.detail).toMatch(/spent, limit \$0\.0+$/);
  });

  it('any mix of bad numeric options (seeded): a UserError naming each field, and the model is never called', async () => {
    const field = fc.constantFrom(...Object.keys(BAD)).chain((path) => fc.tuple(fc.constant(path), fc.constantFrom(...BAD[path]!)));
    await fc.assert(
      fc.asyncProperty(fc.uniqueArray(field, { minLength: 1, maxLength: 4, selector: ([path]) => path.split('.').slice(0, 2).join('.') }), async (bad) => {
        const model = new ScriptedModel([]);
        const given = bad.reduce((o, [path, value]) => withValue(o, path, value), options(model));
        const error = await rejection(runAgentLoop(given));
        expect(error).toBeInstanceOf(UserError);
        expect((error as UserError).issues.map((i) => i.field).sort()).toEqual(bad.map(([path]) => path).sort());
        expect(model.requests).toHaveLength(0);
      }),
      { numRuns: 400, seed: 4040 },
    );
  });

  it("the values the CLI's flags allow are accepted (0 backtracks, 0 skips, Infinity retries, a fractional timeout)", async () => {
    const model = new ScriptedModel([answer('done')]);
    const run = await runAgentLoop(
      options(model, {
        brakes: { maxBacktracks: 0, maxRepeat: 3, repeatAction: 'skip', maxSkips: 0, skipWarningTokens: 0, timeoutMs: 1500.5, maxCostPico: 1, budgetMode: 'predict', contextWindow: 'model' },
        retry: { maxRetries: Infinity },
        context: { system: 's', goal: 'g', systemTokens: 0, goalTokens: 7, countTokens: (text) => text.length, strategy: { kind: 'full', toolResultCap: 0, cache: 'recorded' } },
      }),
    );
    expect(run.stop.reason).toBe('budget');
    for (const spec of ['full', 'window:1', 'mask:3,placeholder=0', 'summary:trigger=90%,keep=2,tokens=300,model=mini', 'hybrid:mask=2,trigger=5000,keep=1,tokens=200,placeholder=12']) {
      const strategy = { ...parseContextSpec(spec), toolResultCap: 100 };
      const answered = await runAgentLoop(options(new ScriptedModel([answer('done')]), { context: { system: 's', goal: 'g', strategy, countTokens: (text) => text.length } }));
      expect(answered.stop.reason, spec).toBe('completed');
    }
  });
});
