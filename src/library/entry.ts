/**
 * What the library's command entry points (whatIf, compareWithRecorded, projectSpend, calibrate, derivePrices)
 * share: their common options checked by the entry points' rules (options/rules.ts), each run priced before any
 * work so an unknown model names the entry point's own `model` option, and a refusal the engines word for the
 * command line (`<command line>` field `--context`) said in the entry point's words (`<whatIf options>` field
 * `strategy`), never a flag.
 */
import { UserError, type InputIssue as UserIssue } from '../errors.js';
import type { BrakeSettings } from '../brakes/config.js';
import type { ContextStrategy } from '../context/strategy.js';
import { boundsInOptions } from '../kernel/cost.js';
import type { LatencyModel } from '../loop/latency.js';
import { optionPlace, requireTraces } from '../options/given.js';
import { latencyIssues, modelNameIssue, priceTableIssue, strategyIssues, type Issue } from '../options/rules.js';
import type { ModelPricing, PriceTable } from '../pricing/types.js';
import { tracePricing } from '../replay/tracePricing.js';
import type { Trace } from '../trace/types.js';

/** How the runs are priced and what shapes their calls: the options every command entry point takes. */
export interface RunShapeOptions {
  /** The price table (loadPriceTable()); a `prices derive` file as `loadPriceTable({ overridesFile })`. */
  prices: PriceTable;
  /** The context strategy the runs replay under (`--context`); default full history, the cache as each run recorded. */
  strategy?: ContextStrategy;
  /** Price every run as this model (`--model`); default each run's own. */
  model?: string;
  /** Time for calls a run records none for (`--latency-model`). */
  latency?: LatencyModel;
}

export const RUN_SHAPE_KEYS = ['prices', 'strategy', 'model', 'latency'] as const;

/** The common options' issues (prices required; strategy, model, latency optional). */
export function runShapeIssues(issue: Issue, options: Record<string, unknown>): void {
  priceTableIssue(issue, 'prices', options.prices);
  strategyIssues(issue, options.strategy, 'strategy');
  modelNameIssue(issue, 'model', options.model);
  if (options.latency !== undefined) latencyIssues(issue, options.latency);
}

/** `traces` checked as runs (each a Trace, by index), and each priced as it will be: a model no table prices named by `<entry options>` field `model` or the run's header. */
export function pricedTraces(entry: string, traces: readonly Trace[], options: Pick<RunShapeOptions, 'prices' | 'model'>): ModelPricing[] {
  requireTraces(entry, traces);
  const model = options.model === undefined ? {} : { model: options.model };
  return traces.map((trace) => tracePricing(trace, { prices: options.prices, ...model, modelPlace: optionPlace(entry, 'model') }));
}

/** The flags the engines name when called as the CLI calls them, and the option each is in a library entry point. */
const FLAG_OPTIONS: Record<string, string> = {
  '--context': 'strategy',
  '--model': 'model',
  '--max-output-tokens': 'brakes.maxOutputTokens',
  '--latency-model': 'latency',
  '--runs-per-day': 'runsPerDay',
  '--days': 'days',
  '--trials': 'trials',
};

function ownIssue(entry: string, issue: UserIssue): UserIssue {
  const own = `<${entry} options>`;
  if (issue.file !== '<command line>' && issue.file !== own) return issue;
  const flag = issue.file === own ? undefined : Object.keys(FLAG_OPTIONS).find((name) => issue.field === name || issue.field?.startsWith(`${name} `));
  const field = flag === undefined ? issue.field : FLAG_OPTIONS[flag]!;
  const said = (text: string | undefined) => (text === undefined ? text : Object.entries(FLAG_OPTIONS).reduce((t, [name, option]) => t.split(name).join(option), text));
  const hint = said(issue.hint);
  return { ...issue, file: own, ...(field === undefined ? {} : { field }), message: said(issue.message)!, ...(hint === undefined ? {} : { hint }) };
}

/** `work`, its refusals in `entry`'s words: an issue placed on the command line moved to the entry point's options, a run past exact money naming its `brakes`. */
export function inOwnWords<T>(entry: string, work: () => T): T {
  try {
    return work();
  } catch (error) {
    const bounded = boundsInOptions(error, 'brakes', `${entry}'s options`);
    if (!(bounded instanceof UserError)) throw bounded;
    throw new UserError(bounded.issues.map((issue) => ownIssue(entry, issue)));
  }
}

/** A list of brake settings (`configurations`, `settings`): each an object, refused by index. */
export function brakeListIssue(issue: Issue, field: string, value: unknown): value is readonly BrakeSettings[] {
  if (Array.isArray(value) && value.length > 0) return true;
  issue(field, value === undefined ? 'missing_field' : 'invalid_value', value === undefined ? 'is missing' : Array.isArray(value) ? 'is empty' : 'is not a list', 'a list of brake settings, e.g. [{ maxRepeat: 2 }, { maxRepeat: 3 }]');
  return false;
}
