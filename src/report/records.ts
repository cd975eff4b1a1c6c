/**
 * Report records: what JSON, CSV and tables show of a replay. Money leaves picodollars only here, as
 * exact decimals.
 */
import { maxOutputTokensSent, type BrakeConfig } from '../brakes/config.js';
import { contextSpecOf, type ContextStrategy } from '../context/strategy.js';
import { meanPico, picoToUsd } from '../money.js';
import type { RunResult } from '../replay/replay.js';
import type { MeteredTotals, StepRow } from '../loop/types.js';
import { meteredTotals } from '../loop/accounts.js';
import { costPerCompletedPico, type Summary } from '../replay/summary.js';
import { strategyFigureRecord, type StrategyFigureRecord } from './strategyFigureNames.js';
import { defaultCacheSpec } from './runsTook.js';
import { tasksDoneOf, type DoneCounts } from '../population/recommendRuns.js';
import type { TasksDone } from '../population/sweep.js';

/** A run as a report gives it: its calls as metered (MeteredTotals) by the names every report gives them, among the rest. */
export interface RunRecord extends StrategyFigureRecord, MeteredTotals {
  source: string;
  task?: string;
  model: string;
  recordedModel: string;
  stopReason: string;
  stopDetail: string;
  /** The predictive budget bound refused the call the run stopped at: present (true) only then. */
  stopByPredictiveBound?: true;
  steps: number;
  modelCalls: number;
  recordedCalls: number;
  backtracks: number;
  costUsd: number;
  overshootUsd: number;
  elapsedSeconds: number;
  cache: string;
  recordedOutcome: string;
  recordedStatus?: string;
  recordedCostUsd?: number;
  recordedInputTokens?: number;
  inputTokenDelta?: number;
  importNotes?: string[];
  /** With --cache on: why caching saved less than the unchanged prefix suggests. */
  cacheNotes?: string[];
  /** With --cache on: unchanged prompt tokens the provider's minimum cacheable prefix kept out of the cache. */
  cacheRuleLostTokens?: number;
  /** The day the run's dated prices were read at (its recording day, the table's release day, or --prices-as-of). */
  pricedAsOf?: string;
  /** One entry per model call, when asked for (`--per-step`). */
  perStep?: StepRecord[];
}

export interface StepRecord {
  call: number;
  step: number;
  inputTokens: number;
  cachedInputTokens: number;
  cacheWriteTokens: number;
  /** Of cacheWriteTokens, those written for an hour; absent when none. */
  cacheWrite1hTokens?: number;
  outputTokens: number;
  costUsd: number;
  cumulativeInputTokens: number;
  cumulativeOutputTokens: number;
  cumulativeCostUsd: number;
  modelInputTokens: number;
  recordedInputTokens?: number;
  backtrack?: boolean;
  failed?: boolean;
  /** A summary call (context `summary`/`hybrid`): not a step; `step` is the steps made before it. */
  summary?: boolean;
  /** The tools the call asked for, in order (never their arguments); absent when none. */
  tools?: string[];
  /** Tokens those tools' results added to the context as they entered it (past the tool-result cap; a skipped tool's warning in its place). */
  toolResultTokens?: number;
  /** Those results before the tool-result cap: only when the cap cut one. */
  toolResultTokensBeforeCap?: number;
  /** The tools the duplicate-action guard skipped (not run); absent when none. */
  skippedTools?: string[];
}

export function stepRecord(row: StepRow): StepRecord {
  const { costPico, cumulativeCostPico, ...rest } = row;
  const record: StepRecord = {
    call: rest.call,
    step: rest.step,
    inputTokens: rest.inputTokens,
    cachedInputTokens: rest.cachedInputTokens,
    cacheWriteTokens: rest.cacheWriteTokens,
    outputTokens: rest.outputTokens,
    costUsd: picoToUsd(costPico),
    cumulativeInputTokens: rest.cumulativeInputTokens,
    cumulativeOutputTokens: rest.cumulativeOutputTokens,
    cumulativeCostUsd: picoToUsd(cumulativeCostPico),
    modelInputTokens: rest.modelInputTokens,
  };
  if (rest.cacheWrite1hTokens !== undefined) record.cacheWrite1hTokens = rest.cacheWrite1hTokens;
  if (rest.recordedInputTokens !== undefined) record.recordedInputTokens = rest.recordedInputTokens;
  if (rest.backtrack) record.backtrack = true;
  if (rest.failed) record.failed = true;
  if (rest.summary) record.summary = true;
  if (rest.tools !== undefined) {
    record.tools = rest.tools;
    record.toolResultTokens = rest.toolResultTokens!;
  }
  if (rest.toolResultTokensBeforeCap !== undefined) record.toolResultTokensBeforeCap = rest.toolResultTokensBeforeCap;
  if (rest.skippedTools !== undefined) record.skippedTools = rest.skippedTools;
  return record;
}

export function runRecord(run: RunResult, perStep = false): RunRecord {
  const record: RunRecord = {
    source: run.source,
    model: run.model,
    recordedModel: run.recordedModel,
    stopReason: run.stopReason,
    stopDetail: run.stopDetail,
    ...(run.stopByPredictiveBound === true ? { stopByPredictiveBound: true as const } : {}),
    steps: run.steps,
    modelCalls: run.modelCalls,
    recordedCalls: run.recordedCalls,
    backtracks: run.backtracks,
    ...meteredTotals(run),
    costUsd: picoToUsd(run.costPico),
    overshootUsd: picoToUsd(run.overshootPico),
    elapsedSeconds: run.elapsedMs / 1000,
    cache: run.cache,
    recordedOutcome: run.recordedOutcome,
  };
  if (run.task !== undefined) record.task = run.task;
  if (run.recordedStatus !== undefined) record.recordedStatus = run.recordedStatus;
  if (run.recordedCostPico !== undefined) record.recordedCostUsd = picoToUsd(run.recordedCostPico);
  if (run.recordedInputTokens !== undefined) {
    record.recordedInputTokens = run.recordedInputTokens;
    record.inputTokenDelta = run.inputTokenDelta!;
  }
  if (run.importNotes !== undefined) record.importNotes = run.importNotes;
  if (run.cacheNotes !== undefined) record.cacheNotes = run.cacheNotes;
  if (run.cacheRuleLostTokens > 0) record.cacheRuleLostTokens = run.cacheRuleLostTokens;
  // Context summary calls, their cost; prompt tokens masking or a summary moved out of the cached prefix; actions skipped.
  Object.assign(record, strategyFigureRecord(run));
  if (perStep) record.perStep = run.rows.map(stepRecord);
  return record;
}

export interface SummaryRecord extends StrategyFigureRecord {
  runs: number;
  /** Runs whose stop reason is `completed`, and their share. */
  completed: number;
  completionRate: number;
  /** Where runs carry ground truth (scenario files' synthetic runs, generated traces): tasks done, as a sweep row's `tasksDone`. */
  tasksDone?: TasksDone;
  totalCostUsd: number;
  meanCostPerRunUsd: number | null;
  /** All spend over the runs that ended `completed` (formerly `costPerCompletedTaskUsd`); per task done: `tasksDone.costPerDoneUsd`. */
  costPerCompletedRunUsd: number | null;
  wastedUsd: number;
  totalOvershootUsd: number;
  maxOvershootUsd: number;
  steps: number;
  inputTokens: number;
  cachedInputTokens: number;
  outputTokens: number;
  stopReasons: Record<string, number>;
  recordedCostUsd?: number;
}

/** The summary as a report gives it; `doneCounts`: its runs with ground truth judged (replayFalseStops.ts FalseStopTally), for `tasksDone`. */
export function summaryRecord(summary: Summary, doneCounts?: DoneCounts): SummaryRecord {
  const perCompleted = costPerCompletedPico(summary);
  const record: SummaryRecord = {
    runs: summary.runs,
    completed: summary.completed,
    completionRate: summary.completionRate,
    ...(doneCounts === undefined ? {} : { tasksDone: tasksDoneOf({ runs: summary.runs, completed: summary.completed, totalPico: summary.totalCostPico }, doneCounts) }),
    totalCostUsd: picoToUsd(summary.totalCostPico),
    meanCostPerRunUsd: summary.runs === 0 ? null : picoToUsd(meanPico(summary.totalCostPico, summary.runs)),
    costPerCompletedRunUsd: perCompleted === undefined ? null : picoToUsd(perCompleted),
    wastedUsd: picoToUsd(summary.wastedPico),
    totalOvershootUsd: picoToUsd(summary.totalOvershootPico),
    maxOvershootUsd: picoToUsd(summary.maxOvershootPico),
    steps: summary.steps,
    inputTokens: summary.inputTokens,
    cachedInputTokens: summary.cachedInputTokens,
    outputTokens: summary.outputTokens,
    stopReasons: summary.stopReasons,
  };
  if (summary.recordedCostPico !== undefined) record.recordedCostUsd = picoToUsd(summary.recordedCostPico);
  Object.assign(record, strategyFigureRecord(summary));
  return record;
}

/** The brake settings as a report shows them (USD and seconds, unset brakes left out). */
export function brakeSettingsRecord(brakes: BrakeConfig): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (brakes.maxSteps !== undefined) out.maxSteps = brakes.maxSteps;
  if (brakes.maxCostPico !== undefined) {
    out.maxCostUsd = picoToUsd(brakes.maxCostPico);
    out.budgetMode = brakes.budgetMode;
    if (brakes.budgetMode === 'predict') out.maxOutputTokens = maxOutputTokensSent(brakes);
  }
  if (brakes.timeoutMs !== undefined) out.timeoutSeconds = brakes.timeoutMs / 1000;
  if (brakes.maxRepeat !== undefined) {
    out.maxRepeat = brakes.maxRepeat;
    out.repeatMode = brakes.repeatMode;
    if (brakes.repeatAction !== undefined) out.repeatAction = brakes.repeatAction;
    if (brakes.maxSkips !== undefined) out.maxSkips = brakes.maxSkips;
    if (brakes.skipWarningTokens !== undefined) out.skipWarningTokens = brakes.skipWarningTokens;
  }
  if (brakes.maxSameError !== undefined) {
    out.maxSameError = brakes.maxSameError;
    out.sameErrorMode = brakes.sameErrorMode;
  }
  if (brakes.maxTokens !== undefined) out.maxTokens = brakes.maxTokens;
  if (brakes.maxBacktracks !== undefined) out.maxBacktracks = brakes.maxBacktracks;
  if (brakes.contextWindow !== undefined) out.contextWindow = brakes.contextWindow;
  // Under `model` the max_tokens sent counts against the window (as the predictive bound counts it).
  if (brakes.contextWindow === 'model') out.maxOutputTokens = maxOutputTokensSent(brakes);
  // Else the max_tokens given (where a synthetic agent's provider cuts its output), as settings.spec names it.
  else if (out.maxOutputTokens === undefined && brakes.maxOutputTokens !== undefined) out.maxOutputTokens = brakes.maxOutputTokens;
  return out;
}

/** The context settings; the cache `--cache` (or a scenario file) gave, else `runsCache`: what the runs took (runsTook.ts), as the settings line says it. */
export function contextSettingsRecord(strategy: ContextStrategy, runsCache: string = defaultCacheSpec()): Record<string, unknown> {
  const out: Record<string, unknown> = { context: contextSpecOf(strategy) };
  if (strategy.toolResultCap !== undefined) out.toolResultCap = strategy.toolResultCap;
  out.cache = strategy.cache ?? runsCache;
  return out;
}
