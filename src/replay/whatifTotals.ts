/**
 * A what-if's totals (whatif.ts): each setting's over the runs, and the baseline's strategy figures; with
 * runs that carry ground truth, each setting's tasks done (whatifTasksDone.ts), as sweep's rows count them.
 */
import { strategyTotals, type StrategyTotals } from '../population/sweep.js';
import type { WhatIfRun, WhatIfSetting, WhatIfTotal } from './whatif.js';
import { tasksDoneOfRuns } from './whatifTasksDone.js';

/** Each setting's totals over the runs (only the runs kept: a caller may drop the runs of a bad file). */
export function whatIfTotals(runs: readonly WhatIfRun[], settings: readonly WhatIfSetting[]): WhatIfTotal[] {
  return settings.map((setting, i) => {
    const total: WhatIfTotal = { setting: setting.name, runs: 0, completed: 0, falseStops: 0, caughtRuns: 0, costPico: 0n, savedPico: 0n, stopReasons: {}, predictiveStops: 0 };
    for (const run of runs) {
      const cell = run.settings[i]!;
      total.runs += 1;
      if (cell.stopReason === 'completed') total.completed += 1;
      if (cell.falseStop) total.falseStops += 1;
      if (cell.predictiveStop) total.predictiveStops += 1;
      if (cell.caught) total.caughtRuns += 1;
      total.costPico += BigInt(cell.costPico);
      total.savedPico += BigInt(cell.savedPico);
      total.stopReasons[cell.stopReason] = (total.stopReasons[cell.stopReason] ?? 0) + 1;
    }
    const cells = runs.map((run) => run.settings[i]!);
    const tasksDone = tasksDoneOfRuns(cells);
    return Object.assign(total, strategyTotals(cells), tasksDone === undefined ? {} : { tasksDone });
  });
}

/** The baseline's strategy totals over the runs: the same sum as each setting's (whatIfTotals), absent where 0. */
export function whatIfBaselineStrategy(runs: readonly WhatIfRun[]): StrategyTotals {
  return strategyTotals(runs.map((run) => run.baseline));
}
