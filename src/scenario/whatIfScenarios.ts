/**
 * Scenario files as what-if inputs: every synthetic run is a subject, its baseline the file's brakes,
 * and each setting runs the same agent (same seed and run index) closed-loop under other brakes; each run
 * says its ground truth, so a completion stopped is a run whose task its baseline did, stopped before it.
 */
import type { PriceTable } from '../pricing/types.js';
import { strategyFiguresOf, type WhatIfSubject } from '../replay/whatif.js';
import { scenarioRunOptions, type ScenarioInput } from './replayScenarios.js';
import { prepareScenario, runSynthetic } from './run.js';

export function* scenarioWhatIfSubjects(inputs: readonly ScenarioInput[], options: { prices: PriceTable; model?: string }): Generator<WhatIfSubject> {
  for (const input of inputs) {
    const { scenario, settings } = input;
    const prepared = prepareScenario(scenario, scenarioRunOptions(input, options));
    for (let run = 0; run < prepared.runs; run++) {
      yield {
        source: `${scenario.source}#${run + 1}`,
        baseline: settings.brakes,
        replay: (brakes) => {
          // Its ground truth (the task done by its end, and at which step): what its baseline's completions are judged by (whatif.ts).
          const { result, truth } = runSynthetic({ ...prepared, brakes }, run);
          return { stopReason: result.stopReason, steps: result.steps, costPico: result.costPico, byPredictiveBound: result.stopByPredictiveBound === true, truth, ...strategyFiguresOf(result) };
        },
      };
    }
  }
}
