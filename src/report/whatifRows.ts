/**
 * The what-if report's rows from the replay's result (whatifReport.ts buildWhatIfReport): each setting's
 * totals, and each run under each setting beside its baseline, money in USD, with the strategy figures
 * the summary has (whatifFigures.ts); where runs carry ground truth, tasks done (replay/whatifTasksDone.ts).
 */
import { picoToUsd } from '../money.js';
import type { CacheMode } from '../context/strategy.js';
import type { WhatIfRun, WhatIfSetting, WhatIfTotal } from '../replay/whatif.js';
import { baselineRunFigures, runFigures, strategyRecord, type FigureKey } from './whatifFigures.js';
import type { WhatIfReport } from './whatifReport.js';
import { everyStopReason } from './stopReasonCounts.js';

/** Each setting's totals over the runs (`settings`, in the same order: whether each was set on top of the baseline). */
export function whatIfTotalRows(totals: readonly WhatIfTotal[], settings: readonly WhatIfSetting[]): WhatIfReport['totals'] {
  return totals.map((t, i) => ({
    setting: t.setting,
    onBaseline: settings[i]?.onTop !== undefined,
    runs: t.runs,
    completed: t.completed,
    ...(t.tasksDone === undefined ? {} : { tasksDone: t.tasksDone }),
    baselineCompletionsStopped: t.falseStops,
    falseStops: t.falseStops,
    caughtRuns: t.caughtRuns,
    costUsd: picoToUsd(t.costPico),
    savedUsd: picoToUsd(t.savedPico),
    stopReasons: everyStopReason(t.stopReasons),
    ...(t.predictiveStops === 0 ? {} : { predictiveBudgetStops: t.predictiveStops }),
    ...strategyRecord(t),
  }));
}

/**
 * Each run under each setting, its baseline's figures on every row; the cache it took (`runCaches`, in the
 * order of the runs) and the day its dated prices were read at (`pricedAsOf`) where known.
 */
export function whatIfRunRows(
  runs: readonly WhatIfRun[],
  of: { settings: readonly WhatIfSetting[]; keys: FigureKey[]; pricedAsOf: ((source: string) => string | undefined) | undefined; runCaches: readonly CacheMode[] | undefined },
): WhatIfReport['runs'] {
  const { keys } = of;
  return runs.flatMap((run, r) => {
    const day = of.pricedAsOf?.(run.source);
    const cache = of.runCaches?.[r];
    const baseline = baselineRunFigures(keys, run.baseline);
    return run.settings.map((cell, i) => ({
      source: run.source,
      setting: of.settings[i]!.name,
      baselineStopReason: run.baseline.stopReason,
      ...(run.baseline.taskDone === undefined ? {} : { baselineTaskDone: run.baseline.taskDone }),
      baselineSteps: run.baseline.steps,
      baselineCostUsd: picoToUsd(run.baseline.costPico),
      ...baseline,
      stopReason: cell.stopReason,
      ...(cell.taskDone === undefined ? {} : { taskDone: cell.taskDone }),
      steps: cell.steps,
      costUsd: picoToUsd(cell.costPico),
      baselineCompletionStopped: cell.falseStop,
      falseStop: cell.falseStop,
      savedUsd: picoToUsd(cell.savedPico),
      ...runFigures(keys, cell),
      ...(cache === undefined ? {} : { cache }),
      ...(day === undefined ? {} : { pricedAsOf: day }),
    }));
  });
}
