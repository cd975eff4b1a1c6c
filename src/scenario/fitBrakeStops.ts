/**
 * Recorded runs a brake ended are right-censored: how far each would have gone past the brake is unknown.
 * A run stopped by a brake is one whose replay under its recorded brakes (`recordedSettings`, as `--preset
 * recorded` and what-if's baseline read them: replay/whatif.ts recordedBrakes) stops by a brake
 * (brakes/stopReasons.ts isBrakeStop). Its recorded length is the brake's, not its agent's: fitted as its
 * own (a step count drawn, ending there), the
 * profile's agents would stop by themselves at the old limit, and a sweep of looser limits would show them
 * stopping there still. `fit` keeps these runs in a group of their own that works on, its steps not drawn
 * (the hard cap), until a brake stops it — agents that had not finished by the limit — and the profile
 * carries the brakes they were recorded under, so that it stops where they did. Past the recorded limit the
 * profile's figures are those of agents that never finish by themselves: an upper bound these runs cannot
 * confirm, which the warning says (test/scenario/fitBrakeStops.test.ts). A run whose end says it ended at a
 * limit its recorded brakes do not reproduce (outcome `limit` or `timeout` on no failed call: an importer's
 * `LimitsExceeded` without the limits, `killed by operator`) cannot be stopped there by the profile: it is
 * fitted at its recorded length as before, and warned of. A generated run (header `synthetic`) that ended at
 * its scenario's hard cap is no brake's: its length is its generator's, which the profile keeps. Pure.
 */
import type { BrakeConfig } from '../brakes/config.js';
import { isBrakeStop } from '../brakes/stopReasons.js';
import { counted } from '../plural.js';
import type { ModelPricing, PriceTable } from '../pricing/types.js';
import { recordedBrakes } from '../replay/whatif.js';
import { brakeParts, trySyntax } from '../report/settings.js';
import type { ReportWarning } from '../report/warnings.js';
import { recordedEndDetail } from '../trace/endDetail.js';
import type { Trace } from '../trace/types.js';
import { tally } from './fitPooling.js';
import { replayAsRecorded } from './fitReplay.js';
import type { ScenarioFile } from './schema.js';

/** The group of runs a brake stopped. */
export const BRAKE_GROUP = 'unfinished: stopped by a brake';

/** The group of runs that ended unfinished on no failed call and no brake: cut off, or at a limit no recorded brake reproduces. */
export const CUT_OFF_GROUP = 'unfinished: cut off';

/** How a run a brake ended was stopped. */
export interface BrakeStop {
  /** The brake's stop reason (`max_steps`, `budget`, …); undefined: a limit its recorded brakes do not reproduce. */
  reason: string | undefined;
  /** The replay's words of the stop (`12 steps taken, limit 12`), or the recording's end status. */
  detail: string;
  /** The brakes it was recorded under, as a scenario file's `brakes:` section (with a reason). */
  brakes?: FileBrakes;
}

type FileBrakes = NonNullable<ScenarioFile['brakes']>;

/** A number as a scenario file's brakes write it (`12`, `0.5`); anything else (a mode, `model`) as it is. */
const fileValue = (value: string): string | number => (/^\d+(\.\d+)?$/.test(value) ? Number(value) : value);

/** `brakes` as a scenario file's `brakes:` section, in the order reports write them (report/settings.ts brakeParts); max_tokens sent is no brake. */
function fileBrakesOf(brakes: BrakeConfig): FileBrakes {
  const parts = brakeParts(brakes).filter(([name]) => name !== 'max-output-tokens');
  return Object.fromEntries(parts.map(([name, value]) => [name, fileValue(value)])) as FileBrakes;
}

/**
 * The brake that ended an unfinished run that did not end on a failed call, of `steps` steps as recorded
 * (undefined: none did; its agent or its recording stopped). A brake that stops its replay before its last
 * step (a budget under other prices than it was billed at) is not the one that ended it. `prices`: the table a
 * stated summary model's prices are read from (fitReplay.ts).
 */
export function brakeStopOf(trace: Trace, pricing: ModelPricing, recorded: { steps: number; prices?: PriceTable | undefined }): BrakeStop | undefined {
  const { steps } = recorded;
  const brakes = recordedBrakes(trace);
  const file = fileBrakesOf(brakes);
  if (Object.keys(file).length > 0) {
    const replayed = replayAsRecorded(trace, pricing, { brakes, prices: recorded.prices });
    if (isBrakeStop(replayed.stop.reason) && replayed.steps === steps) return { reason: replayed.stop.reason, detail: replayed.stop.detail, brakes: file };
  }
  const { outcome } = trace.end;
  const atLimit = (outcome === 'limit' || outcome === 'timeout') && trace.header.synthetic === undefined;
  return atLimit ? { reason: undefined, detail: recordedEndDetail(trace.end) } : undefined;
}

/** Whether a recorded brake stopped the run: the runs the profile's group of them holds. */
export const stoppedByBrake = (stop: BrakeStop | undefined): stop is BrakeStop & { brakes: FileBrakes } => stop?.reason !== undefined;

/** A scenario file's `brakes:` section in `--try` syntax (`max-steps=12,max-cost=0.5`). */
export const brakesText = (brakes: FileBrakes): string => trySyntax(Object.entries(brakes).map(([name, value]) => [name, String(value)] as const));

/**
 * The brakes the profile carries: those every run a recorded brake stopped was recorded under; undefined when
 * no recorded brake stopped one, or they were recorded under different brakes (the warning says so).
 */
export function profileBrakesOf(stops: readonly BrakeStop[]): FileBrakes | undefined {
  if (stops.length === 0 || new Set(stops.map((stop) => brakesText(stop.brakes!))).size > 1) return undefined;
  return stops[0]!.brakes;
}

/** `max_steps, limit 12: 6 runs`: each brake with the limits its runs were stopped at, and how many (`LimitsExceeded: 2 runs`: each end, for limits no brake states). */
function stoppedBy(stops: readonly BrakeStop[]): string {
  const limitOf = (stop: BrakeStop) => (stop.reason === undefined ? '' : `, ${/limit (.+)$/.exec(stop.detail)?.[0] ?? stop.detail}`);
  const named = (stop: BrakeStop) => stop.reason ?? stop.detail;
  return tally(stops.map(named))
    .map(([name, n]) => {
      const limits = [...new Set(stops.filter((stop) => named(stop) === name).map(limitOf))].sort();
      return `${name}${limits.join(' or')}: ${counted(n, 'run')}`;
    })
    .join('; ');
}

/** The profile's comment line of the group ('' when no brake stopped a run). */
export function brakeStopNote(stops: readonly BrakeStop[], capSteps: number): string {
  if (stops.length === 0) return '';
  return (
    `${counted(stops.length, 'run')} ${stops.length === 1 ? 'was' : 'were'} stopped by a brake (${stoppedBy(stops)}), not by ${stops.length === 1 ? 'its' : 'their'} agent: ` +
    `the group '${BRAKE_GROUP}' works on, its steps not drawn (steps: ${capSteps}, the hard cap), until a brake stops it (see the warning).`
  );
}

/**
 * The warning of runs a brake stopped: how many, which brake and limit, how they are fitted, the brakes the
 * profile carries, and that a looser limit than theirs is judged from an assumption, not from them.
 */
export function brakeStopWarnings(stops: readonly BrakeStop[], at: { runs: number; capSteps: number; brakes: FileBrakes | undefined }): ReportWarning[] {
  if (stops.length === 0) return [];
  const they = stops.length === 1 ? 'it' : 'they';
  const carried =
    at.brakes !== undefined
      ? `the profile carries the brakes ${they} ${stops.length === 1 ? 'was' : 'were'} recorded under (brakes: ${brakesText(at.brakes)}), so that it stops where ${they} did`
      : `the profile carries no brakes (${they} were recorded under different ones): without a brakes: section, or --max-steps, --max-cost, … when you run it, its group works on to the hard cap; give it the limits to judge`;
  return [
    {
      code: 'fit_brake_censored',
      message:
        `${stops.length} of ${counted(at.runs, 'recorded run')} ${stops.length === 1 ? 'was' : 'were'} stopped by a brake, not by ${stops.length === 1 ? 'its' : 'their'} agent (${stoppedBy(stops)}): ` +
        `how far ${they} would have gone past it is unknown (right-censored), so fit does not take the brake's stop for ${stops.length === 1 ? 'its' : 'their'} own length: ` +
        `the profile's group '${BRAKE_GROUP}' works on until a brake stops it (steps: ${at.capSteps}, the hard cap), and ${carried}; ` +
        `a replay or sweep of the profile under a looser limit than the one that stopped ${stops.length === 1 ? 'it' : 'them'} shows ${stops.length === 1 ? 'this run' : 'these runs'} as agents that never finish by themselves, an upper bound ${they} cannot confirm: ` +
        'judge a looser limit from runs recorded under it',
    },
  ];
}

/** Runs that ended at a limit their recorded brakes do not reproduce: fitted at their recorded lengths (cut off), which may be the limit's, not their agent's. */
export function unstatedLimitWarnings(stops: readonly BrakeStop[], runs: number): ReportWarning[] {
  if (stops.length === 0) return [];
  const one = stops.length === 1;
  return [
    {
      code: 'fit_unstated_limit',
      message:
        `${stops.length} of ${counted(runs, 'recorded run')} ended at a limit (${stoppedBy(stops)}) that no brake ${one ? 'its' : 'their'} recording states reproduces: ` +
        `fit cannot have the profile stop there, so ${one ? 'it is' : 'they are'} fitted at ${one ? 'its' : 'their'} recorded length${one ? '' : 's'} (group '${CUT_OFF_GROUP}'), as if ${one ? 'its agent' : 'their agents'} stopped there, though how far ${one ? 'it' : 'they'} would have gone is unknown: ` +
        `under a looser limit the profile's runs still stop there; state the brakes ${one ? 'it' : 'they'} ran under in the traces' headers (recordedSettings: maxSteps, maxCostUsd, …) and fit again for ${one ? 'it' : 'them'} to be fitted as stopped by a brake`,
    },
  ];
}
