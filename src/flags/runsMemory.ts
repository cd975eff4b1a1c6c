/**
 * How many runs a command that keeps every run's result (replay, whatif, check, project) can hold in the
 * heap Node was given: --runs (or a scenario's `runs:`) takes up to MAX_SCENARIO_RUNS, but these commands
 * hold each run's result until they report, and past the heap V8 stops with a fatal out-of-memory error
 * (exit 134), a stack trace and no report. A count whose kept results would not fit is refused up front.
 * `sweep` streams its runs (it keeps figures per configuration, not per run), so it is not limited here.
 * Pure: the heap limit is read in the CLI shell (src/cli/runsHeap.ts).
 */
import type { InputIssue } from '../errors.js';

export type KeepingCommand = 'replay' | 'whatif' | 'check' | 'project';

/**
 * Heap bytes each run's kept result takes, at least, per command: measured (resident memory at 100,000
 * and 300,000 runs of a one-step scenario, and of scenarios/flight-search.yaml: about the same) as replay
 * ≈1.3 KB, check ≈0.8 KB, project ≈0.7 KB, whatif ≈0.65 KB a run; runs of more steps keep more.
 */
export const KEPT_RUN_BYTES: Readonly<Record<KeepingCommand, number>> = { replay: 1300, check: 800, project: 700, whatif: 650 };

/** Heap the process needs besides the runs (code, price tables, inputs), left out of what runs may use. */
export const HEAP_RESERVE_BYTES = 64 * 1024 * 1024;

/** Most runs `command` can keep in a heap of `heapLimitBytes` (V8's heap_size_limit). */
export function mostKeptRuns(command: KeepingCommand, heapLimitBytes: number): number {
  return Math.max(0, Math.floor((heapLimitBytes - HEAP_RESERVE_BYTES) / KEPT_RUN_BYTES[command]));
}

/** Where the run count was given: `--runs`, or a scenario file's `runs:` (its line when known). */
export interface RunsPlace {
  file: string;
  line?: number;
  field: string;
}

function megabytes(bytes: number): string {
  return `${Math.round(bytes / (1024 * 1024)).toLocaleString('en-US')} MB`;
}

/**
 * The issue of `runs` runs (all the command's scenarios together) that would not fit in the heap, or
 * undefined when they fit. `place`: where the count was given, named in the issue.
 */
export function keptRunsIssue(args: { command: KeepingCommand; runs: number; heapLimitBytes: number; place: RunsPlace }): InputIssue | undefined {
  const { command, runs, heapLimitBytes, place } = args;
  const most = mostKeptRuns(command, heapLimitBytes);
  if (runs <= most) return undefined;
  const kept = runs * KEPT_RUN_BYTES[command];
  const stream = command === 'project' ? '' : ', or run `loopcost sweep` (it streams its runs, keeping no run\'s result)';
  return {
    ...place,
    code: 'too_many_runs',
    message: `${runs.toLocaleString('en-US')} runs would keep about ${megabytes(kept)} of results in memory (${command} holds every run's result until it reports), more than the ${megabytes(heapLimitBytes)} heap Node has here`,
    hint: `give at most ${most.toLocaleString('en-US')} runs${stream}, or raise the heap (NODE_OPTIONS=--max-old-space-size=MB)`,
  };
}
