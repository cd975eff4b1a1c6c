/**
 * The arguments of the library's entry points that took any value and failed on a wrong one with a
 * TypeError (a `null` text, input, list or callback): each checked by one call at the entry point's top,
 * by the kinds of arguments.ts and the option rules of rules.ts, before anything reads them. Pure: no node:*.
 */
import type { CurveOptions } from '../replay/curve.js';
import type { GenerateOptions } from '../scenario/generate.js';
import { arrayIssue, checkArguments, functionIssue, objectArgumentIssue, stringIssue } from './arguments.js';
import { brakeSettingIssues } from './brakeSettings.js';
import { requireScenario, requireTraces } from './given.js';
import { isObject, type Issue, latencyIssues, type ListsEvery, objectIssue, priceTableIssue, strategyIssues, unknownKeyIssues, validateOptions } from './rules.js';

/** checkRuns, checkScenario: a CheckInput (loadCheckInputs gives them), the recorded runs, a price table and the options. */
export function requireCheckArguments(entry: string, given: { input: unknown; traces: unknown; prices: unknown; options: unknown }): void {
  checkArguments(entry, (issue) => {
    const hint = 'a CheckInput, as loadCheckInputs([scenarioFile], {}) gives them';
    if (objectArgumentIssue(issue, given.input, { field: 'input', hint })) {
      for (const key of ['scenario', 'settings', 'traceStrategy'] as const) objectArgumentIssue(issue, given.input[key], { field: `input.${key}`, hint });
    }
    if (!Array.isArray(given.traces)) arrayIssue(issue, given.traces, { field: 'traces', hint: 'the recorded runs (resolveTraceFiles(input) reads them; [] for none)', each: 'object' });
    priceTableIssue(issue, 'prices', given.prices);
    if (typeof given.options !== 'string') objectArgumentIssue(issue, given.options, { field: 'options', hint: '{ model, modelPlace }, or a model name', optional: true });
  });
  requireTraces(entry, given.traces);
}

/** loadCheckInputs: scenario files' paths, the overrides shaped as the command line's flags, and how bad inputs are read. */
export function requireCheckInputArguments(scenarioFiles: unknown, overrides: unknown, read: unknown): void {
  checkArguments('loadCheckInputs', (issue) => {
    arrayIssue(issue, scenarioFiles, { field: 'scenarioFiles', hint: "the scenario files' paths, e.g. ['scenarios/weekly-report.yaml']", each: 'string' });
    objectArgumentIssue(issue, overrides, { field: 'overrides', hint: '{} for the files’ own settings, or { runs, seed, brakeFlags, contextFlags, … }' });
    objectArgumentIssue(issue, read, { field: 'read', hint: '{ skipBad: true } to keep bad inputs apart, or leave it out', optional: true });
  });
}

const CURVE_OPTION_KEYS = ['brakes', 'latency', 'modelPlace', 'strategyPlace'] as const;
const CURVE_OPTIONS_LISTED: ListsEvery<CurveOptions, typeof CURVE_OPTION_KEYS> = true;
void CURVE_OPTIONS_LISTED;

/** A curve's options: known keys, brakes by their flags' rules (as `curve --max-steps …` takes them), a latency model. */
function curveOptionIssues(issue: Issue, options: unknown): void {
  if (!objectArgumentIssue(issue, options, { field: 'options', hint: '{ brakes, latency } or leave it out', optional: true })) return;
  unknownKeyIssues(issue, 'options', options, CURVE_OPTION_KEYS, 'option');
  if (options.brakes !== undefined) brakeSettingIssues(issue, options.brakes, { field: 'options.brakes' });
  latencyIssues(issue, options.latency, 'options.latency');
}

/**
 * curveRun, growthCurve: the strategy, a price table and the options, named as `entry`'s own arguments before
 * the curve's run is replayed (else a replay's or a pricing's refusal would name replayTrace, resolveTracePricing).
 */
export function requireCurveRunArguments(entry: string, given: { strategy: unknown; prices: unknown; options?: unknown }): void {
  checkArguments(entry, (issue) => {
    strategyIssues(issue, given.strategy, 'strategy', true);
    priceTableIssue(issue, 'prices', given.prices);
    curveOptionIssues(issue, given.options);
  });
}

/** compareCurves: the loop (its spec is checked as every curve's: constantSteps.ts), the strategies with their specs, a price table, the options. */
export function requireCurveArguments(given: { strategies: unknown; prices: unknown; options: unknown }): void {
  checkArguments('compareCurves', (issue) => {
    const hint = "each { spec, strategy }: e.g. { spec: 'window:5', strategy: parseContextSpec('window:5') }";
    arrayIssue(issue, given.strategies, { field: 'strategies', hint, each: 'object' });
    if (Array.isArray(given.strategies)) {
      given.strategies.forEach((entry: Record<string, unknown>, k) => {
        if (!isObject(entry)) return;
        if (typeof entry.spec !== 'string') stringIssue(issue, entry.spec, { field: `strategies[${k}].spec`, hint });
        strategyIssues(issue, entry.strategy, `strategies[${k}].strategy`, true);
      });
    }
    priceTableIssue(issue, 'prices', given.prices);
    curveOptionIssues(issue, given.options);
  });
}

const GENERATE_KEYS = ['prices', 'overrides'] as const;
const GENERATE_LISTED: ListsEvery<GenerateOptions, typeof GENERATE_KEYS> = true;
void GENERATE_LISTED;

/** generateTraces: a Scenario, and its options (a price table; overrides shaped as `loopcost generate`'s flags). */
export function requireGenerateArguments(scenario: unknown, options: unknown): void {
  requireScenario('generateTraces', scenario);
  validateOptions('generateTraces', options, GENERATE_KEYS, (issue, o) => {
    priceTableIssue(issue, 'prices', o.prices);
    objectIssue(issue, 'overrides', o.overrides, '{ runs, seed, brakeFlags, contextFlags, … } as the command line’s flags, or leave it out');
  });
}

/**
 * resolveTracePricing: a run (its header only: a sweep prices runs whose calls it let go once compiled)
 * and options holding a price table.
 */
export function requirePricingArguments(trace: unknown, options: unknown): void {
  checkArguments('resolveTracePricing', (issue) => {
    const hint = 'a Trace (loadTraceFile returns an array of the file\'s runs: check its length before taking [0])';
    if (objectArgumentIssue(issue, trace, { field: 'trace', hint })) objectArgumentIssue(issue, trace.header, { field: 'trace.header', hint });
    if (objectArgumentIssue(issue, options, { field: 'options', hint: '{ prices: loadPriceTable(), model? }' })) priceTableIssue(issue, 'options.prices', options.prices);
  });
}

/** summaryPricingOf: a strategy, the price table its summary model is priced from (none needed without one), and the day prices are read as of. */
export function requireSummaryPricingArguments(strategy: unknown, prices: unknown, recordedAt: unknown): void {
  checkArguments('summaryPricingOf', (issue) => {
    const isStrategy = objectArgumentIssue(issue, strategy, { field: 'strategy', hint: "a context strategy, e.g. parseContextSpec('summary:trigger=8000,keep=3,tokens=500')" });
    const summary = isStrategy ? strategy.summary : undefined;
    if (prices !== undefined || (isObject(summary) && summary.model !== undefined)) priceTableIssue(issue, 'prices', prices);
    stringIssue(issue, recordedAt, { field: 'recordedAt', hint: "an ISO date (a trace's header.recordedAt), or leave it out", optional: true });
  });
}

/** checkSummaryTrigger: the run's strategy, brakes and prices. */
export function requireSummaryTriggerArguments(run: unknown): void {
  checkArguments('checkSummaryTrigger', (issue) => {
    const hint = '{ strategy, brakes: brakeConfig(settings), pricing: prices.resolve(model), summaryPricing? }';
    if (!objectArgumentIssue(issue, run, { field: 'run', hint })) return;
    for (const key of ['strategy', 'brakes', 'pricing'] as const) objectArgumentIssue(issue, run[key], { field: `run.${key}`, hint });
  });
}

/** mergeSweeps: the slices of one sweep, at least one. */
export function requireSweepParts(parts: unknown): void {
  checkArguments('mergeSweeps', (issue) => arrayIssue(issue, parts, { field: 'parts', hint: 'the SweepResults of one sweep swept apart (sweepCompiled over consecutive ranges)', each: 'object', nonEmpty: true }));
}

/** fitScenario: the recorded runs, and how each is priced. */
export function requireFitArguments(traces: unknown, pricing: unknown): void {
  requireTraces('fitScenario', traces);
  checkArguments('fitScenario', (issue) => functionIssue(issue, pricing, { field: 'pricing', hint: '(trace) => prices.resolve(trace.header.model)' }));
}
