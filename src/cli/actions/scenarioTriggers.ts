/**
 * The summary-trigger warning (report/summaryTriggerWarning.ts) of the scenario files a command runs: each
 * file's strategy as run (its `context`, or `--context`), the window a percentage trigger is of (the
 * `--context-window` brake's, else its model's).
 */
import type { ModelPricing } from '../../pricing/types.js';
import { scenarioTriggerWarnings } from '../../report/summaryTriggerWarning.js';
import type { ReportWarning } from '../../report/warnings.js';
import type { ScenarioInput } from '../../scenario/replayScenarios.js';
import { scenarioLineOf } from '../../scenario/scenarioLines.js';

/** `pricings[i]`: the i-th input's pricing (its model's window). */
export function scenarioInputTriggerWarnings(inputs: readonly ScenarioInput[], pricings: readonly ModelPricing[]): ReportWarning[] {
  return scenarioTriggerWarnings(
    inputs.map((input, i) => {
      const brake = input.settings.brakes.contextWindow;
      // The file's own `context`: at its line.
      const line = input.strategyPlace.file === input.scenario.source ? scenarioLineOf(input.scenario, ['context']) : undefined;
      return {
        scenario: input.scenario,
        strategy: input.settings.strategy,
        strategyPlace: line === undefined ? input.strategyPlace : { ...input.strategyPlace, line },
        contextWindowTokens: typeof brake === 'number' ? brake : (pricings[i]?.contextWindow ?? Infinity),
      };
    }),
  );
}
