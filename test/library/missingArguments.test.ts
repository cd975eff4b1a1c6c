/**
 * Arguments that ended in a TypeError or in silence (review s24 r5): runAgentLoop's `context.countTokens: 5`
 * threw `TypeError: countTokens is not a function` from inside the loop; replayTrace without `brakes` (its
 * type requires them) replayed the run with no brakes at all. Both are a UserError naming the option, before
 * any work.
 */
import { describe, expect, it } from 'vitest';
import * as library from '../../src/index.js';
import { ScriptedModel, answer } from '../agent/scripted.js';
import { call, distinctSteps, MINI, MINI_TABLE, trace, userErrorOf } from '../helpers.js';

describe("runAgentLoop's context.countTokens", () => {
  it.each([5, null, 'words'])('%j is refused before the model is called', async (countTokens) => {
    const model = new ScriptedModel([answer('done')]);
    const run = library.runAgentLoop({ model, tools: [], brakes: { maxSteps: 2 }, context: { system: 's', goal: 'g', countTokens: countTokens as never }, pricing: MINI });
    const error = await run.then(() => undefined, (thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(library.UserError);
    expect((error as library.UserError).issues).toEqual([expect.objectContaining({ file: '<runAgentLoop options>', field: 'context.countTokens', code: 'invalid_value' })]);
    expect(model.requests).toHaveLength(0);
  });

  it('a function is taken', async () => {
    const result = await library.runAgentLoop({ model: new ScriptedModel([answer('done')]), tools: [], brakes: { maxSteps: 2 }, context: { system: 's', goal: 'g', countTokens: () => 3 }, pricing: MINI });
    expect(result.stop.reason).toBe('completed');
  });
});

describe("replayTrace's brakes", () => {
  const run = trace([...distinctSteps(4), call(10, undefined, { final: true })]);

  it('left out: refused, as null is, rather than replayed with no brakes', () => {
    for (const brakes of [undefined, null]) {
      const error = userErrorOf(() => library.replayTrace(run, { brakes: brakes as never, strategy: library.FULL_HISTORY, prices: MINI_TABLE }));
      expect(error.issues).toEqual([expect.objectContaining({ file: '<replayTrace options>', field: 'brakes' })]);
    }
  });

  it('{} replays with none', () => {
    expect(library.replayTrace(run, { brakes: {}, strategy: library.FULL_HISTORY, prices: MINI_TABLE }).steps).toBe(5);
  });
});
