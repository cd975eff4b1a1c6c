/**
 * How many runs a command that keeps every run's result (replay, whatif, check, project, `fit --report`)
 * can hold in the heap Node was given: --runs (or a scenario's `runs:`) takes up to MAX_SCENARIO_RUNS, but
 * these commands hold each run's result until they report, and past the heap V8 stops with a fatal
 * out-of-memory error (exit 134), a stack trace and no report. A count whose kept results would not fit is
 * refused up front. Not limited here, as they stream: `sweep` and `calibrate` (figures per configuration,
 * added up run by run, synthetic runs recorded and swept a batch at a time: resident memory the same at
 * 20,000, 60,000 and 200,000 runs of scenarios/flight-search.yaml), and `generate` (each run written as it
 * unfolds, one run in memory: the same). `--tree` takes no run count: its runs are the session trees read
 * (scenario files are refused with it), held as the traces themselves are.
 * Pure: the heap limit is read in the CLI shell (src/cli/runsHeap.ts).
 */
import type { InputIssue } from '../errors.js';

export type KeepingCommand = 'replay' | 'replaySteps' | 'whatif' | 'check' | 'project' | 'fit';

/**
 * Heap bytes each run's kept result takes, at least, per command: measured (resident memory at 100,000
 * and 300,000 runs of a one-step scenario, and of scenarios/flight-search.yaml: about the same) as replay
 * ≈1.3 KB, check ≈0.8 KB, project ≈0.7 KB, whatif ≈0.65 KB a run; runs of more steps keep more.
 * `fit --report` keeps each synthetic run of the profile with its steps (to compare them with the recorded
 * runs): ≈1.7 KB a run of a profile fitted to scenarios/recorded-pair.jsonl (one or two steps a run;
 * resident memory at 20,000 and 60,000 runs), ≈5 KB of one fitted to 12 generated flight-search runs.
 * `replaySteps`: replay keeping every call's row (--per-step, a chart, --report-dir): ≈5.2 KB a run of
 * scenarios/flight-search.yaml (≈10 steps; under a 248 MB heap 30,000 runs finish, 45,000 do not). whatif:
 * per result it keeps, each --try's and the baseline's (≈0.75 KB: under a 148 MB heap, 20,000 runs of
 * flight-search with five tries do not finish, 60,000 with one do): `resultsPerRun` multiplies it.
 */
export const KEPT_RUN_BYTES: Readonly<Record<KeepingCommand, number>> = { replay: 1300, replaySteps: 5200, check: 800, project: 700, whatif: 750, fit: 1700 };

/** The label a command's kept results are said under. */
const COMMAND_WORDS: Readonly<Record<KeepingCommand, string>> = { replay: 'replay', replaySteps: 'replay with every call\'s row', whatif: 'whatif', check: 'check', project: 'project', fit: 'fit --report' };

/** The commands whose runs `loopcost sweep` could stream instead (the same runs under the same brakes). */
const SWEEP_INSTEAD: ReadonlySet<KeepingCommand> = new Set(['replay', 'replaySteps', 'whatif', 'check']);

/** Heap the process needs besides the runs (code, price tables, inputs), left out of what runs may use. */
export const HEAP_RESERVE_BYTES = 64 * 1024 * 1024;

/** Most runs `command` can keep in a heap of `heapLimitBytes` (V8's heap_size_limit), `resultsPerRun` results each (whatif: its tries and the baseline). */
export function mostKeptRuns(command: KeepingCommand, heapLimitBytes: number, resultsPerRun = 1): number {
  return Math.max(0, Math.floor((heapLimitBytes - HEAP_RESERVE_BYTES) / (KEPT_RUN_BYTES[command] * resultsPerRun)));
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
export function keptRunsIssue(args: { command: KeepingCommand; runs: number; heapLimitBytes: number; place: RunsPlace; resultsPerRun?: number }): InputIssue | undefined {
  const { command, runs, heapLimitBytes, place } = args;
  const resultsPerRun = args.resultsPerRun ?? 1;
  const most = mostKeptRuns(command, heapLimitBytes, resultsPerRun);
  if (runs <= most) return undefined;
  const kept = runs * KEPT_RUN_BYTES[command] * resultsPerRun;
  const stream = SWEEP_INSTEAD.has(command) ? ', or run `loopcost sweep` (it streams its runs, keeping no run\'s result)' : '';
  return {
    ...place,
    code: 'too_many_runs',
    message: `${runs.toLocaleString('en-US')} runs would keep about ${megabytes(kept)} of results in memory (${COMMAND_WORDS[command]} holds every run's ${resultsPerRun > 1 ? `${resultsPerRun} results` : 'result'} until it reports), more than the ${megabytes(heapLimitBytes)} heap Node has here`,
    hint: `give at most ${most.toLocaleString('en-US')} runs${stream}, or raise the heap (NODE_OPTIONS=--max-old-space-size=MB)`,
  };
}
