/**
 * whatif's recorded runs as replay's open-loop rule reads them (runNotes.ts brakeOpenLoopWarnings): a run a
 * setting's brake stopped before its baseline's end (a completion stopped or a run caught: the engine's own
 * verdicts, replay/whatif.ts) replays open loop, so the same one line (`open_loop_brakes`) says so and points
 * to the closed-loop way. A run counts once, however many settings stopped it; synthetic runs (a scenario
 * file's) run closed loop and are not passed here.
 */
import type { WhatIfCell, WhatIfRun } from '../../replay/whatif.js';
import type { StoppedRun } from './runNotes.js';

/**
 * Each recorded run as a replay's result for brakeOpenLoopWarnings: stopped by a setting's brake before its
 * baseline's end (its calls against the baseline's, which replays the limits it was recorded with), else as
 * its baseline ended (never counted: that is where its recording ends). The earliest stop of any setting counts,
 * whatever the order of the settings: one that stopped the run at its baseline's last step is not early, though
 * a later one stopped it sooner.
 */
export function whatIfStoppedRuns(recordedRuns: readonly WhatIfRun[]): StoppedRun[] {
  return recordedRuns.map((run) => {
    const early = earliestStop(run);
    const recordedCalls = run.baseline.steps;
    return early === undefined ? { stopReason: run.baseline.stopReason, modelCalls: recordedCalls, recordedCalls } : { stopReason: early.stopReason, modelCalls: early.steps, recordedCalls };
  });
}

/** The setting's cell that stopped the run in the fewest steps, among those whose brake stopped it (caught or a false stop). */
function earliestStop(run: WhatIfRun): WhatIfCell | undefined {
  let earliest: WhatIfCell | undefined;
  for (const cell of run.settings) if ((cell.caught || cell.falseStop) && (earliest === undefined || cell.steps < earliest.steps)) earliest = cell;
  return earliest;
}
