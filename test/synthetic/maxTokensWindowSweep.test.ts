/**
 * A sweep over max_tokens (`--grid max-output-tokens=…`) gives each cell what that configuration run
 * alone gives. A sweep records each synthetic run once with no brakes and replays the recording under
 * every brake setting of its group (src/population/syntheticRecording.ts); the max_tokens a
 * configuration sends is no brake but decides where the agent's provider refuses it (prompt + max_tokens
 * past the window), so configurations sending different max_tokens must not share a recording — nor a
 * baseline (the same run with no brake, sending the same max_tokens).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { NO_BRAKES, type BrakeConfig } from '../../src/brakes/config.js';
import { populationRuns, runFigures, type PopulationConfig, type PopulationRun, type ScenarioPopulation } from '../../src/population/run.js';
import { strategyTotals, SweepPopulation, sweepMetrics } from '../../src/population/sweep.js';
import { parseScenario } from '../../src/scenario/load.js';
import { scenarioRuns } from '../../src/scenario/run.js';
import { tempDir } from '../cli/run.js';
import { PRICES, REFUSED_AT, SCENARIO, SCENARIO_TEXT } from './maxTokensWindowScenario.js';
import { expectMaxTokensCellsAsReplayed } from './sweepAgainstReplay.js';
import { sweptRowOf } from '../population/sweptRow.js';

/** SCENARIO with a second entry whose sizes vary run to run, so runs are refused at different calls. */
const VARIED = parseScenario(
  `${SCENARIO_TEXT}  - behaviour: healthy
    weight: 1
    steps: 40
    outputTokens: { kind: lognormal, median: 60, p95: 200 }
    toolResultTokens: { kind: lognormal, median: 1200, p95: 2600 }
`,
  'varied.yaml',
);
const POPULATIONS: ScenarioPopulation[] = [
  { scenario: SCENARIO, runs: 4, seed: 1 },
  { scenario: VARIED, runs: 24, seed: 7, firstRun: 3 },
];

const sending = (maxOutputTokens: number | undefined): BrakeConfig => (maxOutputTokens === undefined ? NO_BRAKES : { ...NO_BRAKES, maxOutputTokens });

/** The configuration's runs closed loop, alone, each paired with the same run with no brake sending the same max_tokens. */
function alone(config: PopulationConfig): PopulationRun[] {
  return POPULATIONS.flatMap((population) => {
    const options = (brakes: BrakeConfig) => ({ prices: PRICES, runs: population.runs, seed: population.seed, firstRun: population.firstRun ?? 0, brakes, strategy: config.strategy });
    const unbraked = [...scenarioRuns(population.scenario, options(sending(config.brakes.maxOutputTokens)), false)];
    return [...scenarioRuns(population.scenario, options(config.brakes), false)].map((r, k) => ({
      source: r.result.source,
      truth: r.truth,
      run: runFigures(r.result),
      baseline: { stopReason: unbraked[k]!.result.stopReason, steps: unbraked[k]!.result.steps, costPico: unbraked[k]!.result.costPico, truth: unbraked[k]!.truth },
    }));
  });
}

describe('a sweep over max-output-tokens gives each cell what that configuration alone gives', () => {
  it('max_tokens 100, 2596, 4096 (said and left out) × no cap, a step cap of 10, the model-window brake: every cell as run alone', () => {
    const configs: PopulationConfig[] = [100, 2596, undefined, 4096].flatMap((maxOutputTokens) =>
      [{}, { maxSteps: 10 }, { contextWindow: 'model' as const }].map((brakes) => ({ brakes: { ...sending(maxOutputTokens), ...brakes }, strategy: { kind: 'full' as const } })),
    );
    const swept = sweepMetrics(new SweepPopulation([], POPULATIONS), configs, PRICES);
    const shared = { scenarios: POPULATIONS };
    configs.forEach((config, c) => {
      const pairs = alone(config);
      expect(swept[c], JSON.stringify(config.brakes)).toEqual({ ...sweptRowOf(pairs), ...strategyTotals(pairs.map((p) => p.run)) });
      // The population runner (check, project), its baselines memoised across configurations of one population, agrees.
      expect(populationRuns(shared, config, PRICES)).toEqual(pairs);
    });
    // The cells differ: with no brake the fixed-size runs are refused at call 11, 10 and 9 (after a step fewer).
    const steps = (c: number) => alone(configs[c]!).slice(0, 4).map((pair) => [pair.run.stopReason, pair.run.steps]);
    expect([steps(0), steps(3), steps(6), steps(9)]).toEqual([REFUSED_AT[100], REFUSED_AT[2596], REFUSED_AT[4096], REFUSED_AT[4096]].map((k) => Array(4).fill(['provider_refused', k - 1])));
  });

  it('on the command line: sweep --grid max-output-tokens=100,4096 gives each cell what replay of that setting alone gives', async () => {
    // 1,000 tokens a step from 100 on gpt-4 (8,192 tokens): refused at call 5 with max_tokens 4096, at call 9 with 100.
    const dir = tempDir();
    const file = join(dir, 'gpt4.yaml');
    const entry = ['  - behaviour: healthy', '    weight: 1', '    steps: { kind: uniform, min: 3, max: 12 }', '    outputTokens: 10', '    toolResultTokens: 990'];
    writeFileSync(file, ['scenario: loopcost.scenario/1', 'model: gpt-4', 'provider: openai', 'systemTokens: 100', 'runs: 12', 'population:', ...entry].join('\n') + '\n');
    const { sweep } = await expectMaxTokensCellsAsReplayed(file, ['100', '4096']);
    expect(sweep.configurations[0].stopReasons).not.toEqual(sweep.configurations[1]!.stopReasons);
  });
});
