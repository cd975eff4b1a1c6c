/**
 * A refusal from a library entry point names that entry point's own options or arguments: never the CLI's
 * flags (`set --max-steps …`) nor another entry point it passes them on to. The CLI's commands (which say where
 * their settings were written: strategyPlace) keep their flags' words.
 */
import { describe, expect, it } from 'vitest';
import { NO_BRAKES } from '../../src/brakes/config.js';
import { COMMAND_LINE_CONTEXT, FULL_HISTORY } from '../../src/context/strategy.js';
import { loadPriceTable } from '../../src/pricing/index.js';
import { populationRuns } from '../../src/population/run.js';
import { replayTrace } from '../../src/replay/replay.js';
import { constantStepsTrace } from '../../src/synthetic/constantSteps.js';
import { userErrorOf } from '../helpers.js';

const prices = loadPriceTable();
const huge = () => constantStepsTrace({ steps: 60_000, model: 'gpt-4o', systemTokens: 2000, outputTokens: 500, toolTokens: 2200 });

describe('library refusals in the library\'s words', () => {
  it('replayTrace: a run past exact picodollars names brakes.* in replayTrace\'s options', () => {
    const issue = userErrorOf(() => replayTrace(huge(), { brakes: {}, strategy: FULL_HISTORY, prices })).issues[0]!;
    expect(issue.code).toBe('cost_out_of_range');
    expect(issue.hint).toBe("set brakes.maxSteps, brakes.maxCostPico or brakes.contextWindow in replayTrace's options to bound the run");
  });

  it('the CLI (strategyPlace: --context) keeps its flags', () => {
    const issue = userErrorOf(() => replayTrace(huge(), { brakes: {}, strategy: FULL_HISTORY, strategyPlace: COMMAND_LINE_CONTEXT, prices })).issues[0]!;
    expect(issue.hint).toBe('set --max-steps, --max-cost or --context-window to bound the run');
  });

  it('populationRuns: its config.brakes, in its arguments; a bad brake named there, not as replayTrace\'s', () => {
    const issue = userErrorOf(() => populationRuns({ traces: [huge()] }, { brakes: NO_BRAKES, strategy: FULL_HISTORY }, prices)).issues[0]!;
    expect(issue.hint).toBe("set config.brakes.maxSteps, config.brakes.maxCostPico or config.brakes.contextWindow in populationRuns' arguments to bound the run");
    const bad = userErrorOf(() => populationRuns({ traces: [constantStepsTrace({ steps: 5, model: 'gpt-4o', systemTokens: 100, outputTokens: 10, toolTokens: 10 })] }, { brakes: { ...NO_BRAKES, maxSteps: -5 }, strategy: FULL_HISTORY }, prices));
    expect(bad.issues.map((i) => [i.file, i.field])).toEqual([['<populationRuns arguments>', 'config.brakes.maxSteps']]);
  });
});
