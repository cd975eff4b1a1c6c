/**
 * The brakes a scenario's baseline had that hold less now, though still on: a limit raised (`max-repeat
 * 3 → 1000000`), or a mode or action that stops later or never (`repeat-mode total → consecutive`,
 * `repeat-action stop → skip`, `max-skips 2 → none`, `budget-mode predict → check`, `same-error-mode
 * total → consecutive`); under `check --tree` the per-agent limits too. Like a brake removed
 * (brakesRemoved.ts), each fails the check, named with its value in the baseline and now, until the
 * brake is tightened back or the baseline written again.
 *
 * Any raise fails, not only one past the tolerance: a brake's value is a setting, not a figure sampled
 * from runs, so there is no noise to allow for; and most limits (max-repeat, max-same-error,
 * max-backtracks, timeout) bound nothing the worst case per run holds (worstCaseDrift.ts), so a raise
 * to a million moves no figure the gate compares when no run at hand reaches the old limit. A limit
 * lowered, or a mode that stops earlier, is tighter: no failure (its figures say what it did).
 */
import { storedSettings, type BaselineScenario } from './baselineFile.js';
import type { Drift } from './baseline.js';
import type { ScenarioCheck } from './run.js';
import { flagParts } from './settingChanges.js';
import { BRAKE_NAMES, BRAKE_SETTINGS, brakeLabel } from './brakesRemoved.js';
import { modePart, type ModeBrake } from '../flags/modeBrakes.js';
import { counted } from '../plural.js';
import { acceptText, scenarioLines } from './gateCounts.js';
import { contextLimitsLoosened, storedWindows } from './contextLimitLoosened.js';

export interface BrakeLoosened {
  /** The scenario file as checked (as the drift rows name it). */
  scenario: string;
  /** `brakes`, or `per-agent limits` (check --tree). */
  setting: string;
  /** `max-repeat`, `repeat-mode`, `repeat-action`, `max-skips`… */
  brake: string;
  /** Its value in the baseline (`3`; `stop` for a repeat action not given, `none` for max-skips not given). */
  baseline: string;
  /** Its value now (`1000000`). */
  now: string;
}

type Parts = ReadonlyMap<string, string>;

/** The limits whose raise lets a run go further, those a removal is judged of: a number each (`context-window=model`, and the max_tokens sent: contextLimitLoosened.ts). */
const LIMITS = BRAKE_NAMES;

type Looser = (was: string, is: string) => boolean;

/**
 * Whether going from `was` to `is` of a mode stops later or never (its name, brake and value when not
 * given: flags/modeBrakes.ts). A repeat counted `total` is counted at least as often as `consecutive` or in
 * a `cycle` (each of those misses what the other catches: AAAA, ABAB); a same error `total` at least as
 * often as `consecutive`; `predict` refuses the call `check` would pay for and stop after.
 */
const LOOSER: readonly (readonly [ModeBrake['mode'], Looser])[] = [
  ['budgetMode', (was, is) => was === 'predict' && is === 'check'],
  ['repeatMode', (was, is) => is !== 'total' && was !== is],
  ['sameErrorMode', (was, is) => was === 'total' && is === 'consecutive'],
];
const MODES = LOOSER.map(([mode, looser]) => ({ ...modePart(mode), looser }));
const ACTION = modePart('repeatAction');

/** A limit's value as a number (`0.5`, `120`); undefined for one that is not (`model`). */
function limitValue(text: string | undefined): number | undefined {
  if (text === undefined || !/^\d+(\.\d+)?$/.test(text)) return undefined;
  return Number(text);
}

function raisedLimits(was: Parts, is: Parts): [string, string, string][] {
  return [...was].flatMap(([name, value]): [string, string, string][] => {
    const [before, after] = [limitValue(value), limitValue(is.get(name))];
    return LIMITS.has(name) && before !== undefined && after !== undefined && after > before ? [[name, value, is.get(name)!]] : [];
  });
}

/** Whether a mode of `brake` is compared: the brake on both sides, or off on both with each run's recorded one (`preset=recorded`). */
function governs(brake: string, was: Parts, is: Parts): boolean {
  if (was.has(brake) && is.has(brake)) return true;
  return !was.has(brake) && !is.has(brake) && was.has('preset') && is.has('preset');
}

function loosenedModes(was: Parts, is: Parts): [string, string, string][] {
  return MODES.flatMap((mode): [string, string, string][] => {
    const [before, after] = [was.get(mode.name) ?? mode.unset, is.get(mode.name) ?? mode.unset];
    return governs(mode.brake, was, is) && mode.looser(before, after) ? [[mode.name, before, after]] : [];
  });
}

/** `repeat-action stop → skip`, or under `skip` on both sides, skips allowed raised or no longer limited (`max-skips 2 → none`). */
function loosenedAction(was: Parts, is: Parts): [string, string, string][] {
  if (!governs(ACTION.brake, was, is)) return [];
  const action = (parts: Parts) => parts.get(ACTION.name) ?? ACTION.unset;
  if (action(was) === 'stop') return action(is) === 'skip' ? [[ACTION.name, 'stop', 'skip']] : [];
  if (action(is) !== 'skip') return [];
  const [before, after] = [was.get('max-skips'), is.get('max-skips')];
  const raised = before !== undefined && (after === undefined || Number(after) > Number(before));
  return raised ? [['max-skips', before, after ?? 'none']] : [];
}

/** The brakes of `before` (the baseline's scenario) that `check` runs with, each holding less than it did. */
export function brakesLoosened(before: BaselineScenario, check: ScenarioCheck): BrakeLoosened[] {
  const now = storedSettings(check);
  return BRAKE_SETTINGS.flatMap(([key, setting]) => {
    const was = before.settings[key] === undefined ? undefined : flagParts(before.settings[key]);
    const is = now[key] === undefined ? undefined : flagParts(now[key]);
    if (was === undefined || is === undefined) return [];
    const [a, b] = [new Map(was), new Map(is)];
    // `context-window=model` on the models run now at their windows, against the baseline's at the windows it stored.
    const windows = key === 'brakes' ? contextLimitsLoosened(a, b, { models: check.models, windowOf: (model) => check.contextWindows?.[model], ...storedWindows(before) }) : [];
    return [...raisedLimits(a, b), ...windows, ...loosenedModes(a, b), ...loosenedAction(a, b)].map(([brake, baseline, value]) => ({ scenario: check.source, setting, brake, baseline, now: value }));
  });
}

/** `max-repeat 3 → 1000000, per-agent limits subagent-max-steps 2 → 5`. */
export function loosenedText(loosened: readonly BrakeLoosened[]): string {
  return loosened.map((l) => `${brakeLabel(l)} ${l.baseline} → ${l.now}`).join(', ');
}

/** `brakes loosened: support.yaml: max-repeat 3 → 1000000: …`, one line per scenario. */
export function brakesLoosenedLines(drift: Drift): string[] {
  return scenarioLines('brakes loosened', drift.brakesLoosened ?? [], { text: loosenedText, says: (own) => loosenedSays(drift, own) });
}

/** What brakes loosened mean and what to do, as the report's line and each JUnit failure of them say it: `a brake holds less than in the baseline (a failure: …); tighten it back, or …`. */
export function loosenedSays(drift: Pick<Drift, 'file' | 'accepted'>, loosened: readonly BrakeLoosened[]): string {
  const one = loosened.length === 1;
  return `${one ? 'a brake holds' : 'brakes hold'} less than in the baseline (a failure: the runs at hand may not reach the difference, the next one may); ${acceptText(drift, `tighten ${one ? 'it' : 'them'} back`)}`;
}

/** `, 2 brakes loosened` for the verdict line; empty when none is. */
export function loosenedVerdict(drift: Drift | undefined): string {
  const n = drift?.brakesLoosened?.length ?? 0;
  return n === 0 ? '' : `, ${counted(n, 'brake')} loosened`;
}
