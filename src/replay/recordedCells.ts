/**
 * The `contexts` cells of real-loop recordings that state the context strategy their loop ran under (header
 * `context`, recordedStrategy.ts): every strategy's cell compares such a run from its full history — `full` too,
 * which here means full history, not the run as it ran — and the `as recorded` cells hold each run as its loop ran
 * it. A summary strategy's recording, whose full history cannot be rebuilt, no cell can compare.
 */
import { isIdentity, type StrategyPlace } from '../context/strategy.js';
import { UserError } from '../errors.js';
import { counted } from '../plural.js';
import type { Trace } from '../trace/types.js';
import type { ContextCell } from './contexts.js';
import { rebuildable } from './rebuiltHistory.js';
import { rebuiltUnder, statedStrategyOf } from './recordedStrategy.js';

/** The name of the cells that replay each run as its loop ran it. */
export const AS_RECORDED = 'as recorded';

/** The `as recorded` cell of each cache mode. */
export function asRecordedCells(caches: readonly ('on' | 'off')[]): ContextCell[] {
  return caches.map((cache) => ({ context: AS_RECORDED, strategy: { kind: 'full', cache }, cache, asRecorded: true }));
}

/**
 * The summary (or hybrid) strategy `trace`'s recording states, which no cell can compare: its summaries replaced
 * the steps they dropped, so its full history cannot be rebuilt (recordedStrategy.ts recordingUnder); else undefined.
 */
export function unrebuildableSpecOf(trace: Trace): string | undefined {
  const stated = statedStrategyOf(trace);
  return stated === undefined || rebuildable(stated) ? undefined : trace.header.context!.spec;
}

/**
 * Whether `cell` replays `trace` from its full history rebuilt: its recording states a strategy and the cell is a
 * strategy's other than that one — `full` too, which here means full history, not the run as it ran (the `as
 * recorded` cell is that).
 */
export function rebuiltInCell(trace: Trace, cell: ContextCell): boolean {
  if (trace.header.context === undefined || cell.asRecorded === true) return false;
  return isIdentity(cell.strategy) || rebuiltUnder(trace, cell.strategy);
}

/** What to do with a summary strategy's recording instead of comparing it under strategies. */
export const UNCOMPARED_REMEDY =
  'loopcost replay replays such a run as its loop ran it; to compare strategies, replay its scenario file closed loop, or record the run under full history (or a window, masking or a tool-result cap, which contexts rebuilds)';

/** The refusal of a summary strategy's recording (at `place`, stating `spec`) where strategies are compared; `others`: more such runs left out with it. */
export function uncomparedRecording(run: { place: StrategyPlace; spec: string }, others = 0): UserError {
  return new UserError({
    ...run.place,
    code: 'bad_input',
    message: `the run was recorded under ${run.spec}, whose summaries replaced the steps they dropped: its full history cannot be rebuilt, so contexts cannot compare it under other strategies${others === 0 ? '' : ` (nor the ${counted(others, 'other run')}, recorded under summary strategies too)`}`,
    hint: UNCOMPARED_REMEDY,
  });
}
