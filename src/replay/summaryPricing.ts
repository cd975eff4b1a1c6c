/**
 * A summary strategy's prices and the trigger check every entry point runs before a run with one: the summary
 * model's prices (`summary:…,model=X`), and a trigger no provider would answer refused at its place.
 */
import { UserError } from '../errors.js';
import type { BrakeConfig } from '../brakes/config.js';
import { summaryTriggerTokens, type ContextStrategy, type StrategyPlace } from '../context/strategy.js';
import { brakeLimits, contextWindowTokens } from '../kernel/limits.js';
import { flattenPrices } from '../kernel/prices.js';
import { providerRefuses } from '../kernel/providerWindow.js';
import { argumentPlace } from '../options/given.js';
import { withCacheRule } from '../pricing/cacheRules.js';
import type { ModelPricing, PriceTable } from '../pricing/types.js';
import { placePricingIssues } from '../pricing/issuePlace.js';
import { requireSummaryPricingArguments, requireSummaryTriggerArguments } from '../options/entryArguments.js';

/** A summary model's prices (`summary:…,model=X`'s X; serve's summary requests too): the table's, as of `recordedAt`, with its provider's cache rule. Throws the table's UserError for a model it does not know. */
export function resolveSummaryModel(prices: PriceTable, model: string, recordedAt: string | undefined): ModelPricing {
  return withCacheRule(prices.resolve(model, undefined, recordedAt));
}

/**
 * `summary:…,model=X`: the summary calls' prices, as of `recordedAt` (undefined: the run's model's
 * prices); an unknown X is named at `place` (default: this function's `strategy` argument; the CLI passes
 * `--context`, COMMAND_LINE_CONTEXT), a price file's
 * entry found wrong while pricing X stays the price file's, naming `place` as who asked (placePricingIssues).
 */
export function summaryPricingOf(strategy: ContextStrategy, prices: PriceTable, recordedAt?: string, place: StrategyPlace = argumentPlace('summaryPricingOf', 'strategy')): ModelPricing | undefined {
  requireSummaryPricingArguments(strategy, prices, recordedAt);
  const model = strategy.summary?.model;
  if (model === undefined) return undefined;
  try {
    return resolveSummaryModel(prices, model, recordedAt);
  } catch (error) {
    if (!(error instanceof UserError)) throw error;
    throw new UserError(placePricingIssues(error.issues, place));
  }
}

/**
 * A summary trigger that can never work, refused before the run and named at `place` (where the strategy
 * was written: default this function's `run.strategy`; the CLI passes `--context`, COMMAND_LINE_CONTEXT;
 * the session checks the first rule again, knowing no place):
 * - one the run's context window makes unusable (summaryTriggerTokens);
 * - one whose summary call no provider would answer: a prompt past trigger T + the S tokens asked for passes
 *   the summary model's window (`summaryPricing`, model=X's; else the run's model's; none in the table: no
 *   check), so every summary would be refused (providerRefuses) and every run end provider_refused at its first.
 */
export function checkSummaryTrigger(run: { strategy: ContextStrategy; brakes: BrakeConfig; pricing: ModelPricing; summaryPricing?: ModelPricing }, place: StrategyPlace = argumentPlace('checkSummaryTrigger', 'run.strategy')): void {
  requireSummaryTriggerArguments(run);
  const summary = run.strategy.summary;
  if (summary === undefined) return;
  const prices = flattenPrices(run.pricing);
  const triggerTokens = summaryTriggerTokens(run.strategy, contextWindowTokens(brakeLimits(run.brakes, prices.contextWindow), prices), place);
  const summaryModel = run.summaryPricing ?? run.pricing;
  const windowTokens = summaryModel.contextWindow;
  if (windowTokens === undefined || !providerRefuses(windowTokens, triggerTokens, summary.summaryTokens)) return;
  const trigger = summary.triggerPercent === undefined ? `trigger=${triggerTokens}` : `trigger=${summary.triggerPercent}% (${triggerTokens} tokens)`;
  throw new UserError({
    ...place,
    code: 'bad_value',
    message: `${trigger} + tokens=${summary.summaryTokens} is ${triggerTokens + summary.summaryTokens} tokens, past ${summaryModel.model}'s context window (${windowTokens} tokens): every summary call would be refused (provider_refused)`,
    hint: `keep trigger + tokens at most ${windowTokens}: a lower trigger or fewer summary tokens, or a summary model with a larger window (model=X)`,
  });
}
