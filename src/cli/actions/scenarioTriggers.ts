/**
 * The summary-trigger warning (report/summaryTriggerWarning.ts) of the scenario files a command runs: each
 * file's strategy as run (its `context`, or `--context`; in a sweep, a `--grid context` value), the window
 * a percentage trigger is of (the `--context-window` brake's, else its model's).
 */
import { COMMAND_LINE_CONTEXT, contextSpecOf, type ContextStrategy, type StrategyPlace } from '../../context/strategy.js';
import type { BrakeConfig } from '../../brakes/config.js';
import type { GridConfiguration } from '../../population/grid.js';
import { scenarioConfig } from '../../population/run.js';
import type { ModelPricing, PriceTable } from '../../pricing/types.js';
import { scenarioTriggerWarnings, type ScenarioTriggerInput } from '../../report/summaryTriggerWarning.js';
import type { ReportWarning } from '../../report/warnings.js';
import { scenarioPricings, type ScenarioInput } from '../../scenario/replayScenarios.js';
import { scenarioLineOf } from '../../scenario/scenarioLines.js';
import type { Scenario } from '../../scenario/load.js';
import type { CheckInput } from '../../check/inputs.js';

/** A scenario file's runs under `strategy` written at `place` and `brakes`: the file's own `context` named at its line. */
function triggerInput(scenario: ScenarioInput['scenario'], run: { strategy: ContextStrategy; place: StrategyPlace; brakes: BrakeConfig; pricing: ModelPricing | undefined }): ScenarioTriggerInput {
  const brake = run.brakes.contextWindow;
  const line = run.place.file === scenario.source ? scenarioLineOf(scenario, ['context']) : undefined;
  return {
    scenario,
    strategy: run.strategy,
    strategyPlace: line === undefined ? run.place : { ...run.place, line },
    contextWindowTokens: typeof brake === 'number' ? brake : (run.pricing?.contextWindow ?? Infinity),
  };
}

/** `pricings[i]`: the i-th input's pricing (its model's window). */
export function scenarioInputTriggerWarnings(inputs: readonly ScenarioInput[], pricings: readonly ModelPricing[]): ReportWarning[] {
  return scenarioTriggerWarnings(inputs.map((input, i) => triggerInput(input.scenario, { strategy: input.settings.strategy, place: input.strategyPlace, brakes: input.settings.brakes, pricing: pricings[i] })));
}

/** A sweep's (calibrate's) setup, as sweepWork.ts SweepSetup holds it. */
interface GridSetup {
  configurations: readonly GridConfiguration[];
  prices: PriceTable;
  scenarios: readonly ScenarioInput[];
}

/**
 * Each scenario file's runs under each configuration of a sweep (calibrate): the strategy they take
 * (population/run.ts scenarioConfig: the file's `context` where neither a flag nor a grid axis gives one),
 * named where it was written — the file's field, `--grid context VALUE`, or `--context` — once per
 * distinct strategy, place and window × file (a grid of 10^5 configurations asks a handful).
 */
export function gridTriggerWarnings(setup: GridSetup): ReportWarning[] {
  const pricings = new Map<string | undefined, ModelPricing[]>();
  const pricingsOf = (model: string | undefined): ModelPricing[] => pricings.get(model) ?? pricings.set(model, scenarioPricings(setup.scenarios, setup.prices, model)).get(model)!;
  const asked = new Set<string>();
  const inputs: ScenarioTriggerInput[] = [];
  for (const { config, values } of setup.configurations) {
    setup.scenarios.forEach((input, s) => {
      const run = scenarioConfig(config, s);
      if (run.strategy.summary === undefined) return;
      const place = run.strategyPlace ?? (values.context !== undefined ? { file: '<command line>', field: `--grid context ${values.context}` } : COMMAND_LINE_CONTEXT);
      const window = typeof run.brakes.contextWindow === 'number' ? run.brakes.contextWindow : `model ${run.model ?? ''}`;
      const key = [s, contextSpecOf(run.strategy), place.file, place.field ?? '', window].join('\u0000');
      if (asked.has(key)) return;
      asked.add(key);
      inputs.push(triggerInput(input.scenario, { strategy: run.strategy, place, brakes: run.brakes, pricing: pricingsOf(run.model)[s] }));
    });
  }
  return scenarioTriggerWarnings(inputs);
}

/** `check`: each scenario file with a population, its synthetic runs under its settings (its `context`, or `--context`), priced as `model` if given. */
export function checkTriggerWarnings(checks: readonly CheckInput[], options: { prices: PriceTable; model?: string }): ReportWarning[] {
  const inputs = checks.flatMap((input): ScenarioInput[] => (input.scenario.population === undefined ? [] : [{ scenario: input.scenario as Scenario, settings: input.settings, strategyPlace: input.strategyPlace ?? COMMAND_LINE_CONTEXT }]));
  return scenarioInputTriggerWarnings(inputs, scenarioPricings(inputs, options.prices, options.model));
}
