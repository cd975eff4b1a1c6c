/**
 * `--context-window model` takes each run's window from its model's prices: for a model the price table
 * gives no window (gemini-2.5-pro in @pydantic/genai-prices 0.1.8), that brake can never fire. One rule
 * (WindowlessModels.note) says which runs that concerns, for every command that runs the brake: replay's
 * notes (src/cli/actions/runNotes.ts) run by run, and the population commands (sweep, calibrate, project,
 * check) through PopulationWindows, configuration by configuration; one warning says it
 * (report/warnings.ts windowlessModelWarnings). A warning, not a refusal: inputs may mix models.
 * The same notes say when a model's window leaves no room for a prompt (leavesNoRoom: a window ≤ the
 * max_tokens sent, BrakeConfig.maxOutputTokens else DEFAULT_MAX_OUTPUT_TOKENS), so each run stops at its
 * first call, for $0 (report/warnings.ts noRoomWindowWarnings): under that brake, for every run (it
 * stops before the call); without it, for synthetic runs, whose provider refuses every call
 * (SyntheticAgent.next), whatever the brakes (noteSynthetic, addScenario). A scenario prepared with such a
 * max_tokens (one whose first prompt + max_tokens passes the window) is refused before it runs
 * (scenario/promptFit.ts): the synthetic notes are of the settings a what-if tries on its runs.
 *
 * Pure: no node:*, no clock.
 */
import { maxOutputTokensSent, type BrakeConfig } from '../brakes/config.js';
import type { ModelPricing, PriceTable } from '../pricing/types.js';
import { tracePricing } from '../replay/tracePricing.js';
import { noRoomWindowWarnings, noRoomWords, windowlessModelWarnings, type NoRoomWindow, type ReportWarning } from '../report/warnings.js';
import type { Scenario } from '../scenario/load.js';
import { resolveScenarioPricing } from '../scenario/run.js';
import type { Trace } from '../trace/types.js';
import type { PromptCrossing } from './project.js';
import type { PopulationConfig, PopulationInputs } from './run.js';

/** Whether brakes take the model's window (a flag, a grid value, a preset, a scenario file's `context-window: model`). */
export function asksModelWindow(brakes: Pick<BrakeConfig, 'contextWindow'>): boolean {
  return brakes.contextWindow === 'model';
}

/** The max_tokens sent by the brakes that take the model's window (distinct, ascending); none when none do. */
export function modelWindowMaxTokens(brakes: readonly Pick<BrakeConfig, 'contextWindow' | 'maxOutputTokens'>[]): number[] {
  return sentMaxTokens(brakes.filter(asksModelWindow));
}

/** The max_tokens sent under each of `brakes` (distinct, ascending). */
export function sentMaxTokens(brakes: readonly Pick<BrakeConfig, 'maxOutputTokens'>[]): number[] {
  return [...new Set(brakes.map((b) => maxOutputTokensSent(b)))].sort((a, b) => a - b);
}

/**
 * The one rule: a window of `windowTokens` leaves no room for a prompt beside the `maxTokens` a request
 * sends (a provider refuses a prompt + max_tokens past the window; the brake under `--context-window
 * model` stops before it), so every call of a run is refused.
 */
export function leavesNoRoom(windowTokens: number, maxTokens: number): boolean {
  return windowTokens <= maxTokens;
}

/**
 * `project`'s line for a context-window crossing whose window leaves no room (leavesNoRoom), in the words of
 * the no-room warning: not "prompts pass it in 0 of 2 runs" (the brake stopped every run before its first
 * call, so no prompt was made to pass it), but that every call is refused. Undefined when there is room.
 */
export function noRoomCrossingLine(c: PromptCrossing): string | undefined {
  if (c.kind !== 'context_window' || c.contextWindowTokens === undefined || c.maxOutputTokens === undefined) return undefined;
  if (!leavesNoRoom(c.contextWindowTokens, c.maxOutputTokens)) return undefined;
  const words = noRoomWords({ model: c.model, contextWindow: c.contextWindowTokens, maxOutputTokens: c.maxOutputTokens });
  // Runs priced past it were not stopped (no --context-window model brake): a provider would refuse them.
  if (c.runsCrossing > 0) {
    const steps = c.firstStep === null ? '' : `, first at step ${c.firstStep}, median step ${c.medianStep}`;
    return `${words}: a provider refuses every call, and prompts pass it in ${c.runsCrossing} of ${c.runs} runs${steps}${c.runsCrossing === c.runs ? '' : ` (the others stop at their first call, for $0)`}.`;
  }
  return `${words}: every call is refused (${c.runs === 1 ? 'the run stops' : `each of the ${c.runs} runs stops`} at its first call, for $0).`;
}

/** A note of a model with no room (kept as one string, so that a worker's notes travel as its models do). */
const SEP = '\u0000';
const noRoomNote = (model: string, window: number, maxTokens: number) => [model, window, maxTokens].join(SEP);

function noRoomOf(note: string): NoRoomWindow {
  const [model, window, maxTokens] = note.split(SEP);
  return { model: model!, contextWindow: Number(window), maxOutputTokens: Number(maxTokens) };
}

/**
 * The models whose runs the context-window brake could not price as asked, under brakes that take the
 * model's window: the table gives no window (the brake never fires), or a window with no room beside the
 * max_tokens sent (it refuses every call); and, brakes or none, the models of synthetic runs whose window
 * has no room (their provider refuses every call).
 */
export class WindowlessModels {
  private readonly names = new Set<string>();

  /** A run priced with `pricing`; `asks`: the max_tokens sent by its brakes that take the model's window (modelWindowMaxTokens; none: no such brakes). */
  note(asks: readonly number[], pricing: Pick<ModelPricing, 'model' | 'contextWindow'>): void {
    if (asks.length > 0 && pricing.contextWindow === undefined) this.names.add(pricing.model);
    this.noteNoRoom(asks, pricing);
  }

  /**
   * A synthetic run priced with `pricing`, run under brakes sending each of `sent` (sentMaxTokens; with
   * the context-window brake or without): its provider refuses every call past a window with no room.
   */
  noteSynthetic(sent: readonly number[], pricing: Pick<ModelPricing, 'model' | 'contextWindow'>): void {
    this.noteNoRoom(sent, pricing);
  }

  private noteNoRoom(sent: readonly number[], pricing: Pick<ModelPricing, 'model' | 'contextWindow'>): void {
    const window = pricing.contextWindow;
    if (window === undefined) return;
    for (const maxTokens of sent) if (leavesNoRoom(window, maxTokens)) this.names.add(noRoomNote(pricing.model, window, maxTokens));
  }

  /** Notes another collector found (its `models()`: a worker thread's, a file's). */
  add(models: Iterable<string>): void {
    for (const model of models) this.names.add(model);
  }

  /** The notes as strings another collector's `add` takes: a windowless model's name, or a model with no room. */
  models(): string[] {
    return [...this.names].sort();
  }

  warnings(): ReportWarning[] {
    const notes = this.models();
    const noRoom = notes.filter((note) => note.includes(SEP));
    return [...windowlessModelWarnings(notes.filter((note) => !note.includes(SEP))), ...noRoomWindowWarnings(noRoom.map(noRoomOf))];
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

  /**
   * Of the configurations that price runs as their own model, so each run's own pricing counts: `own`, the
   * max_tokens of those that take the window; `sent`, the max_tokens of all of them (for synthetic runs).
   * `configs`: every configuration, for the synthetic runs of those that price runs as a model.
   */
  private constructor(
    private readonly own: readonly number[],
    private readonly sent: readonly number[],
    private readonly configs: readonly Pick<PopulationConfig, 'brakes' | 'model'>[],
    private readonly prices: PriceTable,
  ) {}

  /** Over `configs`: their own models noted now, each run's as it is added. */
  static of(configs: readonly Pick<PopulationConfig, 'brakes' | 'model'>[], prices: PriceTable): PopulationWindows {
    const ownBrakes = configs.filter((config) => config.model === undefined).map((config) => config.brakes);
    const windows = new PopulationWindows(modelWindowMaxTokens(ownBrakes), sentMaxTokens(ownBrakes), configs, prices);
    for (const config of configs) {
      if (config.model !== undefined) windows.notes.note(modelWindowMaxTokens([config.brakes]), prices.resolve(config.model));
    }
    return windows;
  }

  /** Over the same configurations, with no runs yet: some runs kept apart (a file's, added back once it reads cleanly). */
  apart(): PopulationWindows {
    return new PopulationWindows(this.own, this.sent, this.configs, this.prices);
  }

  /** A recorded run, priced as its trace's model. */
  addTrace(trace: Trace): void {
    if (this.own.length > 0) this.notes.note(this.own, tracePricing(trace, { prices: this.prices }));
  }

  /** A scenario file's synthetic runs, priced as the file's model (or a configuration's), under every configuration's max_tokens. */
  addScenario(scenario: Scenario): void {
    const pricing = resolveScenarioPricing(scenario, this.prices);
    if (this.own.length > 0) this.notes.note(this.own, pricing);
    this.notes.noteSynthetic(this.sent, pricing);
    for (const config of this.configs) {
      if (config.model !== undefined) this.notes.noteSynthetic(sentMaxTokens([config.brakes]), this.prices.resolve(config.model));
    }
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
