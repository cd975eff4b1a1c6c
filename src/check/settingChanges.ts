/**
 * What changed between a baseline's scenario and the same scenario checked now, besides its figures: the
 * settings the baseline stored (brakes and latency part by part, context, tool-result cap, cache, the
 * model runs were re-priced as), the models its runs were priced at, its run counts and seed, its synthetic
 * agents (the scenario file's sizes and population: agentChanges.ts), the expectations it holds. A drift is
 * said with these: why a figure moved, not only that it did.
 */
import { limitChanges } from './expectationLimits.js';
import { storedSettings, type BaselineScenario } from './baselineFile.js';
import type { ScenarioCheck } from './run.js';
import { modePart } from '../flags/modeBrakes.js';
import { agentChanges } from './agentChanges.js';
import { scenarioAgents } from './pairedAgents.js';

export interface SettingChange {
  /** `brakes`, `context`, `model`, `synthetic runs`… */
  setting: string;
  baseline: string;
  now: string;
  /** `max-repeat 3 → 10` (a list of `name=value` parts, part by part), else `baseline → now`. */
  change: string;
}

/** A scenario's changes since the baseline; `changes` empty: none of these changed, yet a figure drifted. */
export interface ScenarioChanges {
  /** The scenario file as checked (as the drift rows name it). */
  scenario: string;
  changes: SettingChange[];
}

const NONE = 'none';

/** The settings a baseline stores (ReportSettings), in the settings line's order, each as the report names it. */
const SETTING_NAMES: Record<string, string> = { brakes: 'brakes', context: 'context', toolResultCap: 'tool-result-cap', cache: 'cache', latency: 'latency', model: 're-priced as', subagent: 'per-agent limits' };

/** `max-steps=12,max-repeat=3` → its parts; undefined for a text that is not such a list (`as recorded`). */
export function flagParts(text: string): (readonly [string, string])[] | undefined {
  if (text === NONE) return [];
  const parts = text.split(',').map((part) => {
    const at = part.indexOf('=');
    return at > 0 ? ([part.slice(0, at), part.slice(at + 1)] as const) : undefined;
  });
  return parts.every((part) => part !== undefined) ? (parts as (readonly [string, string])[]) : undefined;
}

/** A settings text's parts by name (flagParts); empty for none, an absent text or one that is not such a list. */
export function flagMap(text: string | undefined): Map<string, string> {
  return new Map(text === undefined ? [] : (flagParts(text) ?? []));
}

const ACTION = modePart('repeatAction');
/**
 * A part a list leaves out, as it acts: `repeat-action` not given is its unset value, `stop` (a repeated
 * action stops the run: flags/modeBrakes.ts), any other part `none` (the other modes are written beside
 * their brake whenever it is on: report/settings.ts).
 */
const PART_DEFAULTS: Readonly<Record<string, string>> = { [ACTION.name]: ACTION.unset };

/** `max-repeat 3 → 10, max-steps none → 40, repeat-action stop → skip`: the parts that differ, the baseline's order first. */
function partChanges(was: readonly (readonly [string, string])[], is: readonly (readonly [string, string])[]): string {
  const before = new Map(was);
  const after = new Map(is);
  const names = [...before.keys(), ...[...after.keys()].filter((name) => !before.has(name))];
  const value = (part: Map<string, string>, name: string) => part.get(name) ?? PART_DEFAULTS[name] ?? NONE;
  return names
    .filter((name) => value(before, name) !== value(after, name))
    .map((name) => `${name} ${value(before, name)} → ${value(after, name)}`)
    .join(', ');
}

function settingChange(setting: string, was: string, is: string): SettingChange[] {
  if (was === is) return [];
  const [before, after] = [flagParts(was), flagParts(is)];
  const change = before !== undefined && after !== undefined ? partChanges(before, after) : `${was} → ${is}`;
  return change === '' ? [] : [{ setting, baseline: was, now: is, change }];
}

function settingsChanges(was: Readonly<Record<string, string>>, is: Readonly<Record<string, string | undefined>>): SettingChange[] {
  const keys = [...Object.keys(SETTING_NAMES), ...[...Object.keys(was), ...Object.keys(is)].filter((key) => !(key in SETTING_NAMES))];
  return [...new Set(keys)].flatMap((key) => settingChange(SETTING_NAMES[key] ?? key, was[key] ?? NONE, is[key] ?? NONE));
}

/** Run counts: synthetic and recorded apart when the baseline stored them, else the total. */
function runChanges(before: BaselineScenario, check: ScenarioCheck): SettingChange[] {
  if (before.syntheticRuns === undefined || before.recordedRuns === undefined) return settingChange('runs', `${before.figures.runs}`, `${check.metrics.runs}`);
  return [
    ...settingChange('synthetic runs', `${before.syntheticRuns}`, `${check.syntheticRuns}`),
    ...settingChange('recorded runs', `${before.recordedRuns}`, `${check.recordedRuns}`),
    ...(before.seed === undefined || check.seed === undefined ? [] : settingChange('seed', `${before.seed}`, `${check.seed}`)),
  ];
}

/**
 * The expectations the scenario had when the baseline was written (its `expectations` keys) and has now
 * (its `expect:` block), by name: `expect: runs.costUsd added, population.wastedShare removed`, and a
 * bound changed in place when the baseline stores limits (expectationLimits.ts): `… max 0.02 → 5 (loosened)`.
 */
function expectationChanges(before: BaselineScenario, check: ScenarioCheck): SettingChange[] {
  const was = Object.keys(before.expectations);
  const is = check.results.map((result) => result.expectation);
  const parts = [...is.filter((name) => !was.includes(name)).map((name) => `${name} added`), ...was.filter((name) => !is.includes(name)).map((name) => `${name} removed`), ...limitChanges(before.limits, check.results)];
  return parts.length === 0 ? [] : [{ setting: 'expect', baseline: was.join(', ') || NONE, now: is.join(', ') || NONE, change: parts.join(', ') }];
}

/**
 * Whether the models runs were priced at changed: the lists (each sorted, as a check and a baseline hold
 * them) differ. The one rule: the drift's `model` row and the model switch under `context-window=model`
 * (contextLimitLoosened.ts modelSwitchUnjudged) both read it.
 */
export function modelsChanged(before: readonly string[], now: readonly string[]): boolean {
  return before.join(', ') !== now.join(', ');
}

/**
 * What changed in one scenario since the baseline. `baselineModels`: the models its runs were priced at
 * when the baseline wrote it (its own list, else the one model a baseline priced every scenario at),
 * undefined when the baseline cannot tell.
 */
export function scenarioChanges(before: BaselineScenario, check: ScenarioCheck, baselineModels: readonly string[] | undefined): SettingChange[] {
  const models = baselineModels === undefined || !modelsChanged(baselineModels, check.models) ? [] : settingChange('model', baselineModels.join(', ') || NONE, check.models.join(', ') || NONE);
  // The scenario file's agents (sizes, population), a model change named once: by the models row when it says one.
  const agents = agentChanges(before.agents, scenarioAgents(check), models.length > 0 ? ['model'] : []);
  return [...settingsChanges(before.settings, storedSettings(check)), ...models, ...runChanges(before, check), ...agents, ...expectationChanges(before, check)];
}

/** `brakes: max-repeat 3 → 10; model: gpt-4o-mini → gpt-4.1-mini`. */
export function changesText(changes: readonly SettingChange[]): string {
  return changes.map((c) => `${c.setting}: ${c.change}`).join('; ');
}
