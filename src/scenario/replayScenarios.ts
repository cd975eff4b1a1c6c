/**
 * Scenario files as replay inputs: each runs its synthetic population under its own settings with the
 * command line on top, and the report names the settings each one ran under.
 */
import type { BrakeConfig } from '../brakes/config.js';
import { canonicalJson } from '../brakes/fingerprint.js';
import { brakeSettingsRecord, contextSettingsRecord } from '../report/records.js';
import type { ContextStrategy } from '../context/strategy.js';
import type { ModelPricing, PriceTable } from '../pricing/types.js';
import type { RunResult } from '../replay/replay.js';
import { loadScenarioFile } from './load.js';
import { resolveScenarioPricing, runScenario } from './run.js';
import { scenarioSettings, type ScenarioOverrides } from './settings.js';

export interface ScenarioInputSettings {
  source: string;
  brakes: BrakeConfig;
  strategy: ContextStrategy;
  runs: number;
  seed: number;
}

export interface ScenarioReplay {
  results: RunResult[];
  pricings: ModelPricing[];
  settings: ScenarioInputSettings[];
}

export function replayScenarioFiles(
  files: readonly string[],
  options: { prices: PriceTable; overrides: ScenarioOverrides; model?: string; keepSteps?: boolean },
): ScenarioReplay {
  // Every file is read and checked before any runs, so one bad file fails the command up front.
  const scenarios = files.map(loadScenarioFile);
  const out: ScenarioReplay = { results: [], pricings: [], settings: [] };
  for (const scenario of scenarios) {
    const settings = scenarioSettings(scenario, options.overrides);
    out.pricings.push(resolveScenarioPricing(scenario, options.prices, options.model));
    out.settings.push({ source: scenario.source, brakes: settings.brakes, strategy: settings.strategy, runs: settings.runs, seed: settings.seed });
    out.results.push(
      ...runScenario(scenario, {
        prices: options.prices,
        runs: settings.runs,
        seed: settings.seed,
        brakes: settings.brakes,
        strategy: settings.strategy,
        ...(settings.latency === undefined ? {} : { latency: settings.latency }),
        ...(options.model === undefined ? {} : { model: options.model }),
        keepSteps: options.keepSteps ?? false,
      }),
    );
  }
  return out;
}

/** The brakes and context a report names: the scenarios' own when every input is a scenario run under the same ones. */
export function reportedSettings(
  command: { brakes: BrakeConfig; strategy: ContextStrategy },
  traceFiles: number,
  scenarios: readonly ScenarioInputSettings[],
): { brakes: BrakeConfig; strategy: ContextStrategy } {
  const first = scenarios[0];
  const same = (s: ScenarioInputSettings) =>
    canonicalJson(s.brakes) === canonicalJson(first!.brakes) && canonicalJson(s.strategy) === canonicalJson(first!.strategy);
  if (traceFiles === 0 && first && scenarios.every(same)) return { brakes: first.brakes, strategy: first.strategy };
  return command;
}

/** The report with each scenario input's settings, runs and seed (under settings.scenarios). */
export function withScenarioSettings<R extends { settings: object }>(report: R, scenarios: readonly ScenarioInputSettings[]): R {
  if (scenarios.length === 0) return report;
  const listed = scenarios.map((s) => ({
    source: s.source,
    runs: s.runs,
    seed: s.seed,
    brakes: brakeSettingsRecord(s.brakes),
    context: contextSettingsRecord(s.strategy),
    note: "synthetic agents run closed-loop (they react to what their context holds); recordedOutcome holds each run's ground truth",
  }));
  return { ...report, settings: { ...report.settings, scenarios: listed } };
}

/** The one line a table needs when it holds synthetic runs. */
export function syntheticNote(scenarios: readonly ScenarioInputSettings[]): string {
  if (scenarios.length === 0) return '';
  const list = scenarios.map((s) => `${s.source} (${s.runs} runs, seed ${s.seed})`).join(', ');
  return `synthetic runs from ${list}: closed-loop agents that react to their context (steps: taken / model calls made); each run's ground truth is in the JSON and CSV recordedOutcome\n`;
}
