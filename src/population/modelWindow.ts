/**
 * `--context-window model` takes each run's window from its model's prices: for a model the price table
 * gives no window (gemini-2.5-pro in @pydantic/genai-prices 0.1.8), that brake can never fire. One rule
 * (WindowlessModels.note) says which runs that concerns, for every command that runs the brake: replay's
 * notes (src/cli/actions/runNotes.ts) run by run, and the population commands (sweep, calibrate, project,
 * check) through PopulationWindows, configuration by configuration; one warning says it
 * (report/warnings.ts windowlessModelWarnings). A warning, not a refusal: inputs may mix models.
 *
 * Pure: no node:*, no clock.
 */
import type { BrakeConfig } from '../brakes/config.js';
import type { ModelPricing, PriceTable } from '../pricing/types.js';
import { resolveTracePricing } from '../replay/replay.js';
import { windowlessModelWarnings, type ReportWarning } from '../report/warnings.js';
import type { Scenario } from '../scenario/load.js';
import { resolveScenarioPricing } from '../scenario/run.js';
import type { Trace } from '../trace/types.js';
import type { PopulationConfig, PopulationInputs } from './run.js';

/** Whether brakes take the model's window (a flag, a grid value, a preset, a scenario file's `context-window: model`). */
export function asksModelWindow(brakes: Pick<BrakeConfig, 'contextWindow'>): boolean {
  return brakes.contextWindow === 'model';
}

/** The models whose runs had no context-window brake: brakes asked for the model's window, the table gives none. */
export class WindowlessModels {
  private readonly names = new Set<string>();

  /** A run priced with `pricing`; `asks`: its brakes take the model's window. */
  note(asks: boolean, pricing: Pick<ModelPricing, 'model' | 'contextWindow'>): void {
    if (asks && pricing.contextWindow === undefined) this.names.add(pricing.model);
  }

  /** Models another collector found (a worker thread's, a file's). */
  add(models: Iterable<string>): void {
    for (const model of models) this.names.add(model);
  }

  models(): string[] {
    return [...this.names].sort();
  }

  warnings(): ReportWarning[] {
    return windowlessModelWarnings(this.models());
  }
}

/**
 * The notes of a population command over its configurations: a configuration that takes the model's
 * window prices every run as its model (`model`: --model, `--grid model=`) or, without one, each run as
 * its own — a recorded run its trace's model, a synthetic run its scenario file's. Runs are added as
 * they are read (addTrace, addScenario, addInputs); the configurations' own models are noted once.
 */
export class PopulationWindows {
  private readonly notes = new WindowlessModels();

  /** `own`: some configuration that takes the window prices runs as their own model, so each run's own pricing counts. */
  private constructor(
    private readonly own: boolean,
    private readonly prices: PriceTable,
  ) {}

  /** Over `configs`: their own models noted now, each run's as it is added. */
  static of(configs: readonly Pick<PopulationConfig, 'brakes' | 'model'>[], prices: PriceTable): PopulationWindows {
    const asking = configs.filter((config) => asksModelWindow(config.brakes));
    const windows = new PopulationWindows(asking.some((config) => config.model === undefined), prices);
    const models = new Set(asking.flatMap((config) => (config.model === undefined ? [] : [config.model])));
    for (const model of models) windows.notes.note(true, prices.resolve(model));
    return windows;
  }

  /** Over the same configurations, with no runs yet: some runs kept apart (a file's, added back once it reads cleanly). */
  apart(): PopulationWindows {
    return new PopulationWindows(this.own, this.prices);
  }

  /** A recorded run, priced as its trace's model. */
  addTrace(trace: Trace): void {
    if (this.own) this.notes.note(true, resolveTracePricing(trace, { prices: this.prices }));
  }

  /** A scenario file's synthetic runs, priced as the file's model. */
  addScenario(scenario: Scenario): void {
    if (this.own) this.notes.note(true, resolveScenarioPricing(scenario, this.prices));
  }

  /** Every run of `inputs`: recorded traces and scenario populations. */
  addInputs(inputs: PopulationInputs): this {
    for (const trace of inputs.traces ?? []) this.addTrace(trace);
    for (const population of inputs.scenarios ?? []) this.addScenario(population.scenario);
    return this;
  }

  /** Models found elsewhere over the same configurations (a worker thread's runs, a file's). */
  add(models: Iterable<string>): this {
    this.notes.add(models);
    return this;
  }

  models(): string[] {
    return this.notes.models();
  }

  warnings(): ReportWarning[] {
    return this.notes.warnings();
  }
}
