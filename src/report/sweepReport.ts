/**
 * The sweep report: one row per configuration of the grid (population figures, JSON names as in
 * src/metrics/population.ts), the pareto frontier, and with a target completion rate the recommendation
 * and what halving its step cap would change. A shard's report holds only its slice of the rows (no
 * frontier, no recommendation); `finishSweepReport` joins rows into the report a single run gives, so
 * `loopcost merge` of the shards is byte-identical to one run.
 */
import { LOOPCOST_VERSION } from '../version.js';
import type { BrakeConfig } from '../brakes/config.js';
import type { ContextTokenCurves } from '../population/contextTokens.js';
import { gridValuesOf, type GridAxis } from '../population/grid.js';
import type { SweepMetrics } from '../population/sweep.js';
import { countedRow, paretoIndices } from '../population/recommend.js';
import type { HowSure, Resampled } from '../population/recommendSureness.js';
import { recommendationOf, recommendRuleOf } from './sweepRecommendation.js';
import type { FewerFalseStops, NoBrakesComparison } from './sweepRecommendationFacts.js';
import { completionCountedOf, countedLabels, type CompletionCounted } from './sweepCounted.js';
import { sweepSummaryWarnings } from './summaryCallWarning.js';
import type { SweepOpenLoop } from './sweepOpenLoop.js';
import type { PricesRecord } from './pricedModels.js';
import { jsonPieces } from './jsonPieces.js';
import { renderSweepCsv, sweepCsvPieces } from './sweepCsv.js';
import { costPanel, plotAgainst } from './sweepChartPanels.js';
import type { InputsRecord } from './scenarios.js';
import type { ReportSettings } from './settings.js';
import { formatTable, type Column } from './table.js';
import { notesAndFooter, recommendationLines, renderSweepTable, sweepTablePieces } from './sweepTable.js';
import type { SweepShow } from './sweepShow.js';
import { printableCell, wrapLine } from './text.js';
import type { ReportView } from './view.js';
import type { ReportWarning } from './warnings.js';
import { counted } from '../plural.js';
import { baselineCostText } from './sweepBaselines.js';

/** A configuration with a step cap, halved (at least 1): what it would change. */
export interface HalfStepCap {
  maxSteps: number;
  completed: number;
  completionRate: number;
  costUsd: number;
  /** Where runs carry ground truth: its tasks done, as the recommendation counts them (the row's `tasksDone`). */
  done?: number;
  doneRate?: number;
}

export interface SweepRow extends SweepMetrics {
  /** The grid values of this configuration (`max-steps=10,max-repeat=3`). */
  settings: string;
  /** The command-line flags that reproduce it (`loopcost replay INPUTS <flags>`): the `--runs`/`--seed` given with scenario files, then the grid values and the flags given, as settingsFlags writes them. */
  flags: string;
  /** Its whole brake setting in `--try` syntax, the context (`--context`), tool-result cap and cache it ran with, and the model when re-priced. */
  brakes: string;
  context: string;
  toolResultCap?: number;
  cache: string;
  model?: string;
  /** With --target-completion, for configurations that reach it and have a step cap: the cap halved. */
  halfStepCap?: HalfStepCap;
}

export interface SweepRecommendation {
  settings: string;
  /** Its command-line flags (the row's `flags`): `loopcost replay INPUTS <flags>` reproduces its figures. */
  flags: string;
  /**
   * Every brake its figures assumed (the row's `brakes` read back: sweepBrakeConfig.ts), scenario files' own
   * included, which `flags` leave to the files, as runAgentLoop's `brakes` take them (picodollars, milliseconds,
   * every mode). null: its runs took several (scenario files' own that differ, or differ from trace files').
   */
  brakeConfig: BrakeConfig | null;
  targetCompletion: number;
  /**
   * Its completion rate as the recommendation counts it (the report's `completionCounted`): where runs carry
   * ground truth, its tasks done (its row's `tasksDone.doneRate`, not the row's `completionRate`).
   */
  completionRate: number;
  /** 95% Wilson interval of that completion rate on these runs: how far to trust it. */
  completionRateInterval: [number, number];
  /** Its cost per completed run as counted: per task done where runs carry ground truth (its row's `tasksDone.costPerDoneUsd`). */
  costPerCompletedUsd: number;
  costUsd: number;
  /** Its runs a brake stops that complete with no brakes (the row's), and their share of those runs (null: none completes with no brakes). */
  falseStops: number;
  falseStopRate: number | null;
  /** The configuration reaching the target with fewer false stops, and the --max-false-stops that picks it (sweepRecommendationFacts.ts). Absent: the pick stops none falsely, or none such reaches the target. */
  fewerFalseStops?: FewerFalseStops;
  /** Its runs with no brakes (its own baseline): completed as counted, spend, per completed run, and `dominates` when that beats the pick on both. */
  noBrakes: NoBrakesComparison;
  halfStepCap: HalfStepCap | null;
  /** The configurations that tie with it on these runs (the same completions and spend), in grid order: the tighter brakes won the tie (recommendTie.ts). Absent: none. */
  tiedWith?: string[];
  /** Its grid values recorded runs replay open loop (a context strategy, a tool-result cap, skip): what they cannot show, and the closed-loop way (sweepOpenLoop.ts). Absent: none. */
  openLoop?: SweepOpenLoop;
  /** The recommendation in plain sentences, a line per thing said (what text reports print, each line wrapped). */
  text: string;
  /** How sure the choice is: the share of paired resamples of the runs that pick it, and the runners-up (a line under the recommendation). */
  howSure?: HowSure;
}

/** What every shard of a sweep shares: the grid, settings, prices and inputs. */
export interface SweepHeader {
  tool: { name: 'loopcost'; version: string };
  command: 'sweep';
  settings: ReportSettings;
  /** Replay's prices block (pricedModels.ts pricesRecord) over the whole grid: a run priced as several models (`--grid model=`) counted under each. */
  prices: PricesRecord;
  grid: GridAxis[];
  inputs: InputsRecord;
  targetCompletion?: number;
  /** `--max-false-stops`: the recommendation's bound on its false-stop rate (falseStopRate: a share of the runs that complete with no brakes). */
  maxFalseStops?: number;
  /** With `context` a grid axis and recorded runs: each strategy's cumulative prompt tokens per step (the chart shows them side by side). */
  contextTokens?: ContextTokenCurves;
  /** What the runs complete with no brakes, when every configuration shares one baseline the sweep knows whole (synthetic runs alone: cli/actions/sweepCompletion.ts); said when no configuration reaches the target. */
  noBrakes?: { runs: number; completed: number; tasksDone?: number };
  /** What the figures mean, one line each. */
  notes: string[];
  warnings: ReportWarning[];
}

/** An input file of a shard (as reports name it) and the SHA-256 of its bytes (null: no regular file, a pipe). */
export interface ShardInputHash {
  file: string;
  sha256: string | null;
}

export interface SweepShard {
  /** 1-based shard number, of how many; the configurations it holds are [from, to) of `configurations`. */
  index: number;
  of: number;
  from: number;
  to: number;
  configurations: number;
  /** The inputs and the read and price flags as `loopcost replay` takes them (shell-quoted): what merge's recommendation prints to reproduce a row. */
  replayInputs?: string;
  /** Each input file and the SHA-256 of its contents (null: a pipe): merge refuses shards whose inputs differ (cli/actions/sweepInputHashes.ts). */
  inputs: ShardInputHash[];
  /** With --target-completion: each paired resample's choice among this slice's configurations, [index, completed, costPico] (merge joins them: recommendSureness.ts). */
  resampled?: ShardResampled;
}

/** A shard's resamples as its JSON holds them: each choice [grid index (-1: none reached the target), completed runs drawn, their cost in picodollars]; null: not worked out. */
export interface ShardResampled {
  seed: number;
  resamples: number;
  runs: number;
  choices: [number, number, number][] | null;
}

/** A slice's resamples as a shard's JSON holds them. */
export function shardResampled(resampled: Resampled): ShardResampled {
  return { ...resampled, choices: resampled.choices === null ? null : resampled.choices.map((c) => [c.index, c.completed, c.costPico]) };
}

/** A shard's resamples read back. */
export function resampledOfShard(shard: ShardResampled): Resampled {
  return { ...shard, choices: shard.choices === null ? null : shard.choices.map(([index, completed, costPico]) => ({ index, completed, costPico })) };
}

export interface SweepReport extends SweepHeader {
  shard?: SweepShard;
  configurations: SweepRow[];
  /** Settings of the configurations on the cost / completion frontier (absent in a shard). */
  pareto?: string[];
  /** With --target-completion (absent in a shard): the cheapest configuration reaching it, or null. */
  recommendation?: SweepRecommendation | null;
  /** With --target-completion and runs that carry ground truth (absent in a shard): what the recommendation counted as completed — tasks done — and the line that says so (sweepCounted.ts). */
  completionCounted?: CompletionCounted;
}

export function sweepHeader(args: Omit<SweepHeader, 'tool' | 'command'>): SweepHeader {
  const { settings, prices, grid, inputs, targetCompletion, maxFalseStops, contextTokens, noBrakes, notes, warnings } = args;
  return { tool: { name: 'loopcost', version: LOOPCOST_VERSION }, command: 'sweep', settings, prices, grid, inputs, ...(targetCompletion === undefined ? {} : { targetCompletion }), ...(maxFalseStops === undefined ? {} : { maxFalseStops }), ...(contextTokens === undefined ? {} : { contextTokens }), ...(noBrakes === undefined ? {} : { noBrakes }), notes, warnings };
}

/** How the note on the baseline starts: finishSweepReport adds what the runs cost under it. */
export const BASELINE_NOTE_START = 'Baseline of every figure:';

export { baselineCostText };

/** The header's notes, the baseline's followed by what the runs cost under it (the rows of every shard known). */
function notesWithBaselineCost(notes: readonly string[], rows: readonly SweepRow[], grid: readonly GridAxis[]): string[] {
  // Each context's cost with no brakes when the grid sweeps it (what that context's rows' saved is against): sweepBaselines.ts.
  const cost = baselineCostText(rows, grid);
  return notes.map((note) => (cost !== '' && note.startsWith(BASELINE_NOTE_START) ? `${note} ${cost}` : note));
}

/**
 * The whole report from every row: the frontier and the recommendation worked out, the baseline's cost said.
 * `replayArgs`: the inputs and their read and price flags, shell-quoted (cli/actions/sweepReproduce.ts), for
 * the recommendation's command; unknown (a merge of shards), it is said as a placeholder. `resampled`: the
 * grid's paired resamples, in slices (one for a sweep, a shard's each for a merge), joined with the rows' tie order.
 */
export function finishSweepReport(header: SweepHeader, rows: readonly SweepRow[], replayArgs?: string, resampled?: readonly Resampled[]): SweepReport {
  const report: SweepReport = { ...header, notes: notesWithBaselineCost(header.notes, rows, header.grid), configurations: [...rows], pareto: paretoIndices(rows.map(countedRow)).map((i) => rows[i]!.settings) };
  // What each summary strategy's summaries did, read off the whole grid's rows (a merge's too): summaryCallWarning.ts.
  report.warnings = [...header.warnings, ...sweepSummaryWarnings(rows)];
  if (header.targetCompletion !== undefined) {
    report.recommendation = recommendationOf(rows, header, { target: header.targetCompletion, replayArgs, resampled });
    const picked = report.recommendation === null ? undefined : rows.findIndex((row) => row.settings === report.recommendation!.settings);
    const counted = completionCountedOf(rows, { target: header.targetCompletion, pick: picked, rule: recommendRuleOf(rows, header) });
    if (counted !== undefined) report.completionCounted = counted;
  }
  return report;
}

/** Most panels (one per combination of the other keys' values) a chart draws; the table has the rest. */
const MAX_CHART_PANELS = 12;

/**
 * Completion and cost per completed run (per task done where runs carry ground truth) against the swept setting: x = the values of the FIRST grid key,
 * in the order given; with several keys, one panel per combination of the other keys' values (at most
 * MAX_CHART_PANELS), each plotting the configurations that share them.
 */
export function renderSweepChart(report: SweepReport, view: ReportView): string {
  const rows = report.configurations;
  if (rows.length === 0) return notesAndFooter(report, view.width);
  const xAxis = report.grid[0];
  const xValues = xAxis?.values ?? [rows[0]!.settings];
  const panels = new Map<string, SweepRow[]>();
  for (const row of rows) {
    const values = gridValuesOf(row.settings, report.grid);
    const key = report.grid.slice(1).map((axis) => `${axis.key}=${values.get(axis.key) ?? ''}`).join(',');
    panels.set(key, [...(panels.get(key) ?? []), row]);
  }
  const per = Math.max(2, Math.min(12, Math.floor((view.width - 14) / xValues.length)));
  // Completion as the table, the pick and the frontier count it: tasks done where runs carry ground truth.
  const completion = countedLabels(rows);
  let text = xAxis === undefined ? '' : wrapLine('', `x axis: ${printableCell(xAxis.key)} (${xValues.map(printableCell).join(', ')})${report.grid.length > 1 ? `; one panel per value of ${report.grid.slice(1).map((axis) => printableCell(axis.key)).join(' × ')}` : ''}`, view.width);
  if (completion.meaning !== undefined) text += wrapLine('', completion.meaning, view.width);
  let drawn = 0;
  for (const [key, panelRows] of panels) {
    if (drawn++ === MAX_CHART_PANELS) {
      text += wrapLine('', `(${panels.size - MAX_CHART_PANELS} more panels not drawn: see --format table or csv)`, view.width);
      break;
    }
    const byX = new Map(panelRows.map((row) => [xAxis === undefined ? row.settings : (gridValuesOf(row.settings, report.grid).get(xAxis.key) ?? ''), row]));
    const present = xValues.filter((x) => byX.has(x));
    const labels = present.map(printableCell);
    if (key !== '') text += `\n== ${printableCell(key)} ==\n`;
    const against = xAxis === undefined ? 'the configuration' : printableCell(xAxis.key);
    text += `${completion.rate} against ${against}\n`;
    text += plotAgainst(present.map((x) => countedRow(byX.get(x)!).completionRate * 100), labels, per, (v: number) => v.toFixed(1).padStart(11));
    text += `${completion.perRun} against ${against}\n`;
    text += costPanel(present.map((x) => countedRow(byX.get(x)!).costPerCompletedUsd), labels, { per, width: view.width });
  }
  return text + contextTokensTable(report, view.width) + recommendationLines(report, view.width) + notesAndFooter(report, view.width);
}

/** Each swept context strategy's cumulative prompt tokens per step, side by side. */
function contextTokensTable(report: SweepReport, width: number): string {
  const curves = report.contextTokens;
  if (curves === undefined || curves.steps.length === 0) return '';
  const columns: Column[] = [{ header: 'step', align: 'right' }, ...curves.strategies.map((spec): Column => ({ header: `Σ tok ${printableCell(spec)}`, align: 'right' }))];
  const rows = curves.steps.map((s) => [s.step, ...s.meanCumulativeInputTokens.map((n) => n.toLocaleString('en-US'))]);
  return `\n${wrapLine('', `cumulative prompt tokens per step, mean per run over ${counted(curves.runs, 'recorded run')}, each strategy with no brakes (a run that ended stays flat):`, width)}${formatTable(columns, rows, { maxWidth: width })}`;
}

export { renderSweepCsv, renderSweepTable };

/**
 * renderSweep's text in pieces (the same bytes joined): JSON a configuration at a time (jsonPieces), CSV
 * about a MiB at a time (sweepCsvPieces), the table a few thousand rows at a time (sweepTablePieces), so a
 * report of 100,000+ configurations is written without its whole text ever held (emitReport takes pieces).
 * The chart (at most 12 panels) comes whole. `show`: the table's rows (sweepShow.ts); JSON, CSV and the chart have every configuration.
 */
export function sweepReportPieces(report: SweepReport, format: string, view: ReportView, show: SweepShow = 'all'): Iterable<string> {
  if (format === 'json') return jsonPieces(report as unknown as Record<string, unknown>, 'configurations', report.configurations);
  if (format === 'csv') return sweepCsvPieces(report);
  if (format === 'chart') return [renderSweepChart(report, view)];
  return sweepTablePieces(report, view, show);
}

export function renderSweep(report: SweepReport, format: string, view: ReportView, show: SweepShow = 'all'): string {
  switch (format) {
    case 'json':
      return JSON.stringify(report, null, 2) + '\n';
    case 'csv':
      return renderSweepCsv(report);
    case 'chart':
      return renderSweepChart(report, view);
    default:
      return renderSweepTable(report, view, show);
  }
}

