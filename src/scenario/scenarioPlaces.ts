/**
 * Where a scenario's settings are named when they are refused, and its model priced: an unknown model at
 * the file's `model:` line (or where the caller was given the model that re-prices it), the strategy at the
 * file's `context` unless `--context` replaced it.
 */
import { COMMAND_LINE_CONTEXT, type StrategyPlace } from '../context/strategy.js';
import { UserError } from '../errors.js';
import { COMMAND_LINE_MODEL, optionPlace, type NamedPlace } from '../options/given.js';
import { withCacheRule } from '../pricing/cacheRules.js';
import { placePricingIssues } from '../pricing/issuePlace.js';
import type { ModelPricing, PriceTable } from '../pricing/types.js';
import type { Scenario } from './load.js';
import { scenarioLineOf } from './scenarioLines.js';
import { fileKeyOfFlag } from './settings.js';

/** Another model to price a scenario's runs as, and where it was given (`modelPlace`, to name an unknown one). */
export interface ScenarioModelOptions {
  model?: string | undefined;
  /** Default: resolveScenarioPricing's own `model` option; the CLI passes `--model` (COMMAND_LINE_MODEL). */
  modelPlace?: NamedPlace | undefined;
}

/**
 * The scenario's model priced from the table, its provider's cache rule filled in (a library result: the
 * rule shown as resolveTracePricing shows a run's); an unknown model names the scenario's `model:` line, or
 * where `model` (which re-prices it) was given: `modelPlace`, by default this function's own option. A bare
 * string third argument is `model` (the former form, kept).
 */
export function resolveScenarioPricing(scenario: Scenario, prices: PriceTable, options: ScenarioModelOptions | string = {}): ModelPricing {
  const { model, modelPlace } = typeof options === 'string' ? { model: options, modelPlace: undefined } : options;
  return withCacheRule(scenarioPricing(scenario, prices, { model, modelPlace: modelPlace ?? optionPlace('resolveScenarioPricing', 'model') }));
}

/**
 * resolveScenarioPricing, an unknown `model` named where the caller was given it (`modelPlace`: default
 * `--model`; runScenario's `model`): the table's prices as they are. The provider's minimum cacheable prefix
 * applies to synthetic runs as to recorded ones (--cache on) where the kernel flattens them (kernel/prices.ts
 * flattenPrices takes cacheRuleOf), so it is not filled in here.
 */
export function scenarioPricing(scenario: Scenario, prices: PriceTable, { model, modelPlace }: { model?: string | undefined; modelPlace?: NamedPlace | undefined }): ModelPricing {
  try {
    return model !== undefined ? prices.resolve(model) : prices.resolve(scenario.model, scenario.provider);
  } catch (error) {
    if (!(error instanceof UserError)) throw error;
    const line = model !== undefined ? undefined : scenarioLineOf(scenario, ['model']);
    const place = model !== undefined ? (modelPlace ?? COMMAND_LINE_MODEL) : { file: scenario.source, ...(line === undefined ? {} : { line }), field: 'model' };
    throw new UserError(placePricingIssues(error.issues, place));
  }
}

/** Where a scenario file writes its context strategy. */
export function scenarioContextPlace(scenario: Pick<Scenario, 'source'>): StrategyPlace {
  return { file: scenario.source, field: fileKeyOfFlag('--context')! };
}

/** The file's `context` names a scenario's strategy unless `--context` (or where else `overrides` were given: `given`) replaced it. */
export function strategyPlaceOf(scenario: Pick<Scenario, 'source'>, overrides: { contextFlags?: { context?: string } }, given: StrategyPlace = COMMAND_LINE_CONTEXT): StrategyPlace {
  return overrides.contextFlags?.context === undefined ? scenarioContextPlace(scenario) : given;
}
