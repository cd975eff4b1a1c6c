/**
 * What `loopcost merge` accepts as a shard: the JSON report `loopcost sweep --shard K/N --format json`
 * writes (src/cli/actions/sweep.ts), as a zod schema. Every figure is typed and bounded (counts whole and
 * not negative, money finite and not negative, rates in [0, 1]) and a row's figures agree with each other
 * (no more completed runs than runs, stop counts that add up to the runs), so a tampered or truncated shard
 * is refused naming its field instead of crashing the report or merging nonsense.
 *
 * The schema follows the report's types (SweepReport, SweepRow): the assertions at the end fail to compile
 * when a field is added to them and not here. Built on first use (zod schemas take a few ms to build).
 */
import { z } from 'zod';
import { STOP_REASONS } from '../brakes/stopReasons.js';
import { MAX_COUNT } from '../io/limits.js';
import { costQuantilesProblem, meanOfTotal, perCompletedProblem } from '../metrics/costFigureRules.js';
import { shardPricesSchema } from './sweepShardPrices.js';
import type { ReportSettings } from './settings.js';
import type { HalfStepCap, SweepReport, SweepRow, SweepShard } from './sweepReport.js';

/** Largest USD figure a shard may hold: a quadrillion dollars (formatted exactly; a real sweep stays far below). */
export const MAX_SHARD_USD = 1e15;

const count = () => z.number().int().nonnegative().max(MAX_COUNT);
const usd = () => z.number().nonnegative().max(MAX_SHARD_USD);
const rate = () => z.number().min(0).max(1);

function halfStepCapSchema() {
  return z.strictObject({ maxSteps: count().min(1), completed: count(), completionRate: rate(), costUsd: usd(), done: count().optional(), doneRate: rate().optional() });
}

/** A row's tasks done (population/sweep.ts TasksDone): where some of its runs carry ground truth. */
function tasksDoneSchema() {
  return z.strictObject({ done: count(), doneRate: rate(), costPerDoneUsd: usd().nullable(), groundTruthRuns: count().min(1), completedNotDone: count(), doneNotCompleted: count() });
}

function rowShape() {
  return {
    settings: z.string(),
    flags: z.string(),
    brakes: z.string(),
    context: z.string(),
    toolResultCap: count().optional(),
    cache: z.string(),
    model: z.string().optional(),
    halfStepCap: halfStepCapSchema().optional(),
    runs: count(),
    completed: count(),
    completionRate: rate(),
    costUsd: usd(),
    costPerRunUsd: z.strictObject({ mean: usd(), p50: usd(), p95: usd(), max: usd() }),
    costPerCompletedUsd: usd().nullable(),
    wastedUsd: usd(),
    wastedShare: rate(),
    falseStops: count(),
    falseStopRate: rate().nullable(),
    caughtEarly: count(),
    savedUsd: usd(),
    stopReasons: z.partialRecord(z.enum(STOP_REASONS), count()),
    predictiveBudgetStops: count().min(1).optional(),
    tokens: z.strictObject({ input: count(), cached: count(), output: count() }),
    overshootUsd: usd(),
    baselineCostUsd: usd(),
    summaryCalls: count().optional(),
    summaryCostUsd: usd().optional(),
    strategyCacheLostTokens: count().optional(),
    skippedActions: count().optional(),
    tasksDone: tasksDoneSchema().optional(),
    subagentsStopped: count().optional(),
  };
}

type RowShape = z.infer<z.ZodObject<ReturnType<typeof rowShape>>>;
/** A figure of a row that disagrees with others: its field within the row, what is wrong. */
export type RowProblem = { field: string; message: string };

/** What a row's figures (each of the right type) must agree on, as sweep computes them (src/metrics/tallyBuilder.ts). */
export function rowProblems(row: RowShape): RowProblem[] {
  const problems: RowProblem[] = [];
  const at = (field: string, message: string) => problems.push({ field, message });
  const { runs, completed } = row;
  if (completed > runs) at('completed', `is ${completed}, more than the ${runs} runs`);
  else if (row.completionRate !== (runs === 0 ? 0 : completed / runs)) at('completionRate', `is ${row.completionRate}, not completed / runs (${completed}/${runs})`);
  if (row.falseStops + row.caughtEarly > runs) at('falseStops', `and caughtEarly (${row.falseStops} + ${row.caughtEarly}) are more than the ${runs} runs`);
  const stops = Object.values(row.stopReasons).reduce<number>((sum, n) => sum + (n ?? 0), 0);
  if (stops !== runs) at('stopReasons', `add up to ${stops} runs, not the ${runs} runs`);
  else if ((row.stopReasons.completed ?? 0) !== completed) at('stopReasons.completed', `is ${row.stopReasons.completed ?? 0}, not the ${completed} completed runs`);
  const predictive = row.predictiveBudgetStops ?? 0;
  if (predictive > (row.stopReasons.budget ?? 0)) at('predictiveBudgetStops', `is ${predictive}, more than the ${row.stopReasons.budget ?? 0} budget stops`);
  const perCompleted = perCompletedProblem({ perCompletedUsd: row.costPerCompletedUsd, completed });
  if (perCompleted !== undefined) at('costPerCompletedUsd', perCompleted);
  const quantiles = costQuantilesProblem(row.costPerRunUsd);
  if (quantiles !== undefined) at('costPerRunUsd', quantiles);
  moneyProblems(row, at);
  if (row.halfStepCap !== undefined && row.halfStepCap.completed > runs) at('halfStepCap.completed', `is ${row.halfStepCap.completed}, more than the ${runs} runs`);
  if (row.halfStepCap?.done !== undefined && row.halfStepCap.done > runs) at('halfStepCap.done', `is ${row.halfStepCap.done}, more than the ${runs} runs`);
  if (row.tasksDone !== undefined) tasksDoneProblems(row, row.tasksDone, at);
  if (row.subagentsStopped !== undefined && row.subagentsStopped > runs) at('subagentsStopped', `is ${row.subagentsStopped}, more than the ${runs} runs`);
  return problems;
}

/** A row's tasks done against its runs and completions, as sweep counts them (population/sweep.ts tasksDoneOf). */
function tasksDoneProblems(row: RowShape, tasks: NonNullable<RowShape['tasksDone']>, at: (field: string, message: string) => void): void {
  const { runs, completed } = row;
  if (tasks.groundTruthRuns > runs) return at('tasksDone.groundTruthRuns', `is ${tasks.groundTruthRuns}, more than the ${runs} runs`);
  if (tasks.completedNotDone > Math.min(completed, tasks.groundTruthRuns)) return at('tasksDone.completedNotDone', `is ${tasks.completedNotDone}, more than the completed runs with ground truth`);
  if (tasks.doneNotCompleted > Math.min(runs - completed, tasks.groundTruthRuns)) return at('tasksDone.doneNotCompleted', `is ${tasks.doneNotCompleted}, more than the runs with ground truth not completed`);
  if (tasks.done !== completed - tasks.completedNotDone + tasks.doneNotCompleted) return at('tasksDone.done', `is ${tasks.done}, not completed − completedNotDone + doneNotCompleted`);
  if (tasks.doneRate !== (runs === 0 ? 0 : tasks.done / runs)) at('tasksDone.doneRate', `is ${tasks.doneRate}, not done / runs (${tasks.done}/${runs})`);
  const perDone = perCompletedProblem({ perCompletedUsd: tasks.costPerDoneUsd, completed: tasks.done });
  if (perDone !== undefined) at('tasksDone.costPerDoneUsd', perDone);
}

/**
 * The money of a row against itself, as sweep writes it (src/metrics/population.ts tallyMetrics): costUsd the
 * exact sum of the runs' costs, mean that sum over the runs rounded half up to the picodollar (so mean × runs
 * is within half a picodollar a run of it), wastedUsd the costs of the runs not completed.
 */
function moneyProblems(row: RowShape, at: (field: string, message: string) => void): void {
  const { runs, costUsd, wastedUsd, completed } = row;
  const { mean } = row.costPerRunUsd;
  // With mean ≤ max (rowProblems), this also holds costUsd to at most max × runs.
  if (!meanOfTotal({ totalUsd: costUsd, meanUsd: mean, runs })) at('costUsd', `is ${costUsd}, not costPerRunUsd.mean × runs (${mean} × ${runs})`);
  if (wastedUsd > costUsd) at('wastedUsd', `is ${wastedUsd}, more than costUsd ${costUsd}`);
  else if (completed === 0 && wastedUsd !== costUsd) at('wastedUsd', `is ${wastedUsd}, not costUsd ${costUsd}: no run completed, so every run's cost is wasted`);
}

function rowSchema() {
  return z.strictObject(rowShape());
}

function headerShape() {
  const text = z.string();
  return {
    tool: z.strictObject({ name: z.literal('loopcost'), version: text }),
    command: z.literal('sweep'),
    settings: z.strictObject({ brakes: text, context: text, toolResultCap: text.optional(), cache: text, latency: text, model: text.optional() }),
    prices: shardPricesSchema(),
    grid: z.array(z.strictObject({ key: text, values: z.array(text).min(1) })),
    inputs: z.strictObject({
      recordedRuns: count(),
      syntheticRuns: count(),
      scenarios: z.array(z.strictObject({ source: text, runs: count(), seed: z.number().int(), latency: text })),
    }),
    targetCompletion: rate().optional(),
    maxFalseStops: rate().optional(),
    contextTokens: z
      .strictObject({
        strategies: z.array(text),
        runs: count(),
        steps: z.array(z.strictObject({ step: count().min(1), meanCumulativeInputTokens: z.array(count()) })),
      })
      .optional(),
    noBrakes: z.strictObject({ runs: count(), completed: count(), tasksDone: count().optional() }).optional(),
    notes: z.array(text),
    // A warning as the report gives it; inputs left out or given twice name their files (and the problems:
    // issues, each as a UserError's, kept as written).
    warnings: z.array(z.strictObject({ code: text, message: text, files: z.array(text).optional(), issues: z.array(z.strictObject({ file: text.optional(), line: z.number().int().positive().optional(), field: text.optional(), code: text, message: text, hint: text.optional() })).optional() })),
  };
}

/** A shard's resamples (SweepShard.resampled): each choice a grid index (-1: none), completed runs drawn and their cost (picodollars, finite, not negative). */
function resampledSchema() {
  const choice = z.tuple([z.number().int().min(-1).max(MAX_COUNT), count(), z.number().nonnegative().max(Number.MAX_VALUE)]);
  // With scenario files: the parts of the runs and what each stands for, each row's completed runs as those (standingRuns.ts).
  const part = z.strictObject({ runs: count(), standsFor: count(), source: z.string().optional(), fitted: z.boolean().optional() });
  return z.strictObject({ seed: count(), resamples: count().min(1), runs: count(), parts: z.array(part).optional(), completedStandingFor: z.array(count()).optional(), choices: z.array(choice).nullable() });
}

function shardSchema() {
  return z.strictObject({ index: count().min(1), of: count().min(1), from: count(), to: count(), configurations: count(), replayInputs: z.string().optional(), inputs: z.array(z.strictObject({ file: z.string(), sha256: z.string().regex(/^[0-9a-f]{64}$/).nullable() })), resampled: resampledSchema().optional() });
}

function buildSchema() {
  return z.strictObject({ ...headerShape(), shard: shardSchema(), configurations: z.array(rowSchema()) });
}

let built: ReturnType<typeof buildSchema> | undefined;

/** The schema of a shard's report (built once). */
export function sweepShardSchema(): ReturnType<typeof buildSchema> {
  return (built ??= buildSchema());
}

/** A shard's report: a sweep report with its shard, and no frontier or recommendation (merge works them out). */
export type SweepShardReport = Omit<SweepReport, 'shard' | 'pareto' | 'recommendation' | 'completionCounted'> & { shard: SweepShard };

// The schema and the report's types name the same fields: a field added to one and not the other fails here.
type SameKeys<A, B> = [Exclude<keyof A, keyof B>, Exclude<keyof B, keyof A>] extends [never, never] ? true : false;
type Parsed = z.infer<ReturnType<typeof buildSchema>>;
type Row = Parsed['configurations'][number];
const schemaFollowsTypes: [
  SameKeys<Parsed, SweepShardReport>,
  SameKeys<Row, SweepRow>,
  SameKeys<NonNullable<Row['halfStepCap']>, HalfStepCap>,
  SameKeys<Parsed['settings'], ReportSettings>,
  SameKeys<Parsed['shard'], SweepShard>,
] = [true, true, true, true, true];
// And what it accepts is a report (each field's type within the report's).
const parsedIsAReport = (parsed: Parsed): SweepShardReport => parsed;
void schemaFollowsTypes;
void parsedIsAReport;
