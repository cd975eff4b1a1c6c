/**
 * The library's last CLI words (review, task R2): an unknown model's ways out, a scenario whose prompt
 * cannot fit, a strategy the check refuses, in the words of whoever called (loadPriceTable's, runScenario's,
 * replayTrace's options; the CLI keeps its flags); compileTrace, sweepCompiled, populationRuns and
 * runAgentTree refuse a missing run or agent as a UserError, as the other entry points do; the exported
 * helpers resolveTracePricing, summaryPricingOf, checkSummaryTrigger and resolveScenarioPricing name their
 * own option or argument by default, the CLI passing its flags.
 */
import { describe, expect, it } from 'vitest';
import { brakeConfig, NO_BRAKES } from '../../src/brakes/config.js';
import { FULL_HISTORY, parseContextSpec } from '../../src/context/strategy.js';
import { compileTrace } from '../../src/fast/compile.js';
import { sweepCompiled } from '../../src/fast/sweep.js';
import { COMMAND_LINE_CONTEXT } from '../../src/context/strategy.js';
import { COMMAND_LINE_MODEL } from '../../src/options/given.js';
import { populationRuns } from '../../src/population/run.js';
import { COMMAND_LINE_PRICE_OPTIONS, loadPriceTable } from '../../src/pricing/index.js';
import { checkSummaryTrigger, replayTrace, resolveTracePricing, summaryPricingOf } from '../../src/replay/replay.js';
import { parseScenario } from '../../src/scenario/load.js';
import { resolveScenarioPricing, runScenario } from '../../src/scenario/run.js';
import type { Trace } from '../../src/trace/types.js';
import { runAgentTree } from '../../src/tree/live.js';
import { tinyHealthyScenarioText } from '../synthetic/tinyScenario.js';
import { distinctSteps, MINI, MINI_TABLE, trace, userErrorOf } from '../helpers.js';

const SCENARIO = parseScenario(tinyHealthyScenarioText({ name: 'tiny', steps: 3, outputTokens: 20, toolResultTokens: 100 }).replace('model: tiny', 'model: mini'), 'mini.yaml');
const RUN = trace(distinctSteps(4), { model: 'mini' });
const EXCERPT = 'test/fixtures/prices/litellm-2024-excerpt.json';
const places = (error: { issues: { file?: string; field?: string }[] }) => error.issues.map((issue) => [issue.file, issue.field]);
const refusal = (fn: () => unknown) => {
  const issue = userErrorOf(fn).issues[0]!;
  return [issue.file, issue.field, issue.code];
};

describe("an unknown model's ways out, in the words of whoever loaded the table", () => {
  it('loadPriceTable: the table and its own options, never a command or a flag; the CLI keeps its words', () => {
    const hint = userErrorOf(() => loadPriceTable().resolve('gpt4o')).issues[0]!.hint!;
    expect(hint).toBe("did you mean gpt-4o, gpt-4o-mini, gpt-4o-mini-tts? The table's modelNames() lists the models it prices; for another, give pricesFile (a LiteLLM price file) or overridesFile (an entry for the model) in <loadPriceTable options>");
    // Dated tables too.
    expect(userErrorOf(() => loadPriceTable({ asOf: new Date('2025-06-01') }).resolve('gpt4o')).issues[0]!.hint).toBe(hint);
    const cli = userErrorOf(() => loadPriceTable({ optionNames: COMMAND_LINE_PRICE_OPTIONS }).resolve('gpt4o')).issues[0]!.hint;
    expect(cli).toBe("did you mean gpt-4o, gpt-4o-mini, gpt-4o-mini-tts? Run 'loopcost prices' to list models, pass --prices FILE, or write a price file for it with 'loopcost prices derive'");
  });

  it("a LiteLLM price file's table: its modelNames(), not 'loopcost prices --prices'", () => {
    const hint = userErrorOf(() => loadPriceTable({ pricesFile: EXCERPT }).resolve('gpt4o')).issues[0]!.hint!;
    expect(hint).toMatch(/^did you mean gpt-4o, gpt-4o-mini\b.*\? The table's modelNames\(\) lists its models; or add an entry for the model to that file$/);
    expect(userErrorOf(() => loadPriceTable({ pricesFile: EXCERPT, optionNames: COMMAND_LINE_PRICE_OPTIONS }).resolve('gpt4o')).issues[0]!.hint).toContain(`Run 'loopcost prices --prices ${EXCERPT}' to list its models`);
  });

  it('replayTrace and runScenario with such a table say no flag', () => {
    const prices = loadPriceTable();
    const replayed = userErrorOf(() => replayTrace(RUN, { brakes: {}, strategy: FULL_HISTORY, prices, model: 'gpt4o' }));
    expect(places(replayed)).toEqual([['<replayTrace options>', 'model']]);
    expect(replayed.message).not.toMatch(/--prices|loopcost prices/);
    expect(userErrorOf(() => runScenario(SCENARIO, { prices, model: 'gpt4o', runs: 1 })).message).not.toMatch(/--prices|loopcost prices/);
  });
});

describe("a scenario whose first prompt cannot fit: runScenario's options, not --model and --max-output-tokens", () => {
  // 126,050 + 4,096 > gpt-4o-mini's 128,000 (as test/cli/promptMaxTokensFit.test.ts).
  const big = parseScenario(tinyHealthyScenarioText({ name: 'big', steps: 3, outputTokens: 20, toolResultTokens: 100 }).replace('model: tiny', 'model: gpt-4o-mini').replace(/systemTokens: \d+/, 'systemTokens: 126000'), 'big.yaml');

  it('the max_tokens to send and the model to run it on, as the options name them', () => {
    const error = userErrorOf(() => runScenario(big, { prices: loadPriceTable(), runs: 1 }));
    expect(error.issues[0]!.code).toBe('prompt_and_max_tokens_past_context_window');
    const hint = error.issues[0]!.hint!;
    // A scenario file has no max_tokens field (brakes.max-output-tokens is refused as unknown): not named.
    expect(hint).toContain('(brakes.maxOutputTokens in <runScenario options>), ');
    expect(hint).not.toContain('max-output-tokens in the file');
    expect(hint).toContain('a model with a larger window (model:, or model in <runScenario options>)');
    expect(hint).not.toMatch(/--model|--max-output-tokens/);
    const asModel = userErrorOf(() => runScenario(big, { prices: loadPriceTable(), runs: 1, model: 'gpt-4o-mini' })).issues[0]!.hint!;
    expect(asModel).toContain('(another model in <runScenario options>)');
  });
});

describe('a strategy refused by the check: as the spec it reads, not as --context', () => {
  const prices = MINI_TABLE;

  it("a bad count, a foreign key, a percentage trigger with no window: no '--context' flag in the words", () => {
    const bad = userErrorOf(() => replayTrace(RUN, { brakes: {}, strategy: { kind: 'summary', summary: { keepSteps: 0, summaryTokens: 10, triggerTokens: 5 } }, prices }));
    expect(bad.issues[0]!.message).toBe("written as the spec 'summary:trigger=5,keep=0,tokens=10' (parseContextSpec): keep must be a whole number greater than 0 (got '0'; e.g. keep=3)");
    const foreign = userErrorOf(() => replayTrace(RUN, { brakes: {}, strategy: { kind: 'window', windowSteps: 2, maskSteps: 3 } as never, prices }));
    expect(foreign.issues[0]!.hint).toBe('written as the spec \'window:2\' (parseContextSpec) it would be {"kind":"window","windowSteps":2}');
    const windowless = { ...prices, resolve: () => ({ ...MINI, contextWindow: undefined }) };
    const percent = userErrorOf(() => replayTrace(RUN, { brakes: {}, strategy: parseContextSpec('summary:trigger=50%,keep=1,tokens=10'), prices: windowless }));
    expect(percent.issues[0]!.hint).toBe('give trigger in tokens, or set brakes.contextWindow in <replayTrace options>');
    for (const error of [bad, foreign, percent]) expect(error.message).not.toContain('--context');
  });
});

describe('a missing run or agent is a UserError at every entry point', () => {
  it('compileTrace(undefined)', () => {
    expect(refusal(() => compileTrace(undefined as unknown as Trace))).toEqual(['<compileTrace arguments>', 'trace', 'missing_input']);
    expect(compileTrace(RUN)).toBeDefined();
  });

  it('sweepCompiled: no traces, or a missing one among those it sweeps', () => {
    const grid = { axes: [] } as never;
    expect(refusal(() => sweepCompiled(undefined as never, grid))).toEqual(['<sweepCompiled arguments>', 'traces', 'missing_input']);
    expect(refusal(() => sweepCompiled([undefined] as never, grid))).toEqual(['<sweepCompiled arguments>', 'traces[0]', 'missing_input']);
    expect(refusal(() => sweepCompiled([{ compiled: compileTrace(RUN) }] as never, grid))).toEqual(['<sweepCompiled arguments>', 'traces[0]', 'invalid_input']);
  });

  it('populationRuns: no inputs, a missing trace, a population without its scenario', () => {
    const config = { brakes: brakeConfig({}), strategy: FULL_HISTORY };
    expect(refusal(() => populationRuns(undefined as never, config, MINI_TABLE))).toEqual(['<populationRuns arguments>', 'inputs', 'missing_input']);
    expect(refusal(() => populationRuns({ traces: [RUN, undefined as unknown as Trace] }, config, MINI_TABLE))).toEqual(['<populationRuns arguments>', 'inputs.traces[1]', 'missing_input']);
    expect(refusal(() => populationRuns({ scenarios: [{ runs: 1, seed: 1 } as never] }, config, MINI_TABLE))).toEqual(['<populationRuns arguments>', 'inputs.scenarios[0].scenario', 'missing_input']);
    expect(populationRuns({ traces: [RUN] }, config, MINI_TABLE)).toHaveLength(1);
  });

  it('runAgentTree(undefined)', () => {
    const options = { strategy: FULL_HISTORY, cache: 'off' as const, pricing: MINI, brakes: NO_BRAKES };
    const error = userErrorOf(() => runAgentTree(undefined as never, options));
    expect([error.issues[0]!.file, error.issues[0]!.field, error.issues[0]!.code]).toEqual(['<runAgentTree arguments>', 'root', 'missing_input']);
    expect(error.message).toMatch(/is missing: runAgentTree takes a LiveAgent/);
  });
});

describe('the exported helpers name their own option by default; the CLI passes its flags', () => {
  const SUMMARY_OF_UNKNOWN = parseContextSpec('summary:trigger=1000,keep=2,tokens=100,model=gpt-9');

  it('resolveTracePricing: its `model` option, or --model when the CLI says so', () => {
    expect(places(userErrorOf(() => resolveTracePricing(RUN, { prices: MINI_TABLE, model: 'gpt-9' })))).toEqual([['<resolveTracePricing options>', 'model']]);
    expect(places(userErrorOf(() => resolveTracePricing(RUN, { prices: MINI_TABLE, model: 'gpt-9', modelPlace: COMMAND_LINE_MODEL })))).toEqual([['<command line>', '--model']]);
  });

  it('summaryPricingOf and checkSummaryTrigger: the strategy argument, or --context', () => {
    expect(places(userErrorOf(() => summaryPricingOf(SUMMARY_OF_UNKNOWN, MINI_TABLE)))).toEqual([['<summaryPricingOf arguments>', 'strategy']]);
    expect(places(userErrorOf(() => summaryPricingOf(SUMMARY_OF_UNKNOWN, MINI_TABLE, undefined, COMMAND_LINE_CONTEXT)))).toEqual([['<command line>', '--context']]);
    const past = { strategy: parseContextSpec('summary:trigger=200000,keep=2,tokens=100'), brakes: brakeConfig({}), pricing: MINI };
    expect(places(userErrorOf(() => checkSummaryTrigger(past)))).toEqual([['<checkSummaryTrigger arguments>', 'run.strategy']]);
    expect(places(userErrorOf(() => checkSummaryTrigger(past, COMMAND_LINE_CONTEXT)))).toEqual([['<command line>', '--context']]);
  });

  it('resolveScenarioPricing: its `model` option (an options object; a bare model name still taken), or --model', () => {
    expect(places(userErrorOf(() => resolveScenarioPricing(SCENARIO, MINI_TABLE, { model: 'gpt-9' })))).toEqual([['<resolveScenarioPricing options>', 'model']]);
    expect(places(userErrorOf(() => resolveScenarioPricing(SCENARIO, MINI_TABLE, 'gpt-9')))).toEqual([['<resolveScenarioPricing options>', 'model']]);
    expect(places(userErrorOf(() => resolveScenarioPricing(SCENARIO, MINI_TABLE, { model: 'gpt-9', modelPlace: COMMAND_LINE_MODEL })))).toEqual([['<command line>', '--model']]);
    expect(resolveScenarioPricing(SCENARIO, MINI_TABLE).model).toBe('mini');
  });
});
