/**
 * Scenario files as replay inputs: each is read and checked before anything runs, then runs its
 * synthetic population under its own settings with the flags given on top.
 */
import type { BrakeConfig } from '../brakes/config.js';
import { canonicalJson } from '../brakes/fingerprint.js';
import type { ContextStrategy, StrategyPlace } from '../context/strategy.js';
import type { BroughtIn } from '../io/collectInputs.js';
import type { LatencyModel } from '../loop/latency.js';
import type { ModelPricing, PriceTable } from '../pricing/types.js';
import type { RunResult } from '../replay/replay.js';
import type { ScenarioRunSettings } from '../report/scenarios.js';
import { loadReplayScenarioFiles } from './checkOnly.js';
import type { AnyScenario, Scenario } from './load.js';
import { prepareScenario, resolveScenarioPricing, runSynthetic, strategyPlaceOf, type PreparedScenario, type RunScenarioOptions } from './run.js';
import { COMMAND_LINE_MODEL } from '../options/given.js';
import { scenarioSettings, type ScenarioOverrides, type ScenarioSettings } from './settings.js';

/** A scenario file read and checked, with the settings its runs take (the file's, flags given on top). */
export interface ScenarioInput {
  scenario: Scenario;
  settings: ScenarioSettings;
  /** Where its strategy was written: the file's `context`, or `--context` when given. */
  strategyPlace: StrategyPlace;
}

/**
 * Every file read and checked up front, so one bad file fails the command before anything runs; a file for
 * check only (recorded `traces:`, no population) that a directory or glob brought in is left out, listed in
 * `checkOnly` (checkOnly.ts). `read`: the files a directory or glob brought in and how many trace files
 * the inputs hold (by default every file counts as named on its own).
 */
export function loadScenarioInputs(
  files: readonly string[],
  overrides: ScenarioOverrides,
  read: { broughtIn: BroughtIn; traceFiles: number } = { broughtIn: new Map(), traceFiles: 0 },
): { inputs: ScenarioInput[]; checkOnly: AnyScenario[] } {
  const { scenarios, checkOnly } = loadReplayScenarioFiles(files, read);
  return { inputs: scenarios.map((scenario) => ({ scenario, settings: scenarioSettings(scenario, overrides), strategyPlace: strategyPlaceOf(scenario, overrides) })), checkOnly };
}

/** What a scenario input's runs ran under, as reports name it. */
export function scenarioRunSettings({ scenario, settings }: ScenarioInput): ScenarioRunSettings {
  return {
    source: scenario.source,
    runs: settings.runs,
    seed: settings.seed,
    brakes: settings.brakes,
    strategy: settings.strategy,
    ...(settings.latency === undefined ? {} : { latency: settings.latency }),
  };
}

/** Each input's model priced from the table (or as `model`), before any run. */
export function scenarioPricings(inputs: readonly ScenarioInput[], prices: PriceTable, model?: string): ModelPricing[] {
  return inputs.map((input) => resolveScenarioPricing(input.scenario, prices, { model, modelPlace: COMMAND_LINE_MODEL }));
}

/** The options that run a scenario input under its settings. */
export function scenarioRunOptions({ settings, strategyPlace }: ScenarioInput, options: { prices: PriceTable; model?: string; keepSteps?: boolean }): RunScenarioOptions {
  return {
    prices: options.prices,
    runs: settings.runs,
    seed: settings.seed,
    brakes: settings.brakes,
    strategy: settings.strategy,
    strategyPlace,
    ...(settings.latency === undefined ? {} : { latency: settings.latency }),
    ...(options.model === undefined ? {} : { model: options.model }),
    keepSteps: options.keepSteps ?? false,
  };
}

/**
 * The runs of one scenario input, closed-loop, under its settings: runScenario's runs, prepared as the
 * commands prepare them, so that a refusal names their flags (--model, --max-output-tokens), not runScenario's
 * options; with the scenario as prepared (what their no-brake runs are made from: replay's false stops).
 */
export function runScenarioInput(input: ScenarioInput, options: { prices: PriceTable; model?: string; keepSteps?: boolean }): { prepared: PreparedScenario & { firstRun: number }; runs: RunResult[] } {
  const prepared = prepareScenario(input.scenario, scenarioRunOptions(input, options));
  return { prepared, runs: Array.from({ length: prepared.runs }, (_, i) => runSynthetic(prepared, prepared.firstRun + i).result) };
}

/** The brakes, context and latency a report names: the scenarios' own when every input is a scenario run under the same ones. */
export function reportedSettings(
  command: { brakes: BrakeConfig; strategy: ContextStrategy; latency?: LatencyModel },
  traceFiles: number,
  scenarios: readonly ScenarioInput[],
): { brakes: BrakeConfig; strategy: ContextStrategy; latency?: LatencyModel } {
  const first = scenarios[0]?.settings;
  const key = (s: ScenarioSettings) => canonicalJson({ brakes: s.brakes, strategy: s.strategy, latency: s.latency ?? null });
  if (traceFiles === 0 && first && scenarios.every(({ settings }) => key(settings) === key(first))) return first;
  return command;
}
