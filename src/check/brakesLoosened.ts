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
import { BRAKE_NAMES, BRAKE_SETTINGS, brakeLabel, type BrakeRemovedWith } from './brakesRemoved.js';
import { modePart, type ModeBrake } from '../flags/modeBrakes.js';
import { counted } from '../plural.js';
import { acceptText, scenarioLines } from './gateCounts.js';
import { contextLimitsLoosened, MAX_OUTPUT, maxOutputHeld, storedWindows } from './contextLimitLoosened.js';

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

/** A part of the brakes against the baseline's: its name, its value in the baseline and now. */
type Part = [brake: string, baseline: string, now: string];

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

function raisedLimits(was: Parts, is: Parts): Part[] {
  return [...was].flatMap(([name, value]): Part[] => {
    const [before, after] = [limitValue(value), limitValue(is.get(name))];
    return LIMITS.has(name) && before !== undefined && after !== undefined && after > before ? [[name, value, is.get(name)!]] : [];
  });
}

/** Whether a mode of `brake` is compared: the brake on both sides, or off on both with each run's recorded one (`preset=recorded`). */
function governs(brake: string, was: Parts, is: Parts): boolean {
  if (was.has(brake) && is.has(brake)) return true;
  return !was.has(brake) && !is.has(brake) && was.has('preset') && is.has('preset');
}

/** A part of the brakes compared with the baseline's, and whether it holds less now. */
type Judged = [...Part, looser: boolean];

/** Each mode compared (its brake governs it), a mode left out read as its unset value. */
function judgedModes(was: Parts, is: Parts): Judged[] {
  return MODES.flatMap((mode): Judged[] => {
    const [before, after] = [was.get(mode.name) ?? mode.unset, is.get(mode.name) ?? mode.unset];
    return governs(mode.brake, was, is) ? [[mode.name, before, after, mode.looser(before, after)]] : [];
  });
}

/** The repeat action compared (looser: `stop → skip`), and under `skip` on both sides the skips allowed (looser: raised or no longer limited, `max-skips 2 → none`). */
function judgedAction(was: Parts, is: Parts): Judged[] {
  if (!governs(ACTION.brake, was, is)) return [];
  const action = (parts: Parts) => parts.get(ACTION.name) ?? ACTION.unset;
  const judged: Judged = [ACTION.name, action(was), action(is), action(was) === 'stop' && action(is) === 'skip'];
  const [before, after] = [was.get('max-skips'), is.get('max-skips')];
  if (action(was) !== 'skip' || before === undefined) return [judged];
  // Back to `stop`: no action is skipped at all, tighter than any number of skips (its testcase passes, not vanishes).
  if (action(is) !== 'skip') return [judged, ['max-skips', before, `none (repeat-action ${action(is)})`, false]];
  return [judged, ['max-skips', before, after ?? 'none', after === undefined || Number(after) > Number(before)]];
}

/**
 * The modes, the repeat action and the skips it allows that the baseline had beside a limit off now (a mode
 * left out: its unset value, as judgedModes reads it), as [name, baseline, the limit removed]: they passed
 * while their limit held, and fail with it (`removed with max-repeat`).
 */
function removedWithLimit(was: Parts, is: Parts): [name: string, baseline: string, limit: string][] {
  return [...MODES, ACTION].flatMap((mode): [string, string, string][] => {
    if (!was.has(mode.brake) || is.has(mode.brake)) return [];
    const value = was.get(mode.name) ?? mode.unset;
    const skips = mode === ACTION && value === 'skip' && was.has('max-skips') ? [['max-skips', was.get('max-skips')!, mode.brake] as [string, string, string]] : [];
    return [[mode.name, value, mode.brake], ...skips];
  });
}

/** The brakes of a scenario (or of one setting: `brakes`, `per-agent limits`) compared with the baseline's, by judgeBrakes. */
export interface Judgement {
  loosened: BrakeLoosened[];
  held: BrakeHeld[];
  removedWith: BrakeRemovedWith[];
}

/**
 * The brakes of `before` (the baseline's scenario) that `check` runs with, compared: those holding less than
 * they did (`loosened`), and the others (`held`: the same or tighter) — each limit on both sides (one off now
 * is a brake removed: brakesRemoved.ts), each mode and the repeat action beside their brake, the max_tokens
 * sent where the baseline gave it — and the modes of a limit removed (`removedWith`).
 */
export function judgeBrakes(before: BaselineScenario, check: ScenarioCheck): Judgement {
  const now = storedSettings(check);
  const judged = BRAKE_SETTINGS.map(([key, setting]): Judgement => {
    const was = before.settings[key] === undefined ? undefined : flagParts(before.settings[key]);
    const is = now[key] === undefined ? undefined : flagParts(now[key]);
    if (was === undefined) return { loosened: [], held: [], removedWith: [] };
    const [a, b] = [new Map(was), new Map(is ?? [])];
    const removedWith = removedWithLimit(a, b).map(([brake, baseline, limit]) => ({ scenario: check.source, setting, brake, baseline, removedWith: limit }));
    if (is === undefined) return { loosened: [], held: [], removedWith };
    // `context-window=model` on the models run now at their windows, against the baseline's at the windows it stored.
    const windows = key === 'brakes' ? contextLimitsLoosened(a, b, { models: check.models, windowOf: (model) => check.contextWindows?.[model], ...storedWindows(before) }) : [];
    const modes = [...judgedModes(a, b), ...judgedAction(a, b)];
    const loosened = [...raisedLimits(a, b), ...windows, ...modes.filter(([, , , looser]) => looser)];
    const named = new Set(loosened.map(([brake]) => brake));
    const limits = [...a].filter(([name]) => LIMITS.has(name) && b.has(name)).map(([name, value]): Part => [name, value, b.get(name)!]);
    const held = [...limits, ...modes, ...(key === 'brakes' ? maxOutputHeld(a, b) : [])].filter(([brake]) => !named.has(brake));
    const entry = ([brake, baseline, value]: Part | Judged) => ({ scenario: check.source, setting, brake, baseline, now: value });
    return { loosened: loosened.map(entry), held: held.map(entry), removedWith };
  });
  return { loosened: judged.flatMap((one) => one.loosened), held: judged.flatMap((one) => one.held), removedWith: judged.flatMap((one) => one.removedWith) };
}

/**
 * A brake the baseline had that holds as much now (the same value, or tighter): a limit on both sides, or a
 * mode or the repeat action beside its brake (left out: its unset value); what a JUnit testcase passes on.
 */
export type BrakeHeld = BrakeLoosened;

/** The drift's brakes held: every brake compared that is neither removed nor loosened (judgeBrakes `held`); and the modes of a brake removed. */
export interface BrakesHeldDrift {
  /** The brakes the baseline had that hold as much now, the same or tighter (brakesLoosened.ts): a passing JUnit testcase each. Absent when none is. */
  brakesHeld?: BrakeHeld[];
  /** The modes, repeat action and skips the baseline had beside a brake removed (`repeat-mode` of `max-repeat`): a failing JUnit testcase each, of the name it passed under. Absent when none is. */
  removedWithBrake?: BrakeRemovedWith[];
}

/** The drift's fields of the brakes held and the modes removed with a brake (judgeBrakes, gathered over the scenarios matched to the baseline); each absent when none is. */
export function brakesHeldField({ held, removedWith }: Pick<Judgement, 'held' | 'removedWith'>): BrakesHeldDrift {
  return { ...(held.length === 0 ? {} : { brakesHeld: held }), ...(removedWith.length === 0 ? {} : { removedWithBrake: removedWith }) };
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

/**
 * A brake held, as its passing JUnit testcase says it: `held: max-repeat 3, as in the baseline`, `tightened:
 * max-repeat 5 → 3` (`not looser on the models run now: context-window 8000 → model`; the max_tokens sent
 * lowered: `not looser with no predictive budget on both sides: max-output-tokens 4096 → 1000`).
 */
export function heldText(held: BrakeHeld): string {
  if (held.baseline === held.now) return `held: ${brakeLabel(held)} ${held.now}, as in the baseline`;
  const outputLowered = held.brake === MAX_OUTPUT && Number(held.now) < Number(held.baseline);
  const verdict = held.baseline === 'model' || held.now === 'model' ? 'not looser on the models run now' : outputLowered ? 'not looser with no predictive budget on both sides' : 'tightened';
  return `${verdict}: ${brakeLabel(held)} ${held.baseline} → ${held.now}`;
}

/** `, 2 brakes loosened` for the verdict line; empty when none is. */
export function loosenedVerdict(drift: Drift | undefined): string {
  const n = drift?.brakesLoosened?.length ?? 0;
  return n === 0 ? '' : `, ${counted(n, 'brake')} loosened`;
}
