/**
 * A check baseline scenario's figures held to what runs can make of them (metrics/population.ts
 * tallyMetrics), as a sweep shard's are (report/sweepShardSchema.ts rowProblems; the rules they share:
 * metrics/costFigureRules.ts): a mean past the most a run cost, a p50 past the p95, a completion rate no
 * whole number of the runs makes, spend per completed run with none completed, stop counts past the runs.
 * A baseline edited into such figures was compared with as if a check had measured them, every figure
 * reported as drift; it is refused instead (baselineFile.ts), each problem naming its field. So is a
 * baseline that holds no scenario: it gates nothing.
 *
 * Each rule checks only figures of the right type (the schema says what else is wrong); none reads the
 * figures a check writes beside them without a rule (`worstCasePerRunUsd` is the brakes' bound, not the runs').
 */
import type { z } from 'zod';
import type { InputIssue } from '../errors.js';
import { costQuantilesProblem, meanOfTotal, perCompletedProblem } from '../metrics/costFigureRules.js';
import { picoToUsd } from '../money.js';
import { RUN_KEY } from './baselineExpectations.js';
import { shellWord } from '../report/settings.js';

/** The code of a problem said here (baselineFile.ts gives it its hint), as a shard's figures that disagree. */
export const INCONSISTENT_FIGURES = 'inconsistent_figures';

interface StoredFigures {
  runs: number;
  completionRate: number;
  falseStopRate: number | null;
  wastedShare: number;
  costUsd: number;
  costPerRunUsd: { mean: number; p50: number; p95: number; max: number };
  costPerCompletedUsd: number | null;
}

interface StoredScenario {
  figures: StoredFigures;
  syntheticRuns?: number | undefined;
  recordedRuns?: number | undefined;
  expectations: Record<string, unknown>;
}

/** A problem's field (within the scenario) and what is wrong. */
type At = (field: readonly string[], message: string) => void;

/** A sum of picodollar amounts as USD is at least each amount (to a float's rounding and half a picodollar). */
const atMost = (part: number, whole: number): boolean => part <= whole * (1 + 2 ** -48) + 0.5e-12;

function costProblems(figures: StoredFigures, at: At): void {
  const { runs, costUsd } = figures;
  const { mean, max } = figures.costPerRunUsd;
  const quantiles = costQuantilesProblem(figures.costPerRunUsd);
  if (quantiles !== undefined) at(['figures', 'costPerRunUsd'], quantiles);
  if (!meanOfTotal({ totalUsd: costUsd, meanUsd: mean, runs })) at(['figures', 'costUsd'], `is ${costUsd}, not costPerRunUsd.mean × runs (${mean} × ${runs})`);
  else if (!atMost(max, costUsd)) at(['figures', 'costPerRunUsd', 'max'], `is ${max}, more than costUsd ${costUsd}, what all ${runs} runs cost together`);
}

/** The runs that completed: completionRate × runs, when a whole number of them makes the rate (completed / runs). */
function completedRuns(figures: StoredFigures, at: At): number | undefined {
  const { runs, completionRate: rate } = figures;
  // Runs that are no count or a rate past [0, 1]: the schema says so.
  if (!(Number.isInteger(runs) && runs >= 0 && rate >= 0 && rate <= 1)) return undefined;
  const completed = runs === 0 ? 0 : Math.round(rate * runs);
  if ((runs === 0 ? 0 : completed / runs) === rate) return completed;
  at(['figures', 'completionRate'], runs === 0 ? `is ${rate} of no runs: 0 when there are none` : `is ${rate}, which no whole number of the ${runs} runs completing makes (completed / runs)`);
  return undefined;
}

/** What the runs that completed (`completed` of them) make of the spend per completed run, the wasted share and the false stops. */
function completionProblems(figures: StoredFigures, completed: number, at: At): void {
  const { runs, costUsd, costPerCompletedUsd: perCompleted, wastedShare, falseStopRate } = figures;
  const nullProblem = perCompletedProblem({ perCompletedUsd: perCompleted, completed });
  if (nullProblem !== undefined) at(['figures', 'costPerCompletedUsd'], nullProblem);
  else if (perCompleted !== null && !meanOfTotal({ totalUsd: costUsd, meanUsd: perCompleted, runs: completed })) {
    at(['figures', 'costPerCompletedUsd'], `is ${perCompleted}, not costUsd over the ${completed} completed runs (${costUsd} / ${completed})`);
  }
  const wasted = costUsd === 0 ? [0, 'nothing was spent'] : completed === runs ? [0, 'every run completed, so no spend was wasted'] : completed === 0 ? [1, "no run completed, so every run's cost was wasted"] : undefined;
  if (wasted !== undefined && wastedShare !== wasted[0]) at(['figures', 'wastedShare'], `is ${wastedShare}, not ${wasted[0]}: ${wasted[1]}`);
  if (falseStopRate !== null && runs === 0) at(['figures', 'falseStopRate'], `is ${falseStopRate} of no runs: null when no run completes without brakes`);
  else if (falseStopRate !== null && falseStopRate > 0 && completed === runs) at(['figures', 'falseStopRate'], `is ${falseStopRate}, but every run completed: a false stop is a run a brake stopped`);
}

const isNumber = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);
const isRange = (value: unknown): value is { min: number; max: number } => typeof value === 'object' && value !== null && isNumber((value as { min?: unknown }).min) && isNumber((value as { max?: unknown }).max);

/** One per-run expectation's measured value against the figures: `key` is `runs.<x>` or `behaviours.<name>.<x>`, `expectation` its x. */
function expectationProblems(scenario: StoredScenario, key: string, costs: 'usd' | 'pico', at: At): void {
  const expectation = RUN_KEY.exec(key)?.[1];
  const value = scenario.expectations[key];
  const { runs } = scenario.figures;
  if (expectation === 'stopReason' && typeof value === 'object' && value !== null) {
    const counted = Object.values(value).reduce<number>((sum, n) => sum + (isNumber(n) ? n : 0), 0);
    if (counted > runs) at(['expectations', key], `counts ${counted} runs, more than the ${runs} runs of figures.runs`);
    return;
  }
  if (expectation === undefined || expectation === 'stopReason' || !(value === null || isRange(value))) return;
  // `runs.…` is over every run: no range only with no runs (a behaviour may have none of them).
  if (key.startsWith('runs.') && (value === null) !== (runs === 0)) at(['expectations', key], value === null ? `is null (no runs), but figures.runs is ${runs}` : 'is a range of runs, but figures.runs is 0');
  if (expectation !== 'costUsd' || value === null) return;
  const mostUsd = costs === 'pico' && Number.isSafeInteger(value.max) && value.max >= 0 ? picoToUsd(value.max) : value.max;
  const { max } = scenario.figures.costPerRunUsd;
  if (!atMost(mostUsd, max)) at(['expectations', key, 'max'], `is ${value.max}${costs === 'pico' ? ' picodollars' : ''}, more than the most a run cost (figures.costPerRunUsd.max ${max})`);
}

/** Every problem of one baseline scenario's figures, and of what else it says of its runs against them. */
export function scenarioFigureProblems(scenario: StoredScenario, costs: 'usd' | 'pico'): { path: string[]; message: string }[] {
  const problems: { path: string[]; message: string }[] = [];
  const at: At = (path, message) => problems.push({ path: [...path], message });
  const { figures, syntheticRuns, recordedRuns } = scenario;
  costProblems(figures, at);
  const completed = completedRuns(figures, at);
  if (completed !== undefined) completionProblems(figures, completed, at);
  if (syntheticRuns !== undefined && recordedRuns !== undefined && syntheticRuns + recordedRuns !== figures.runs) {
    at(['syntheticRuns'], `and recordedRuns (${syntheticRuns} + ${recordedRuns}) are not the ${figures.runs} runs of figures.runs`);
  }
  for (const key of Object.keys(scenario.expectations)) expectationProblems(scenario, key, costs, at);
  return problems;
}

/** The fields the rules read besides the expectations (whose values each rule checks the type of). */
const READ = new Set<PropertyKey>(['figures', 'syntheticRuns', 'recordedRuns']);

/**
 * scenarioFigureProblems as a zod refinement of a baseline scenario (baselineFile.ts), each problem an issue
 * naming its field. A scenario with a figure of the wrong type or range (or past what its runs can cost:
 * baselineFile.ts overRuns) is not checked further, the schema saying what is wrong, as a shard's row is not
 * (report/sweepShard.ts).
 */
export const checkScenarioFigures =
  (costs: 'usd' | 'pico') =>
  (scenario: StoredScenario, ctx: z.RefinementCtx): void => {
    if (ctx.issues.some((issue) => READ.has(issue.path?.[0] ?? ''))) return;
    for (const { path, message } of scenarioFigureProblems(scenario, costs)) ctx.addIssue({ code: 'custom', path, message, params: { code: INCONSISTENT_FIGURES } });
  };

/** What to do about figures no runs make: they were edited, so write them again. */
export function inconsistentHint(path: string): string {
  return `no runs make these figures (was the file edited?): write the baseline again with \`loopcost check SCENARIOS --update-baseline ${shellWord(path)}\``;
}

/** A baseline that holds no scenario gates nothing: every check against it would pass, \`0 of 0 baseline scenarios matched\`. */
export function noScenarios(file: { scenarios: readonly unknown[] }, path: string): InputIssue[] {
  if (file.scenarios.length > 0) return [];
  return [
    {
      file: path,
      field: 'scenarios',
      code: 'no_scenarios',
      message: 'holds no scenario: a baseline with none gates nothing (every check against it passes, 0 of 0 scenarios matched)',
      hint: `write it with \`loopcost check SCENARIOS --update-baseline ${shellWord(path)}\` over the scenarios it is to gate`,
    },
  ];
}
