/**
 * whatif's totals count each run once per setting (and once for the baseline): its stop, spend and task done
 * are read in the one pass that sums the setting's runs, completions and spend and counts its tasks done
 * (whatifTotals.ts, TasksDoneTally). Before, whatIfTotals summed them, then tasksDoneOfRuns walked the same
 * cells and summed the completions and spend again (each cell's costPico read twice); the report's baseline,
 * four walks and tasksDoneOfRuns. The figures are the same: checked here against a count by hand.
 */
import { describe, expect, it } from 'vitest';
import { whatIfBaselineTotals, whatIfTotals } from '../../src/replay/whatifTotals.js';
import type { WhatIfCell, WhatIfRun } from '../../src/replay/whatif.js';
import { picoToUsd } from '../../src/money.js';
import { NO_BRAKES } from '../../src/brakes/config.js';
import type { StopReason } from '../../src/brakes/stopReasons.js';

const READ = ['stopReason', 'costPico', 'taskDone'] as const;

/** A cell that counts the reads of its stop, spend and task done into `reads`. */
function counted<T extends object>(cell: T, reads: Map<string, number>): T {
  return new Proxy(cell, {
    get(target, key, receiver) {
      if (typeof key === 'string' && (READ as readonly string[]).includes(key)) reads.set(key, (reads.get(key) ?? 0) + 1);
      return Reflect.get(target, key, receiver) as unknown;
    },
  });
}

const cell = (stopReason: StopReason, costPico: number, taskDone: boolean): WhatIfCell => ({ stopReason, steps: 3, costPico, falseStop: false, caught: stopReason === 'max_steps', savedPico: stopReason === 'max_steps' ? 7 : 0, predictiveStop: false, taskDone });

/** Four runs: completed and done, completed undone (gave up and answered), done but ended trace_end, stopped undone. */
const CELLS: [StopReason, number, boolean][] = [['completed', 1_000_000, true], ['completed', 2_000_000, false], ['trace_end', 3_000_000, true], ['max_steps', 4_000_000, false]];

function runs(reads: Map<string, number>[]): WhatIfRun[] {
  return CELLS.map(([reason, pico, done], r) => ({
    source: `run#${r + 1}`,
    baseline: counted({ stopReason: reason, steps: 3, costPico: pico, taskDone: done }, reads[r * 2]!),
    settings: [counted(cell(reason, pico, done), reads[r * 2 + 1]!)],
  }));
}

/** The same counts by hand: 2 ended `completed`, 2 tasks done (1 completed undone, 1 done not completed), $0.00001 spent. */
const TASKS_DONE = { done: 2, doneRate: 0.5, costPerDoneUsd: picoToUsd(5_000_000n), groundTruthRuns: 4, completedNotDone: 1, doneNotCompleted: 1 };
const STOPS = { completed: 2, trace_end: 1, max_steps: 1 };

describe("whatif's totals: each run counted once", () => {
  it("a setting's: runs, completions, spend and tasks done from one read of each run's stop, spend and task done", () => {
    const reads = Array.from({ length: 8 }, () => new Map<string, number>());
    const [total] = whatIfTotals(runs(reads), [{ name: 'max-steps=5', brakes: NO_BRAKES }]);
    expect(total).toMatchObject({ setting: 'max-steps=5', runs: 4, completed: 2, costPico: 10_000_000n, caughtRuns: 1, savedPico: 7n, stopReasons: STOPS, tasksDone: TASKS_DONE });
    const settingReads = reads.filter((_, i) => i % 2 === 1);
    for (const cellReads of settingReads) expect(Object.fromEntries(cellReads)).toEqual({ stopReason: 1, costPico: 1, taskDone: 1 });
  });

  it("the baseline's: the same counts, from one read of each", () => {
    const reads = Array.from({ length: 8 }, () => new Map<string, number>());
    const base = whatIfBaselineTotals(runs(reads));
    expect(base).toEqual({ runs: 4, completed: 2, costPico: 10_000_000n, stopReasons: STOPS, tasksDone: TASKS_DONE, predictiveStops: 0 });
    for (const cellReads of reads.filter((_, i) => i % 2 === 0)) expect(Object.fromEntries(cellReads)).toEqual({ stopReason: 1, costPico: 1, taskDone: 1 });
  });

  it('runs without ground truth: no tasks done', () => {
    const plain = runs(Array.from({ length: 8 }, () => new Map())).map((run) => ({ ...run, baseline: { ...run.baseline, taskDone: undefined }, settings: run.settings.map((c) => ({ ...c, taskDone: undefined })) }));
    expect(whatIfTotals(plain, [{ name: 'x', brakes: NO_BRAKES }])[0]!.tasksDone).toBeUndefined();
    expect(whatIfBaselineTotals(plain).tasksDone).toBeUndefined();
  });
});
