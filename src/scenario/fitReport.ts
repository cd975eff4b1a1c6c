/**
 * Recorded runs and a fitted profile's synthetic runs side by side: p10/p50/p90/p95/max of cost per
 * run, steps per run and prompt tokens at the last call, with each relative gap, the completion share
 * of each, the runs of each whose every call failed at the provider ($0: what a p10 of $0 is; the group fit
 * keeps the recorded ones in), and the runs of each that ended at the context window (refused by their
 * provider for length: fitWindow.ts), and, when every recorded run carries its ground truth (generated runs), the
 * share of each that did its task (fitGaveUp.ts).
 */
import { picoToUsd } from '../money.js';
import type { RunResult } from '../replay/replay.js';
import { counted } from '../plural.js';
import { allCallsFailed } from '../report/render.js';
import { quantile } from '../synthetic/distributions.js';

export const FIT_QUANTILES = [['p10', 0.1], ['p50', 0.5], ['p90', 0.9], ['p95', 0.95], ['max', 1]] as const;
export type QuantileName = (typeof FIT_QUANTILES)[number][0];

export const FIT_METRICS = Object.freeze({
  costPerRunUsd: (run: RunResult) => picoToUsd(run.costPico),
  stepsPerRun: (run: RunResult) => run.steps,
  /** Prompt of the last call that reached the model (a call failed at the provider sent nothing billable). */
  promptTokensAtLastCall: (run: RunResult) => [...run.rows].reverse().find((row) => !row.failed)?.inputTokens ?? 0,
} as const);
export type FitMetric = keyof typeof FIT_METRICS;

export interface QuantileRow {
  metric: FitMetric;
  quantile: QuantileName;
  recorded: number;
  synthetic: number;
  /** (synthetic − recorded) / recorded; null when recorded is 0. */
  relativeGap: number | null;
}

export interface FitComparison {
  recordedRuns: number;
  syntheticRuns: number;
  completion: { recorded: number; synthetic: number; gapPoints: number };
  /** Runs that did their task with no brakes, by their ground truth: only when every recorded run carries one (generated runs). */
  tasksDone?: { recorded: number; synthetic: number; gapPoints: number };
  rows: QuantileRow[];
  /**
   * Runs whose every call failed at the provider (report/render.ts allCallsFailed): nothing billed, $0;
   * `recordedAtWindow`: the recorded ones whose last call their provider refused for its length (fit keeps them
   * in the context window group, the others in the provider error group).
   */
  allCallsFailed: { recorded: number; synthetic: number; recordedAtWindow: number };
  /** Runs that ended at the context window: their provider refused a prompt + max_tokens past it (`provider_refused`). */
  refusedAtWindow: { recorded: number; synthetic: number };
}

export function quantilesOf(values: readonly number[]): Record<QuantileName, number> {
  const sorted = [...values].sort((a, b) => a - b);
  return Object.fromEntries(FIT_QUANTILES.map(([name, p]) => [name, quantile(sorted, p)])) as Record<QuantileName, number>;
}

const completionShare = (runs: readonly RunResult[]) => runs.filter((r) => r.stopReason === 'completed').length / runs.length;

/**
 * The share of runs that did their task, recorded (`recordedTasksDone`: each run's ground truth, in order) and
 * synthetic; undefined unless every recorded run carries its ground truth.
 */
function tasksDoneOf(recordedTasksDone: readonly (boolean | undefined)[], synthetic: readonly RunResult[]): FitComparison['tasksDone'] {
  if (recordedTasksDone.length === 0 || recordedTasksDone.some((done) => done === undefined)) return undefined;
  const recorded = recordedTasksDone.filter((done) => done === true).length / recordedTasksDone.length;
  const done = synthetic.filter((run) => run.synthetic?.taskDone === true).length / synthetic.length;
  return { recorded, synthetic: done, gapPoints: (done - recorded) * 100 };
}

/**
 * Both sets must have been run with keepSteps (for the last call's prompt); `recordedTasksDone`: each recorded
 * run's ground truth (header.synthetic.taskDone), undefined for a recording.
 */
export function compareRuns(recorded: readonly RunResult[], synthetic: readonly RunResult[], recordedTasksDone: readonly (boolean | undefined)[] = []): FitComparison {
  const rows: QuantileRow[] = [];
  for (const metric of Object.keys(FIT_METRICS) as FitMetric[]) {
    const r = quantilesOf(recorded.map(FIT_METRICS[metric]));
    const s = quantilesOf(synthetic.map(FIT_METRICS[metric]));
    for (const [name] of FIT_QUANTILES) {
      rows.push({ metric, quantile: name, recorded: r[name], synthetic: s[name], relativeGap: r[name] === 0 ? null : (s[name] - r[name]) / r[name] });
    }
  }
  const rc = completionShare(recorded);
  const sc = completionShare(synthetic);
  const failed = { recorded: recorded.filter(allCallsFailed).length, synthetic: synthetic.filter(allCallsFailed).length, recordedAtWindow: recorded.filter((run) => allCallsFailed(run) && endedAtWindow(run)).length };
  const refused = { recorded: recorded.filter(endedAtWindow).length, synthetic: synthetic.filter(endedAtWindow).length };
  const tasksDone = tasksDoneOf(recordedTasksDone, synthetic);
  const completion = { recorded: rc, synthetic: sc, gapPoints: (sc - rc) * 100 };
  return { recordedRuns: recorded.length, syntheticRuns: synthetic.length, completion, ...(tasksDone === undefined ? {} : { tasksDone }), rows, allCallsFailed: failed, refusedAtWindow: refused };
}

const endedAtWindow = (run: RunResult) => run.stopReason === 'provider_refused';

/**
 * The runs that ended at the context window, recorded and synthetic, and the profile's group of the recorded
 * ones (`group`: fitWindow.ts CONTEXT_WINDOW_GROUP). Empty when no run of either did.
 */
export function refusedAtWindowLine(c: Pick<FitComparison, 'refusedAtWindow' | 'recordedRuns' | 'syntheticRuns'>, group: string): string {
  const { recorded, synthetic } = c.refusedAtWindow;
  if (recorded === 0 && synthetic === 0) return '';
  const share = (count: number, of: number) => `${count.toLocaleString('en-US')} of ${of.toLocaleString('en-US')}`;
  return (
    `context window: ${share(recorded, c.recordedRuns)} recorded runs and ${share(synthetic, c.syntheticRuns)} synthetic ones ended refused at it (provider_refused); ` +
    (recorded === 0
      ? "no recorded run was: the synthetic ones' prompts grew past the window their model is held to"
      : `the recorded ones are the profile's '${group}' group (its comments say how it was fitted)`)
  );
}

/** The profile's groups the recorded $0 runs may be kept in: fit.ts PROVIDER_ERROR_GROUP and fitWindow.ts CONTEXT_WINDOW_GROUP. */
export interface ZeroRunGroups {
  providerError: string;
  contextWindow: string;
}

/**
 * What the $0 costs are, when recorded runs failed at the provider from their first call on: fit keeps
 * them in the profile's group of runs that end on a failed call (`groups.providerError`), or, those whose
 * provider refused that call for its length, in its context window group (`groups.contextWindow`); the
 * synthetic runs of either fail alike. Empty when no recorded run did.
 */
export function allCallsFailedLine(c: Pick<FitComparison, 'allCallsFailed' | 'recordedRuns' | 'syntheticRuns'>, groups: ZeroRunGroups): string {
  const { recorded, synthetic } = c.allCallsFailed;
  if (recorded === 0) return '';
  const n = (count: number) => count.toLocaleString('en-US');
  return (
    `$0 runs: ${n(recorded)} of ${counted(c.recordedRuns, 'recorded run')} failed at their first call (every call failed at the provider: nothing billed); ` +
    `fit keeps them in ${zeroRunGroups(c.allCallsFailed, groups)}, whose synthetic runs fail alike (${n(synthetic)} of ${n(c.syntheticRuns)}): they are the $0 at the low cost quantiles`
  );
}

/** Where fit keeps the recorded $0 runs: the provider error group, the context window group (refused for length), or both (how many in each). */
function zeroRunGroups(failed: FitComparison['allCallsFailed'], groups: ZeroRunGroups): string {
  const atWindow = failed.recordedAtWindow;
  const atError = failed.recorded - atWindow;
  const refused = 'refused for length at their first call';
  if (atWindow === 0) return `the profile's '${groups.providerError}' group`;
  if (atError === 0) return `the profile's '${groups.contextWindow}' group (${refused})`;
  return `the profile's '${groups.providerError}' group (${atError.toLocaleString('en-US')}) and its '${groups.contextWindow}' group (${atWindow.toLocaleString('en-US')}, ${refused})`;
}
