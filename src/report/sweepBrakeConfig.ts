/**
 * The brakes a sweep's configuration ran its runs under, as runAgentLoop's `brakes` take them
 * (`recommendation.brakeConfig`): its row's `brakes` read back (flags/parseBrakeSpec.ts), the scenario files'
 * own brakes included where they took them — what the row's `flags` leave to the files. Pure: no node:*.
 */
import type { BrakeConfig } from '../brakes/config.js';
import { UserError } from '../errors.js';
import { parseBrakeSpec } from '../flags/parseBrakeSpec.js';
import { recordedRunBrakes } from './runsTook.js';
import type { SweepRow } from './sweepReport.js';

/**
 * A row's `brakes` as one BrakeConfig (`index`: its place among the report's configurations); null where its runs
 * took several, which no one setting says (runsTook.ts runsBrakes: trace files' `A (synthetic: B)`, or `each scenario
 * file's own, listed below`). A sweep writes every row's brakes readable (brakeSpec); one that does not read back
 * came from a shard edited by hand, and is a UserError naming the configuration (merge checks no other row's:
 * reading a row's brakes back takes ~40 µs, a fifth of a merge's time over every row).
 */
export function rowBrakeConfig(row: Pick<SweepRow, 'brakes' | 'settings'>, index: number): BrakeConfig | null {
  if (!saysOneSetting(row.brakes)) return null;
  try {
    return parseBrakeSpec(row.brakes);
  } catch (error) {
    if (!(error instanceof UserError)) throw error;
    const issue = error.issues[0]!;
    const message = `'${row.brakes}' (configuration ${row.settings}) does not read back as brake settings: ${issue.field ?? 'spec'} ${issue.message}`;
    throw new UserError({ field: `configurations[${index}].brakes`, code: 'bad_value', message, hint: 'was a shard edited? make the shards again with loopcost sweep --shard K/N' });
  }
}

/** Whether a row's `brakes` is one setting (`none`, or `name=value,…`), not the words for several. */
function saysOneSetting(brakes: string): boolean {
  return recordedRunBrakes(brakes) === brakes && /^(none$|[a-z-]+=)/.test(brakes);
}
