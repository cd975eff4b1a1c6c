/**
 * sweepCompiled's grid held to replayTrace's rules for brakes (options/rules.ts brakeIssues, the one
 * function every entry point's brakes go through): the base brakes and each axis value's, so that
 * `{ maxSteps: -5 }`, `{ maxSteps: 2.5 }`, `{ maxCostPico: 0.5 }` or a misspelt `{ maxStep: 3 }` is a
 * UserError naming the axis and value (`<sweepCompiled arguments>` field
 * `grid.axes[0].values[1].brakes.maxSteps`), never a cell swept under settings no replay would take.
 *
 * The library's sweepCompiled (below); the CLI's sweeps (their grids made from flags already held to these
 * rules) and the engine's tests call fast/sweep.ts's directly. Checked once per grid object (a caller sweeps
 * slice after slice with the same grid; its plan is kept per grid object too, sweepPlan.ts). Pure: no node:*.
 */
import { argumentsFile } from '../options/arguments.js';
import { OptionIssues, isObject, type Issue } from '../options/issues.js';
import { brakeIssues } from '../options/rules.js';
import { requireSweepTraces } from '../options/given.js';
import { sweepCompiled as sweepChecked, type SweepTrace } from './sweep.js';
import type { SweepGrid } from './sweepGrid.js';
import type { SweepResult } from './sweepResult.js';

const checked = new WeakSet<object>();

const GRID_HINT = '{ brakes, strategy, axes: [{ name, values: [{ brakes?: { maxSteps: 5 }, strategy?: … }] }] } (a sweep\'s grid: every combination of the axes\' values)';

/** `grid` (sweepCompiled's, or `entry`'s): an object with base brakes and axes whose values' brakes replayTrace would take. */
export function requireSweepGrid(entry: string, grid: unknown): void {
  if (isObject(grid) && checked.has(grid)) return;
  const issues = new OptionIssues(argumentsFile(entry));
  gridIssues(issues.add, grid);
  issues.throwIfAny();
  checked.add(grid as object);
}

function gridIssues(issue: Issue, grid: unknown): void {
  if (!isObject(grid)) return issue('grid', grid === undefined ? 'missing_input' : 'invalid_input', `${grid === undefined ? 'is missing' : 'is not an object'}: a sweep grid`, GRID_HINT);
  brakeIssues(issue, grid.brakes, 'grid.brakes');
  if (!Array.isArray(grid.axes)) return issue('grid.axes', 'invalid_input', 'is not an array of axes', GRID_HINT);
  grid.axes.forEach((axis: unknown, a: number) => {
    const at = `grid.axes[${a}]`;
    if (!isObject(axis) || !Array.isArray(axis.values)) return issue(at, 'invalid_input', 'is not an axis ({ name, values: [...] })', GRID_HINT);
    const name = typeof axis.name === 'string' ? `axis ${JSON.stringify(axis.name)}` : `axis ${a}`;
    axis.values.forEach((patch: unknown, v: number) => {
      if (!isObject(patch)) return issue(`${at}.values[${v}]`, 'invalid_input', `${name}, value ${v}: is not a setting patch ({ brakes?, strategy? })`, GRID_HINT);
      if (patch.brakes === undefined) return;
      // The axis and value said in the message too: a field path of indices alone is hard to read back.
      brakeIssues((field, code, message, hint) => issue(field, code, `${name}, value ${v}: ${message}`, hint), patch.brakes, `${at}.values[${v}].brakes`);
    });
  });
}

/** fast/sweep.ts sweepCompiled as the library gives it: the grid's brakes checked first (requireSweepGrid). */
export function sweepCompiled(traces: readonly SweepTrace[], grid: SweepGrid, given?: { from: number; to: number }, into?: SweepResult): SweepResult {
  requireSweepTraces('sweepCompiled', traces, given);
  requireSweepGrid('sweepCompiled', grid);
  return sweepChecked(traces, grid, given, into);
}
