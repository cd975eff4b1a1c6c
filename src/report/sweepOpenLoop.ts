/**
 * A recommendation whose edge on recorded runs is one they cannot show: its grid values include a context
 * strategy other than full, a tool-result cap, or `repeat-action skip` — or, over session trees, a per-agent
 * limit (`subagent-max-steps`, `subagent-max-cost`: a sub-agent it stops ends its Task call, its parent goes on as recorded). Recorded runs replay open loop
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
  /** `--tree`: the session trees in which its brakes stopped a sub-agent (its row's `subagentsStopped`), when any. */
  subagentsStopped?: number;
  /** The sentence the recommendation's text carries. */
  text: string;
}

/**
 * Grid keys whose values, on recorded runs, change cost or skip actions but not what the agent did next; and,
 * on session trees (`--tree`), the per-agent limits: a sub-agent they stop ends its Task call, and its parent
 * goes on as recorded.
 */
const OPEN_LOOP_KEYS = ['context', 'tool-result-cap', 'repeat-action', 'subagent-max-steps', 'subagent-max-cost'] as const;

/** The grid value that keeps a run as recorded (none for a cap: any cap cuts what the agent saw, or may stop a sub-agent). */
const CLOSED_VALUE: Record<(typeof OPEN_LOOP_KEYS)[number], ((value: string) => boolean) | undefined> = {
  context: (value) => value.trim() === 'full',
  'tool-result-cap': undefined,
  'repeat-action': (value) => value.trim().split(',')[0] !== 'skip',
  'subagent-max-steps': undefined,
  'subagent-max-cost': undefined,
};

const isSubagentValue = (value: string): boolean => value.startsWith('subagent-max-');

/**
 * What a pick that stops sub-agents cannot show on recorded session trees (tree/sessionStop.ts: a session whose
 * stopped sub-agent completes in its recording counts as stopped, a false stop), and the closed-loop way.
 * `stopped`: the trees in which its brakes stopped a sub-agent (its row's `subagentsStopped`; undefined: not
 * known, said of its per-agent limits `values`).
 */
function subagentText(values: readonly string[], at: { recordedRuns: number; stopped: number | undefined }): string {
  const trees = counted(at.recordedRuns, 'recorded session tree');
  const where = at.stopped === undefined ? `on the ${trees}, a sub-agent ${values.join(' and ')} stops` : `in ${at.stopped} of the ${trees} its brakes stopped a sub-agent, which`;
  return (
    `Open loop: ${where} ends its Task call with the stop, and its parent goes on as recorded, its later calls made with the sub-agent's whole result:` +
    ` a session whose stopped sub-agent completes in its recording counts as stopped (a false stop), the others' completions are the recorded ones, so these runs cannot show what a stopped sub-agent does to its parent.` +
    ` To measure that, run the agent and its sub-agents closed loop under these settings (runAgentLoop with a defineSubagentTool tool and subagentLimits, or your own agent against loopcost serve).`
  );
}

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
 * values is open loop and, over session trees, its brakes stopped no sub-agent).
 */
export function openLoopOf(rows: readonly SweepRow[], index: number, header: { grid: readonly GridAxis[]; inputs: { recordedRuns: number } }): SweepOpenLoop | undefined {
  const { grid } = header;
  const recordedRuns = header.inputs.recordedRuns;
  // Over session trees the row knows in how many its brakes stopped a sub-agent (a per-agent limit's grid value, a flag's, or the tree's brakes).
  const stopped = rows[index]!.subagentsStopped;
  if (recordedRuns === 0 || (!grid.some((axis) => isOpenLoopKey(axis.key)) && (stopped ?? 0) === 0)) return undefined;
  const picked = gridValuesOf(rows[index]!.settings, grid);
  const values = grid.flatMap((axis) => (isOpenLoopKey(axis.key) && isOpen(axis.key, picked.get(axis.key) ?? '') ? [`${axis.key}=${picked.get(axis.key)}`] : []));
  const strategyValues = values.filter((value) => !isSubagentValue(value));
  const subagentValues = values.filter(isSubagentValue);
  const stopsSubagents = stopped === undefined ? subagentValues.length > 0 : stopped > 0;
  if (strategyValues.length === 0 && !stopsSubagents) return undefined;
  const alternative = strategyValues.length === 0 ? undefined : closedAlternative(rows, { grid, picked });
  const row = alternative === undefined ? undefined : rows[alternative]!;
  const than =
    row === undefined
      ? ''
      : ` It differs only there from ${row.settings} (${row.completed}/${row.runs} complete at ${row.costPerCompletedUsd === null ? 'no completed run' : `${formatUsdNumber(row.costPerCompletedUsd)} per completed run`}).`;
  const texts = [
    ...(strategyValues.length === 0
      ? []
      : [`Open loop: on the ${counted(recordedRuns, 'recorded run')}, ${openWords(strategyValues)}, so their completions and stop reasons are the recorded ones: they cannot show what it does to completions.${than} To measure that, ${closedLoopWay(strategyValues)}.`]),
    ...(stopsSubagents ? [subagentText(subagentValues, { recordedRuns, stopped })] : []),
  ];
  // A per-agent limit that stopped no sub-agent is no open-loop value of the pick.
  const openValues = stopsSubagents ? values : strategyValues;
  return { recordedRuns, values: openValues, alternative: row?.settings ?? null, ...(stopped === undefined || !stopsSubagents ? {} : { subagentsStopped: stopped }), text: texts.join(' ') };
}

/** The row with the picked row's other grid values and none open loop (full context, stop), when the grid has it. */
function closedAlternative(rows: readonly SweepRow[], at: { grid: readonly GridAxis[]; picked: ReadonlyMap<string, string> }): number | undefined {
  const parts: string[] = [];
  for (const axis of at.grid) {
    // (A per-agent limit is kept as picked: the alternative is the strategy's, its own open loop said apart.)
    const kept = !isOpenLoopKey(axis.key) || isSubagentValue(`${axis.key}=`);
    const value = kept ? at.picked.get(axis.key) : axis.values.find((v) => !isOpen(axis.key as (typeof OPEN_LOOP_KEYS)[number], v));
    if (value === undefined) return undefined;
    parts.push(`${axis.key}=${value}`);
  }
  const settings = parts.join(',');
  const found = rows.findIndex((row) => row.settings === settings);
  return found < 0 ? undefined : found;
}
