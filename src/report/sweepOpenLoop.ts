/**
 * A recommendation whose edge on recorded runs is one they cannot show: its grid values include a context
 * strategy other than full, a tool-result cap, or `repeat-action skip`. Recorded runs replay open loop
 * (each call as recorded, whatever the agent was shown), so under these a run's completions and stop
 * reasons are the recorded ones: a smaller context is cheaper with no run lost, and a skipped repeat costs
 * nothing with no run stopped, whatever a live agent would have done with what it no longer saw. The
 * recommendation says so, names the configuration it differs from only there (the same other grid values,
 * full context, no cap, stop) when the grid has it, and the closed-loop way to measure it. Pure.
 */
import { gridValuesOf, type GridAxis } from '../population/grid.js';
import { counted } from '../plural.js';
import { formatUsdNumber } from './money.js';
import { STRATEGY_CLOSED_LOOP_WAY } from './warnings.js';
import type { SweepRow } from './sweepReport.js';

/** What a recommendation says of its open-loop grid values (`recommendation.openLoop` in JSON). */
export interface SweepOpenLoop {
  /** The recorded runs it was measured on open loop. */
  recordedRuns: number;
  /** Its grid values whose effect on completions those runs cannot show (`context=window:5`, `repeat-action=skip`). */
  values: string[];
  /** The configuration it differs from only in those (full context, no tool-result cap, stop), when the grid has one. */
  alternative: string | null;
  /** The sentence the recommendation's text carries. */
  text: string;
}

/** Grid keys whose values, on recorded runs, change cost or skip actions but not what the agent did next. */
const OPEN_LOOP_KEYS = ['context', 'tool-result-cap', 'repeat-action'] as const;

/** The grid value that keeps a run as recorded (none for a cap: any cap cuts what the agent saw). */
const CLOSED_VALUE: Record<(typeof OPEN_LOOP_KEYS)[number], ((value: string) => boolean) | undefined> = {
  context: (value) => value.trim() === 'full',
  'tool-result-cap': undefined,
  'repeat-action': (value) => value.trim().split(',')[0] !== 'skip',
};

const isOpenLoopKey = (key: string): key is (typeof OPEN_LOOP_KEYS)[number] => (OPEN_LOOP_KEYS as readonly string[]).includes(key);
const isOpen = (key: (typeof OPEN_LOOP_KEYS)[number], value: string): boolean => CLOSED_VALUE[key]?.(value) !== true;

/** What each open-loop value does to a recorded run, in words. */
function openWords(values: readonly string[]): string {
  return values
    .map((value) => (value.startsWith('repeat-action=') ? `${value} replays the calls after a skipped action as recorded, as if its result had been seen` : `${value} changes what their calls cost, not what the agent did next`))
    .join('; ');
}

/**
 * How to measure what the open-loop values do to completions: a skip, on a synthetic population fitted to the
 * runs (its agents repeat as the runs did); a context strategy or tool-result cap, on agents that react to what
 * the prompt holds (a fitted profile's do not: warnings.ts STRATEGY_CLOSED_LOOP_WAY).
 */
function closedLoopWay(values: readonly string[]): string {
  const skip = values.some((value) => value.startsWith('repeat-action='));
  const strategy = values.some((value) => !value.startsWith('repeat-action='));
  const fitted = 'sweep a synthetic population fitted to the runs, closed loop (loopcost fit TRACES --out profile.yaml, then loopcost sweep profile.yaml with this grid and the --prices it was fitted with)';
  if (!strategy) return fitted;
  return skip ? `for repeat-action skip, ${fitted}; for the context and tool-result cap, ${STRATEGY_CLOSED_LOOP_WAY}` : STRATEGY_CLOSED_LOOP_WAY;
}

/**
 * The open-loop caveat of recommending row `index` of `rows` (undefined: no recorded run, or none of its grid
 * values is open loop).
 */
export function openLoopOf(rows: readonly SweepRow[], index: number, header: { grid: readonly GridAxis[]; inputs: { recordedRuns: number } }): SweepOpenLoop | undefined {
  const { grid } = header;
  const recordedRuns = header.inputs.recordedRuns;
  if (recordedRuns === 0 || !grid.some((axis) => isOpenLoopKey(axis.key))) return undefined;
  const picked = gridValuesOf(rows[index]!.settings, grid);
  const values = grid.flatMap((axis) => (isOpenLoopKey(axis.key) && isOpen(axis.key, picked.get(axis.key) ?? '') ? [`${axis.key}=${picked.get(axis.key)}`] : []));
  if (values.length === 0) return undefined;
  const alternative = closedAlternative(rows, { grid, picked });
  const row = alternative === undefined ? undefined : rows[alternative]!;
  const than =
    row === undefined
      ? ''
      : ` It differs only there from ${row.settings} (${row.completed}/${row.runs} complete at ${row.costPerCompletedUsd === null ? 'no completed run' : `${formatUsdNumber(row.costPerCompletedUsd)} per completed run`}).`;
  const text =
    `Open loop: on the ${counted(recordedRuns, 'recorded run')}, ${openWords(values)}, so their completions and stop reasons are the recorded ones: they cannot show what it does to completions.${than}` +
    ` To measure that, ${closedLoopWay(values)}.`;
  return { recordedRuns, values, alternative: row?.settings ?? null, text };
}

/** The row with the picked row's other grid values and none open loop (full context, stop), when the grid has it. */
function closedAlternative(rows: readonly SweepRow[], at: { grid: readonly GridAxis[]; picked: ReadonlyMap<string, string> }): number | undefined {
  const parts: string[] = [];
  for (const axis of at.grid) {
    const value = !isOpenLoopKey(axis.key) ? at.picked.get(axis.key) : axis.values.find((v) => !isOpen(axis.key as (typeof OPEN_LOOP_KEYS)[number], v));
    if (value === undefined) return undefined;
    parts.push(`${axis.key}=${value}`);
  }
  const settings = parts.join(',');
  const found = rows.findIndex((row) => row.settings === settings);
  return found < 0 ? undefined : found;
}
