/**
 * Scenario files as what-if inputs: every synthetic run is a subject, its baseline the file's brakes,
 * and each setting runs the same agent (same seed and run index) closed-loop under other brakes.
 */
import type { PriceTable } from '../pricing/types.js';
import type { WhatIfSubject } from '../replay/whatif.js';
import { loadScenarioFile } from './load.js';
import { prepareScenario, runSynthetic } from './run.js';
import { scenarioSettings, type ScenarioOverrides } from './settings.js';

export function scenarioWhatIfSubjects(
  files: readonly string[],
  options: { prices: PriceTable; overrides: ScenarioOverrides; model?: string },
): WhatIfSubject[] {
  const subjects: WhatIfSubject[] = [];
  for (const scenario of files.map(loadScenarioFile)) {
    const settings = scenarioSettings(scenario, options.overrides);
    const prepared = prepareScenario(scenario, {
      prices: options.prices,
      runs: settings.runs,
      seed: settings.seed,
      brakes: settings.brakes,
      strategy: settings.strategy,
      ...(settings.latency === undefined ? {} : { latency: settings.latency }),
      ...(options.model === undefined ? {} : { model: options.model }),
    });
    for (let run = 0; run < prepared.runs; run++) {
      subjects.push({
        source: `${scenario.source}#${run + 1}`,
        baseline: settings.brakes,
        replay: (brakes) => {
          const { result } = runSynthetic({ ...prepared, brakes }, run);
          return { stopReason: result.stopReason, steps: result.steps, costPico: result.costPico };
        },
      });
    }
  }
  return subjects;
}
