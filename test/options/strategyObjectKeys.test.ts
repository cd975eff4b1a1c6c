/**
 * A strategy object (runAgentLoop's context.strategy, replayTrace's strategy) with a misspelt or misplaced
 * key: the key is named, with the nearest known one, before the object is read as a `--context` spec —
 * never a complaint about a spec the user did not write.
 */
import { describe, expect, it } from 'vitest';
import { runAgentLoop } from '../../src/agent/run.js';
import { VirtualClock } from '../../src/agent/clock.js';
import { NO_BRAKES } from '../../src/brakes/config.js';
import type { ContextStrategy } from '../../src/context/strategy.js';
import { replayTrace } from '../../src/replay/replay.js';
import { ScriptedModel, answer } from '../agent/scripted.js';
import { distinctSteps, MINI, MINI_TABLE, trace, userErrorOf } from '../helpers.js';

const issuesOf = async (strategy: unknown) => {
  const model = new ScriptedModel([answer('done')]);
  const run = runAgentLoop({ model, tools: [], brakes: NO_BRAKES, unbounded: true, context: { system: 's', goal: 'g', strategy: strategy as ContextStrategy }, pricing: MINI, clock: new VirtualClock() });
  const error = await run.then(() => undefined, (e: unknown) => e);
  expect(model.requests).toHaveLength(0);
  return (error as { issues: { field?: string; code: string; message: string; hint?: string }[] }).issues.map(({ field, code, message, hint }) => ({ field, code, message, hint }));
};

const SPEC_WORDS = /written as the spec|is not a context strategy$/;

describe('a strategy object with keys it does not take', () => {
  it('summary settings written beside kind (p11): each named, said to belong in summary', async () => {
    const issues = await issuesOf({ kind: 'summary', summaryTokens: 300, triggerTokens: 4000, windowSteps: 2 });
    expect(issues.map((i) => [i.field, i.code])).toEqual([
      ['context.strategy.summaryTokens', 'unrecognized_keys'],
      ['context.strategy.triggerTokens', 'unrecognized_keys'],
      ['context.strategy.summary', 'missing_field'],
    ]);
    expect(issues[0]!.hint).toMatch(/^summaryTokens is a summary setting: it goes in the strategy's summary object, e\.g\. summary: \{ triggerTokens: 8000/);
    for (const issue of issues) expect(issue.message).not.toMatch(SPEC_WORDS);
  });

  it('a misspelt key of summary (summary.modle) is named with the nearest one', async () => {
    const issues = await issuesOf({ kind: 'summary', summary: { summaryTokens: 300, triggerTokens: 4000, keepSteps: 2, modle: 'x' } });
    expect(issues).toEqual([{ field: 'context.strategy.summary.modle', code: 'unrecognized_keys', message: 'unknown summary setting "modle"', hint: 'did you mean model?' }]);
  });

  it('a misspelt key of the strategy (windowStep, toolResultCapp) and a misspelt kind', async () => {
    expect(await issuesOf({ kind: 'window', windowSteps: 8, windowStep: 3 })).toEqual([{ field: 'context.strategy.windowStep', code: 'unrecognized_keys', message: 'unknown strategy setting "windowStep"', hint: 'did you mean windowSteps?' }]);
    expect((await issuesOf({ kind: 'window', windowSteps: 8, toolResultCapp: 3 }))[0]!.hint).toBe('did you mean toolResultCap?');
    expect(await issuesOf({ kind: 'windw', windowSteps: 8 })).toEqual([{ field: 'context.strategy', code: 'invalid_strategy', message: 'kind "windw" is not a context strategy', hint: 'did you mean window? one of full, window, mask, summary, hybrid' }]);
  });

  it('a summary object missing a setting, or with two triggers, names it', async () => {
    const missing = await issuesOf({ kind: 'hybrid', maskSteps: 2, summary: { triggerTokens: 4000, summaryTokens: 300 } });
    expect(missing.map((i) => [i.field, i.message])).toEqual([['context.strategy.summary.keepSteps', 'is missing']]);
    const both = await issuesOf({ kind: 'summary', summary: { triggerTokens: 4000, triggerPercent: 80, keepSteps: 2, summaryTokens: 300 } });
    expect(both.map((i) => [i.field, i.message])).toEqual([['context.strategy.summary', 'gives triggerTokens and triggerPercent']]);
  });

  it('replayTrace names the key in its own options the same way', () => {
    const error = userErrorOf(() => replayTrace(trace(distinctSteps(3), { model: 'mini' }), { brakes: {}, strategy: { kind: 'summary', summary: { summaryTokens: 30, triggerTokens: 400, keepSteps: 2, modle: 'x' } } as never, prices: MINI_TABLE }));
    expect(error.issues.map((i) => [i.file, i.field, i.hint])).toEqual([['<replayTrace options>', 'strategy.summary.modle', 'did you mean model?']]);
  });

  it('a well-formed strategy object still runs', async () => {
    const model = new ScriptedModel([answer('done')]);
    const strategy: ContextStrategy = { kind: 'summary', summary: { summaryTokens: 300, triggerTokens: 4000, keepSteps: 2 } };
    const run = await runAgentLoop({ model, tools: [], brakes: NO_BRAKES, unbounded: true, context: { system: 's', goal: 'g', strategy }, pricing: MINI, clock: new VirtualClock() });
    expect(run.stop.reason).toBe('completed');
  });
});
