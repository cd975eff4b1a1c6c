/**
 * The brakes a sweep's configuration ran its runs under, as runAgentLoop's `brakes` take them
 * (`recommendation.brakeConfig`): its row's `brakes` read back (flags/parseBrakeSpec.ts), the scenario files'
 * own brakes included where they took them — what the row's `flags` leave to the files. Pure: no node:*.
 */
import type { BrakeConfig } from '../brakes/config.js';
import { UserError, type InputIssue } from '../errors.js';
import { parseBrakeSpec } from '../flags/parseBrakeSpec.js';
import { recordedRunBrakes } from './runsTook.js';
import type { SweepRow } from './sweepReport.js';

/**
 * A row's `brakes` as one BrakeConfig (`index`: its place among the report's configurations); null where its runs
 * took several, which no one setting says (runsTook.ts runsBrakes: trace files' `A (synthetic: B)`, or `each scenario
 * file's own, listed below`). A sweep writes every row's brakes readable (brakeSpec); one that does not read back
 * came from a shard edited by hand, and is an UnreadRowBrakes naming the configuration, which merge places in its
 * shard (merge checks no other row's: reading a row's brakes back takes ~40 µs, a fifth of a merge's time over every row).
 */
export function rowBrakeConfig(row: Pick<SweepRow, 'brakes' | 'settings'>, index: number): BrakeConfig | null {
  if (!saysOneSetting(row.brakes)) return null;
  try {
    return parseBrakeSpec(row.brakes);
  } catch (error) {
    if (!(error instanceof UserError)) throw error;
    const issue = error.issues[0]!;
    throw new UnreadRowBrakes(index, { brakes: row.brakes, settings: row.settings, reason: `${issue.field ?? 'spec'} ${issue.message}` });
  }
}

/** A row whose brakes do not read back, and why. */
export interface UnreadBrakes {
  brakes: string;
  settings: string;
  reason: string;
}

/** The refusal of a row whose brakes do not read back, at `place`: its file (a shard's, for merge) and its index among that file's configurations. */
export function rowBrakesIssue(unread: UnreadBrakes, place: { file?: string; index: number }): InputIssue {
  const message = `'${unread.brakes}' (configuration ${unread.settings}) does not read back as brake settings: ${unread.reason}`;
  return { ...(place.file === undefined ? {} : { file: place.file }), field: `configurations[${place.index}].brakes`, code: 'bad_value', message, hint: 'was a shard edited? make the shards again with loopcost sweep --shard K/N' };
}

/** A row's brakes that do not read back (rowBrakeConfig), with its index among the report's rows, for the caller that knows its file to place it. */
export class UnreadRowBrakes extends UserError {
  constructor(
    readonly index: number,
    readonly unread: UnreadBrakes,
  ) {
    super(rowBrakesIssue(unread, { index }));
  }
}

/** Whether a row's `brakes` is one setting (`none`, or `name=value,…`), not the words for several. */
function saysOneSetting(brakes: string): boolean {
  return recordedRunBrakes(brakes) === brakes && /^(none$|[a-z-]+=)/.test(brakes);
}
