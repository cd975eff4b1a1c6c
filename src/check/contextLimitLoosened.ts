/**
 * The context-window brake and the max_tokens sent, judged against a baseline by the rule brakesLoosened.ts
 * judges every limit by: a limit compared as a number, any raise a loosening. `context-window=N` is the
 * largest prompt allowed; `context-window=model` is the model's window less the max_tokens sent
 * (kernel/limits.ts promptAllowedTokens), a number too once the runs' models are known — so `8000 → model`
 * raises the limit to 123,904 on gpt-4o, and under `model` a max-output-tokens lowered raises it too (both
 * were not compared: brakesLoosened.ts reads `model` as no number). Under `budget-mode=predict` the bound
 * prices every call's output at the max_tokens sent: a lower one lets dearer calls through.
 * The baseline's side of `model` is judged at the windows it stored of the models its runs were priced at
 * (`contextWindowTokens`): a model the baseline ran is judged against its own limit there, one switched to
 * since (gpt-4o → gpt-4.1, 128k → 1M) against the largest prompt the baseline allowed on any of its models,
 * so a switch to a larger window is a loosening and one to a smaller window is not. A baseline written before it held them is judged at the windows of the models run
 * now, as before, and a model switch there goes unjudged (said in one line: modelSwitchLines).
 * A max-output-tokens raised loosens neither (it tightens both); what it adds to each call's cost is a figure
 * (the worst case per run: worstCaseDrift.ts). Two numbers (`8000 → 9000`) are brakesLoosened.ts's own.
 */
import { maxOutputTokensSent, NO_BRAKES } from '../brakes/config.js';
import { brakeLimits, Limit } from '../kernel/limits.js';
import type { Drift } from './baseline.js';
import type { BaselineScenario } from './baselineFile.js';
import { flagMap, modelsChanged } from './settingChanges.js';
import { scenariosNamed } from './gateCounts.js';
import { shellWord } from '../report/settings.js';

type Parts = ReadonlyMap<string, string>;

/** A model's context window in tokens; undefined when the price table knows none (the brake then allows any prompt: kernel/limits.ts). */
export type WindowOf = (model: string) => number | undefined;

const WINDOW = 'context-window';
/** The max_tokens sent, as the brakes' parts name it. */
export const MAX_OUTPUT = 'max-output-tokens';

/** The max_tokens the calls send under `parts` (brakes/config.ts maxOutputTokensSent: the default when not given). */
const maxOutputOf = (parts: Parts): number => maxOutputTokensSent(parts.has(MAX_OUTPUT) ? { maxOutputTokens: Number(parts.get(MAX_OUTPUT)) } : {});

/** The largest prompt `context-window` allows on a model of window `windowTokens` (Infinity: unknown), as the engines' brake reads it (kernel/limits.ts brakeLimits). */
function promptLimit(parts: Parts, windowTokens: number): number {
  const value = parts.get(WINDOW)!;
  const contextWindow = value === 'model' ? ('model' as const) : Number(value);
  return brakeLimits({ ...NO_BRAKES, contextWindow, maxOutputTokens: maxOutputOf(parts) }, windowTokens)[Limit.ContextWindow]!;
}

/** `8000`, or `model (gpt-4o: 123904)`: the brake as given, its number on each model where it is the model's. */
function limitWords(parts: Parts, limits: readonly [string, number][]): string {
  const value = parts.get(WINDOW)!;
  if (value !== 'model') return value;
  return `model (${limits.map(([model, tokens]) => `${model}: ${Number.isFinite(tokens) ? tokens : 'no known window, no limit'}`).join(', ')})`;
}

/** The models runs were priced at, and each one's window: now (the price table's), or as a baseline stored them. */
export interface PricedWindows {
  models: readonly string[];
  windowOf: WindowOf;
}

/** What `context-window` is judged on: the models now, and the baseline's as it stored them (absent: a baseline written before, judged at now's). */
export interface WindowJudging extends PricedWindows {
  baseline?: PricedWindows;
}

/** The windows a baseline scenario stored with its models (absent in one written before they were stored). */
export function storedWindows(before: { models?: readonly string[]; contextWindowTokens?: Readonly<Record<string, number>> }): { baseline?: PricedWindows } {
  const { models, contextWindowTokens: tokens } = before;
  return models === undefined || tokens === undefined ? {} : { baseline: { models, windowOf: (model) => tokens[model] } };
}

/**
 * The baseline's limit against which `model` (one run now) is judged, and the model it was drawn from: a number
 * as given; under `model`, that model's own at the window the baseline stored, else (switched to since) the
 * largest of the baseline's models; with no stored windows, at the window now.
 */
function baselineLimit(was: Parts, model: string, on: WindowJudging): [string, number] {
  const before = on.baseline;
  if (was.get(WINDOW) !== 'model' || before === undefined || before.models.length === 0) return [model, promptLimit(was, on.windowOf(model) ?? Infinity)];
  if (before.models.includes(model)) return [model, promptLimit(was, before.windowOf(model) ?? Infinity)];
  const limits = before.models.map((from): [string, number] => [from, promptLimit(was, before.windowOf(from) ?? Infinity)]);
  return limits.reduce((most, limit) => (limit[1] > most[1] ? limit : most));
}

/** `context-window` raised on a model the runs are priced at now, where either side is `model` (on both, by the max_tokens sent or the model's window). */
function windowLoosened(was: Parts, is: Parts, on: WindowJudging): [string, string, string][] {
  const [before, after] = [was.get(WINDOW), is.get(WINDOW)];
  if (before === undefined || after === undefined || (before !== 'model' && after !== 'model')) return [];
  const raised = on.models.flatMap((model): [[string, number], [string, number]][] => {
    const then = baselineLimit(was, model, on);
    const now = promptLimit(is, on.windowOf(model) ?? Infinity);
    return now > then[1] ? [[then, [model, now]]] : [];
  });
  if (raised.length === 0) return [];
  const thenLimits = [...new Map(raised.map(([then]) => then)).entries()];
  return [[WINDOW, limitWords(was, thenLimits), limitWords(is, raised.map(([, now]) => now))]];
}

/** Whether the brakes hold a predictive budget: a bound that prices each call's output at the max_tokens sent. */
const predicts = (parts: Parts): boolean => parts.has('max-cost') && parts.get('budget-mode') === 'predict';

/** The max_tokens sent in the baseline and now, and whether it holds less: lowered under a predictive budget on both sides (its bound prices each call's output at it). */
function judgedMaxOutput(was: Parts, is: Parts): { part: [string, string, string]; looser: boolean } {
  const looser = predicts(was) && predicts(is) && maxOutputOf(is) < maxOutputOf(was);
  return { part: [MAX_OUTPUT, `${maxOutputOf(was)}`, `${maxOutputOf(is)}`], looser };
}

/** Under a predictive budget on both sides, the max_tokens its bound prices each call's output at, lowered. */
function predictLoosened(was: Parts, is: Parts): [string, string, string][] {
  const judged = judgedMaxOutput(was, is);
  return judged.looser ? [judged.part] : [];
}

/**
 * The max_tokens sent where the baseline gave it (`max-output-tokens`) or its predictive budget priced each
 * call's output at it (given or not: the default, 4096, is what predictLoosened judges a lowering against),
 * and it holds as much now (by the rule predictLoosened fails it by), as [brake, baseline, now]: the passing
 * JUnit testcase of the name a loosening fails under, there whether it holds or not.
 */
export function maxOutputHeld(was: Parts, is: Parts): [string, string, string][] {
  if (!was.has(MAX_OUTPUT) && !predicts(was)) return [];
  const judged = judgedMaxOutput(was, is);
  return judged.looser ? [] : [judged.part];
}

/**
 * The context-window brake and the predictive budget holding less through `context-window=model` or the
 * max_tokens sent, as [brake, baseline, now] (brakesLoosened.ts's parts): `was` and `is` the brakes' parts,
 * `on.models` those the runs are priced at now, each judged at its window now, against the baseline's limit
 * on it (baselineLimit).
 */
export function contextLimitsLoosened(was: Parts, is: Parts, on: WindowJudging): [string, string, string][] {
  return [...windowLoosened(was, is, on), ...predictLoosened(was, is)];
}

/** A scenario whose model switch under `context-window=model` went unjudged; `modelsUnknown`: whether its models changed is not known. */
export interface UnjudgedSwitch {
  scenario: string;
  modelsUnknown: boolean;
}

/** The scenario checked and the models its runs were priced at: in the baseline as baseline.ts reads them (its own list, else the baseline's one model; undefined when it cannot tell), and now. */
export interface ScenarioModels {
  scenario: string;
  baseline: readonly string[] | undefined;
  now: readonly string[];
}

/**
 * The scenario, when a baseline scenario written before baselines stored windows (no `contextWindowTokens`)
 * had `context-window=model` and its runs were priced at other models than now's (settingChanges.ts
 * modelsChanged, as the drift's `model` row says it), or at models the baseline cannot tell (said so: a
 * switch may or may not have been): its limit is judged at now's windows, so a switch to a model of a larger
 * window cannot be told. Undefined otherwise.
 */
export function modelSwitchUnjudged(before: Pick<BaselineScenario, 'settings' | 'contextWindowTokens'>, models: ScenarioModels): UnjudgedSwitch | undefined {
  if (before.contextWindowTokens !== undefined || before.settings.brakes === undefined) return undefined;
  if (flagMap(before.settings.brakes).get(WINDOW) !== 'model') return undefined;
  if (models.baseline === undefined) return { scenario: models.scenario, modelsUnknown: true };
  return modelsChanged(models.baseline, models.now) ? { scenario: models.scenario, modelsUnknown: false } : undefined;
}

/** The drift's fields of the scenarios whose model switch went unjudged (absent when none is). */
export function modelSwitchFields(unjudged: readonly UnjudgedSwitch[]): Pick<Drift, 'modelSwitchNotJudged' | 'modelsUnknown'> {
  const unknown = unjudged.filter((one) => one.modelsUnknown).map((one) => one.scenario);
  return {
    ...(unjudged.length === 0 ? {} : { modelSwitchNotJudged: unjudged.map((one) => one.scenario) }),
    ...(unknown.length === 0 ? {} : { modelsUnknown: unknown }),
  };
}

/**
 * `model switch not judged: 1 scenario (x.yaml): …`: once, the scenarios whose model switch under
 * `context-window=model` went unjudged, those whose models changed and those whose baseline cannot tell its
 * models each in their own words (none when the check wrote the baseline again).
 */
export function modelSwitchLines(drift: Pick<Drift, 'file' | 'accepted' | 'modelSwitchNotJudged' | 'modelsUnknown'>): string[] {
  const scenarios = drift.modelSwitchNotJudged ?? [];
  if (scenarios.length === 0 || drift.accepted !== undefined) return [];
  const unknown = new Set(drift.modelsUnknown ?? []);
  const changed = scenarios.filter((scenario) => !unknown.has(scenario));
  const untold = scenarios.filter((scenario) => unknown.has(scenario));
  const judged = `the limit was judged at the windows of the models run now; write the baseline again with --update-baseline ${shellWord(drift.file)} to judge a model switch`;
  return [
    ...(changed.length === 0 ? [] : [`model switch not judged: ${scenariosNamed(changed)}: its models changed under context-window=model, and the baseline holds no context windows (written before baselines held them): ${judged}`]),
    ...(untold.length === 0 ? [] : [`model switch not judged: ${scenariosNamed(untold)}: the baseline cannot tell which models its runs were priced at (it names none for the scenario, and it priced several models or none, or the scenario had no runs), so whether they changed under context-window=model could not be told, and it holds no context windows (written before baselines held them): ${judged}`]),
  ];
}
