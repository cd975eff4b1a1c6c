/**
 * The brakes a scenario's baseline had that are off now: the question a CI gate answers is "did this change
 * break our brakes", and a budget or a timeout dropped from `brakes:` may move no figure of the runs at
 * hand (no run reached it) while the next run that would have is now unbounded. Each is a failure, named,
 * until the baseline is written again. A brake is a limit that stops a run (its `-mode` or action is no
 * brake of its own); under `check --tree` the per-agent limits too.
 */
import { storedSettings, type BaselineScenario } from './baselineFile.js';
import type { ScenarioCheck } from './run.js';
import { flagParts } from './settingChanges.js';
import type { Drift } from './baseline.js';
import { acceptText } from './gateCounts.js';

/**
 * The limits that stop a run, as the settings' brakes text names them (report/settings.ts brakeParts), and
 * the per-agent limits as `subagent` names them (subagentLimitsSpec).
 */
export const BRAKE_NAMES: ReadonlySet<string> = new Set(['max-steps', 'max-cost', 'timeout', 'max-repeat', 'max-same-error', 'max-tokens', 'max-backtracks', 'context-window', 'subagent-max-steps', 'subagent-max-cost']);

/** The settings that hold brakes, and how the report names them. */
export const BRAKE_SETTINGS: readonly [key: string, named: string][] = [
  ['brakes', 'brakes'],
  ['subagent', 'per-agent limits'],
];

export interface BrakeRemoved {
  /** The scenario file as checked (as the drift rows name it). */
  scenario: string;
  /** `brakes`, or `per-agent limits` (check --tree). */
  setting: string;
  /** `max-cost` */
  brake: string;
  /** Its value in the baseline (`0.1`). */
  baseline: string;
}

/** A mode, the repeat action or the skips it allows that the baseline had beside a brake now removed (`repeat-mode` of `max-repeat`: brakesLoosened.ts). */
export interface BrakeRemovedWith extends BrakeRemoved {
  /** The brake removed (`max-repeat`). */
  removedWith: string;
}

/** The brakes of `before` (the baseline's scenario) that `check` runs without. */
export function brakesRemoved(before: BaselineScenario, check: ScenarioCheck): BrakeRemoved[] {
  const now = storedSettings(check);
  return BRAKE_SETTINGS.flatMap(([key, setting]) => {
    const was = before.settings[key] === undefined ? undefined : flagParts(before.settings[key]);
    const is = now[key] === undefined ? [] : flagParts(now[key]);
    if (was === undefined || is === undefined) return [];
    const kept = new Set(is.map(([name]) => name));
    return was.filter(([name]) => BRAKE_NAMES.has(name) && !kept.has(name)).map(([brake, value]) => ({ scenario: check.source, setting, brake, baseline: value }));
  });
}

/** How the report and JUnit name a brake removed or loosened: `max-cost`, or under check --tree `per-agent limits subagent-max-steps`. */
export function brakeLabel(brake: Pick<BrakeRemoved, 'setting' | 'brake'>): string {
  return `${brake.setting === 'brakes' ? '' : `${brake.setting} `}${brake.brake}`;
}

/** `max-cost (0.1 in the baseline), timeout (120 in the baseline)`, and `per-agent limits max-steps (…)`. */
export function removedText(removed: readonly BrakeRemoved[]): string {
  return removed.map((r) => `${brakeLabel(r)} (${r.baseline} in the baseline)`).join(', ');
}

/** `repeat-mode (total in the baseline), removed with max-repeat`. */
export function removedWithText(removed: BrakeRemovedWith): string {
  return `${removedText([removed])}, removed with ${removed.removedWith}`;
}

/** What brakes removed mean and what to do, as the report's line and each JUnit failure of them say it: `a brake the baseline had is off (a failure: …); if intended, accept it: …`. */
export function removedSays(drift: Pick<Drift, 'file' | 'accepted'>, removed: readonly BrakeRemoved[]): string {
  const one = removed.length === 1;
  return `${one ? 'a brake the baseline had is off' : 'brakes the baseline had are off'} (a failure: the runs at hand may not reach ${one ? 'it' : 'them'}, the next one may); ${acceptText(drift)}`;
}
