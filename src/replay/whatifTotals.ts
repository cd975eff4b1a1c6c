/**
 * A what-if's totals (whatif.ts): each setting's over the runs, and the baseline's; with runs that carry
 * ground truth, tasks done (whatifTasksDone.ts), as sweep's rows count them, in the same pass over the runs.
 */
import type { StopReason } from '../brakes/stopReasons.js';
import { strategyTotals, type StrategyTotals, type TasksDone } from '../population/sweep.js';
import type { WhatIfBaseline, WhatIfRun, WhatIfSetting, WhatIfTotal } from './whatif.js';
import { TasksDoneTally } from './whatifTasksDone.js';

/** What a setting's totals and the baseline's share: runs, those that ended `completed`, spend, stop reasons, tasks done (where any run carries ground truth). */
export interface WhatIfCounts {
  runs: number;
  completed: number;
  costPico: bigint;
  stopReasons: Partial<Record<StopReason, number>>;
  tasksDone?: TasksDone;
}

/** What countRuns reads of a run under a setting or its baseline. */
type CountedRun = Pick<WhatIfBaseline, 'stopReason' | 'costPico' | 'taskDone'>;

/** Runs under one setting (or the baseline), counted in one pass: `each` sees every run as it is counted. */
function countRuns<Run extends CountedRun>(runs: readonly WhatIfRun[], cellOf: (run: WhatIfRun) => Run, each: (cell: Run) => void): WhatIfCounts {
  const counts: WhatIfCounts = { runs: 0, completed: 0, costPico: 0n, stopReasons: {} };
  const done = new TasksDoneTally();
  for (const run of runs) {
    const cell = cellOf(run);
    const reason = cell.stopReason;
    counts.runs += 1;
    if (reason === 'completed') counts.completed += 1;
    counts.costPico += BigInt(cell.costPico);
    counts.stopReasons[reason] = (counts.stopReasons[reason] ?? 0) + 1;
    done.add(reason === 'completed', cell.taskDone);
    each(cell);
  }
  const tasksDone = done.take({ runs: counts.runs, completed: counts.completed, totalPico: counts.costPico });
  return tasksDone === undefined ? counts : { ...counts, tasksDone };
}

/** Each setting's totals over the runs (only the runs kept: a caller may drop the runs of a bad file). */
export function whatIfTotals(runs: readonly WhatIfRun[], settings: readonly WhatIfSetting[]): WhatIfTotal[] {
  return settings.map((setting, i) => {
    const more = { falseStops: 0, caughtRuns: 0, savedPico: 0n, predictiveStops: 0 };
    const counts = countRuns(runs, (run) => run.settings[i]!, (cell) => {
      if (cell.falseStop) more.falseStops += 1;
      if (cell.predictiveStop) more.predictiveStops += 1;
      if (cell.caught) more.caughtRuns += 1;
      more.savedPico += BigInt(cell.savedPico);
    });
    const { runs: n, completed, costPico, stopReasons, tasksDone } = counts;
    const total: WhatIfTotal = { setting: setting.name, runs: n, completed, falseStops: more.falseStops, caughtRuns: more.caughtRuns, costPico, savedPico: more.savedPico, stopReasons, predictiveStops: more.predictiveStops };
    return Object.assign(total, strategyTotals(runs.map((run) => run.settings[i]!)), tasksDone === undefined ? {} : { tasksDone });
  });
}

/** The baseline's totals over the runs, counted as each setting's (whatIfTotals), and the runs the predictive budget bound stopped. */
export function whatIfBaselineTotals(runs: readonly WhatIfRun[]): WhatIfCounts & { predictiveStops: number } {
  let predictiveStops = 0;
  const counts = countRuns(runs, (run) => run.baseline, (cell) => {
    if (cell.predictiveStop === true) predictiveStops += 1;
  });
  return { ...counts, predictiveStops };
}

/** The baseline's strategy totals over the runs: the same sum as each setting's (whatIfTotals), absent where 0. */
export function whatIfBaselineStrategy(runs: readonly WhatIfRun[]): StrategyTotals {
  return strategyTotals(runs.map((run) => run.baseline));
}
