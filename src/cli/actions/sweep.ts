/**
 * `loopcost sweep`: every configuration of a grid over recorded and synthetic runs, one row each, the
 * frontier, and a recommendation for a target completion rate. `--shard K/N` computes one slice of the
 * configurations (JSON, for `loopcost merge`); `--workers N` splits the slice over N threads (this one and N − 1 worker threads), with
 * output byte-identical to one thread.
 */
import { inputWarningsOf } from './inputWarnings.js';
import { UserError } from '../../errors.js';
import { checkOutputDirectory, writeFilesAtomic } from '../../io/atomicWrite.js';
import { sweepPriceGaps } from './sweepPricing.js';
import { gridWarnings, recordedWindowless } from './sweepWarnings.js';
import { sweepPrices } from './sweepPrices.js';
import { PricedRunKinds } from './pricedRunKinds.js';
import { reportSettings } from '../../report/settings.js';
import { gridValuesText } from '../../report/settingsGrid.js';
import { inputsRecord } from '../../report/scenarios.js';
import { scenarioRunSettings } from '../../scenario/replayScenarios.js';
import { DEFAULT_HARD_CAP_STEPS } from '../../scenario/settings.js';
import { replayInputArgs } from './sweepReproduce.js';
import { BASELINE_NOTE_START, finishSweepReport, renderSweep, shardResampled, sweepHeader, sweepReportPieces, type SweepHeader, type SweepReport, type SweepRow } from '../../report/sweepReport.js';
import { strategyErrorInGrid } from '../../population/gridStrategies.js';
import { contextCurvesOf } from '../../population/contextTokens.js';
import { brakesFromFlags, strategyFromFlags } from '../../flags/settingsFlags.js';
import { nonNegativeInt, positiveInt } from '../../flags/numberFlags.js';
import type { CliIO } from '../io.js';
import { letYoungGenerationGrow } from '../youngGeneration.js';
import { announceReportDir, checkOutputs, emitReport, pricedInputs, reportDirOutputs, reportView } from './output.js';
import { chooseFormat, warnViewFlags } from './flagChecks.js';
import type { GivenFlag } from './inputs.js';
import type { GridAxis } from '../../population/grid.js';
import { Progress } from './progress.js';
import { contextSumsOf, prepareSweep, setUpSweep, sweepGrid, sweepRows, type PreparedSweep, type SweepFlags as WorkFlags, type SweepRead, type SweepSetup } from './sweepWork.js';
import type { SweepWorker } from './sweepWorkers.js';
import { tallyDropping } from './sweepDrop.js';
import { scenarioNotes, sweepTookOwn } from './sweepTook.js';
import { gridFactsReading, runHeaderFactsOf, treeHeaderFactsOf, type RunHeaderFacts } from './sweepHeaderFacts.js';
import { shardInputHashes } from './sweepInputHashes.js';
import { takeRunOutcomes } from '../../population/recommendRuns.js';
import { resampledSlice, type Resampled } from '../../population/recommendSureness.js';
import { tieOrderOf } from '../../population/recommendTie.js';
import { sweepCompletionFacts, type NoBrakesCounted } from './sweepCompletion.js';
import { sweepShowOf } from './sweepShow.js';
import type { SweepShow } from '../../report/sweepShow.js';
import { eligibleRows, maxFalseStopsOf, recommendationOnStderr } from './sweepRecommendFlags.js';

/** sweep's flags: the work's, --max-false-stops (the recommendation's bound: sweepRecommendFlags.ts) and --show (the table's rows: sweepShow.ts). */
export type SweepFlags = WorkFlags & { maxFalseStops?: string; show?: string };

/** `--shard K/N`: 1 ≤ K ≤ N. */
export function shardOf(value: string | undefined): { index: number; of: number } | undefined {
  if (value === undefined) return undefined;
  const m = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(value);
  const index = m ? Number(m[1]) : NaN;
  const of = m ? Number(m[2]) : NaN;
  if (!(index >= 1 && of >= index && Number.isSafeInteger(of))) {
    throw new UserError({ file: '<command line>', field: '--shard', code: 'bad_value', message: `'${value}' is not a shard K/N`, hint: 'write K/N with 1 ≤ K ≤ N, e.g. --shard 2/8 for the second of eight slices' });
  }
  return { index, of };
}

/** Below this many configurations a sweep runs on one thread unless --workers says otherwise (a worker's start-up and warm-up outweigh a small sweep). */
export const MIN_CONFIGURATIONS_PER_DEFAULT_WORKER = 8;

/**
 * `--workers N` (default: the cores, one per 8 configurations at most). Never more threads than the
 * cores: more only contend for them (each thread holds its own heap and copy of the population; 1000
 * took 27 s and 2.4 GB on 2 cores), so a larger N is cut to the cores, said once through `warn` (the
 * CLI's stderr), the output the same.
 */
export function workersOf(value: string | undefined, cores: number, configurations: number, warn: (line: string) => void): number {
  if (value === undefined) return Math.max(1, Math.min(cores, Math.floor(configurations / MIN_CONFIGURATIONS_PER_DEFAULT_WORKER)));
  const n = withHint(() => positiveInt('--workers', value), 'write --workers N (1: no worker threads)');
  const usable = Math.max(1, Math.floor(cores));
  if (n <= usable) return n;
  warn(`loopcost: warning: --workers ${n}: this machine has ${usable} ${usable === 1 ? 'core' : 'cores'}; using ${usable}\n`);
  return usable;
}

/** `parse()`, its UserError's issues given `hint`. */
function withHint<T>(parse: () => T, hint: string): T {
  try {
    return parse();
  } catch (error) {
    throw error instanceof UserError ? new UserError(error.issues.map((issue) => ({ ...issue, hint }))) : error;
  }
}

/** The configurations shard K of N holds: [⌊(K−1)·C/N⌋, ⌊K·C/N⌋). */
export function shardRange(shard: { index: number; of: number } | undefined, count: number): { from: number; to: number } {
  if (shard === undefined) return { from: 0, to: count };
  return { from: Math.floor(((shard.index - 1) * count) / shard.of), to: Math.floor((shard.index * count) / shard.of) };
}

/** ` (500 steps)`: the scenario files' hard caps (`hardCapSteps`, else the default), or nothing without scenario files. */
function hardCapText(scenarios: SweepSetup['scenarios']): string {
  const caps = [...new Set(scenarios.map(({ scenario }) => scenario.hardCapSteps ?? DEFAULT_HARD_CAP_STEPS))].sort((a, b) => a - b);
  return caps.length === 0 ? '' : ` (${caps.map((n) => n.toLocaleString('en-US')).join(' or ')} steps)`;
}

/**
 * The note on `--tree`: each sub-agent's limits, a flag's (`2 steps`) or a grid axis's (`grid (2, 50) steps`:
 * each configuration its own, as the settings line names an axis).
 */
function treeNote(opts: SweepFlags, axes: readonly GridAxis[]): string {
  const limit = (key: string, given: string | undefined, say: (value: string) => string): string => {
    const axis = axes.find((a) => a.key === key);
    return axis !== undefined ? gridValuesText(axis.values.map(say)) : given === undefined ? '' : say(given);
  };
  const steps = limit('subagent-max-steps', opts.subagentMaxSteps, (n) => n);
  const cost = limit('subagent-max-cost', opts.subagentMaxCost, (usd) => `$${usd}`);
  const subagent = [steps === '' ? '' : `${steps} steps`, cost].filter(Boolean).join(' and ');
  return `--tree: each session tree (an agent and its sub-agents) is one run, replayed as one loop with the brakes binding the tree's totals${subagent === '' ? '' : ` and each sub-agent limited to ${subagent}`}; its baseline is the tree with no brakes and no per-agent limits. A session in which a brake stopped a sub-agent that completes in its recording counts as stopped with that sub-agent's stop (a false stop), not completed: its parent went on as recorded, with the sub-agent's whole result (open loop).`;
}

/** The report's header; `io`: the command's (the warnings said as the inputs were read lead its warnings); `maxFalseStops`: --max-false-stops read. */
function headerOf(args: { setup: SweepSetup; read: SweepRead & NoBrakesCounted; opts: SweepFlags; maxFalseStops: number | undefined; inputs: readonly string[]; given: GivenFlag; io: CliIO }): SweepHeader {
  const { setup: prepared, read, opts } = args;
  const { recordedRuns } = read;
  const scenarios = prepared.scenarios.map(scenarioRunSettings);
  const fixedBrakes = brakesFromFlags(prepared.fixed.brakeFlags);
  const completion = sweepCompletionFacts(prepared, recordedRuns, read.noBrakes);
  const strategy = strategyFromFlags(prepared.fixed.contextFlags);
  const notes = [
    `${BASELINE_NOTE_START} the same run with no brakes (recorded runs replayed as recorded; synthetic runs the same agents under their policy up to the hard cap${hardCapText(prepared.scenarios)} or their provider's refusal of a prompt + max_tokens past the window).`,
    ...(opts.tree !== true ? [] : [treeNote(opts, prepared.axes)]),
    ...(recordedRuns > 0 ? ['Recorded responses are replayed as recorded (open loop): a brake changes where a run stops, not what the agent would have done next.'] : []),
    ...scenarioNotes(prepared, 'sweep'),
    ...completion.notes,
  ];
  const took = sweepTookOwn({ ...prepared, recordedCaches: read.recordedCaches });
  const warnings = [...inputWarningsOf(args.io), ...gridWarnings({ command: 'sweep', setup: prepared, recordedRuns, priceGaps: read.priceGaps, windowless: read.windowless, inputs: args.inputs, ...(read.pricedRuns === undefined ? {} : { pricedRuns: read.pricedRuns }), ...(read.unrecorded === undefined ? {} : { unrecorded: read.unrecorded }), headerFacts: read.headerFacts })];
  return sweepHeader({
    // The cache and latency no flag gave, as the runs took them: each trace its own, the synthetic runs the sweep's cache (off without one) and their files' latency.
    settings: reportSettings({
      brakes: fixedBrakes,
      strategy,
      ...(prepared.fixed.latency === undefined ? {} : { latency: prepared.fixed.latency }),
      ...(prepared.fixed.model === undefined ? {} : { model: prepared.fixed.model }),
      grid: prepared.axes,
      took,
    }),
    prices: sweepPrices(prepared, read.pricedRuns ?? []),
    grid: prepared.axes,
    inputs: inputsRecord(recordedRuns, scenarios),
    ...(prepared.targetCompletion === undefined ? {} : { targetCompletion: prepared.targetCompletion }),
    ...(args.maxFalseStops === undefined ? {} : { maxFalseStops: args.maxFalseStops }),
    ...(read.contextTokens === undefined ? {} : { contextTokens: read.contextTokens }),
    ...(completion.noBrakes === undefined ? {} : { noBrakes: completion.noBrakes }),
    notes,
    warnings,
  });
}

/** What the header says of the runs read: how many, and with `context` a grid axis, each swept strategy's cumulative prompt tokens per step. */
function runsRead(prepared: PreparedSweep): SweepRead {
  const recordedRuns = prepared.trees?.trees.length ?? prepared.population.traces.length;
  const sums = contextSumsOf(prepared, prepared.population.traces);
  const priceGaps = sweepPriceGaps(prepared, prepared.traces);
  return { recordedRuns, priceGaps, headerFacts: headerFactsOf(prepared), windowless: recordedWindowless(prepared, prepared.traces), recordedCaches: prepared.recordedCaches, pricedRuns: new PricedRunKinds().add(prepared.traces).kinds(), ...(sums === undefined ? {} : { contextTokens: contextCurvesOf(sums) }), ...(prepared.trees === undefined ? {} : { unrecorded: prepared.trees.unrecorded() }) };
}

/** What the runs' headers say, read under every configuration's context; with --tree, of the session trees. */
function headerFactsOf(prepared: PreparedSweep): RunHeaderFacts {
  const read = gridFactsReading(prepared.configurations.map((c) => c.config), prepared.prices);
  return prepared.trees === undefined ? runHeaderFactsOf(prepared.traces, read) : treeHeaderFactsOf(prepared.traces, prepared.trees.trees, read);
}

/**
 * Whether the threads (this one alone too) take units of the runs off a queue (sweepShares.ts,
 * sweepUnits.ts) rather than split the configurations (the command reads every run and sends them): not
 * for session trees (a tree may span files) or stdin.
 */
function splitsRuns(setup: SweepSetup, opts: SweepFlags): boolean {
  return opts.tree !== true && !setup.traceFiles.includes('-');
}

/** Configurations per chunk when progress is drawn on one thread (rows do not depend on the chunking). */
const PROGRESS_CHUNK = 32;

/** The rows on this thread; with stderr a terminal, in chunks with progress between them. */
function rowsInChunks(prepared: PreparedSweep, range: { from: number; to: number }, io: CliIO): SweepRow[] {
  if (io.stderrIsTerminal !== true) return sweepRows(prepared, range);
  const progress = new Progress(io, range.to - range.from, 'sweep: configurations');
  const rows: SweepRow[] = [];
  try {
    for (let from = range.from; from < range.to; from += PROGRESS_CHUNK) {
      const to = Math.min(range.to, from + PROGRESS_CHUNK);
      rows.push(...sweepRows(prepared, { from, to }));
      progress.add(to - from);
    }
  } finally {
    progress.finish();
  }
  return rows;
}

/**
 * The rows of configurations `range`, and the header: the units of the runs taken by this thread and
 * worker threads (those `started` early first; with one thread too, each file streamed through the sweep
 * in batches; progress by units), else (`--tree`, stdin) this thread over every run read, or workers
 * splitting the configurations.
 */
async function rowsAndHeader(args: { inputs: string[]; opts: SweepFlags; maxFalseStops: number | undefined; given: GivenFlag; io: CliIO; setup: SweepSetup; range: { from: number; to: number }; workers: number; started: SweepWorker[] }): Promise<{ rows: SweepRow[]; header: SweepHeader }> {
  const { inputs, opts, maxFalseStops, given, io, setup, range, workers, started } = args;
  // One thread too takes the units (files streamed through the sweep).
  if (range.to > range.from && splitsRuns(setup, opts)) {
    const shares = await (await import('./sweepShares.js')).sweepRowsInShares({ inputs, opts, given, setup, range, workers, io, started });
    return { rows: shares.rows, header: headerOf({ setup, read: shares.read, opts, maxFalseStops, inputs, given, io: args.io }) };
  }
  for (const worker of started) worker.stop();
  const read = await prepareSweep(inputs, opts, given, io, { setup });
  // A run past $9,007 makes its file bad (sweepDrop.ts): rows and header are of the sweep without it.
  const done = await tallyDropping({ prepared: read, opts, io }, async (prepared) => {
    const rows = workers <= 1 || range.to - range.from <= 1 ? rowsInChunks(prepared, range, io) : await (await import('./sweepWorkers.js')).sweepRowsInWorkers({ inputs, opts, given, range, workers, io, prepared });
    return { rows, prepared };
  });
  // The header once tallyDropping has said the bad files and the trees left out: its warnings start with them.
  return { rows: done.rows, header: headerOf({ setup, read: runsRead(done.prepared), opts, maxFalseStops, inputs, given, io: args.io }) };
}

/**
 * With a target: the paired resamples of the runs over configurations `range` (how sure the recommendation
 * is), the runs taken off the rows (they are never written); seeded by --seed (else 1), which then seeds them
 * as well as any scenario file's runs. Session trees and stdin keep no runs: nothing is said of them.
 */
function resampledRows(args: { rows: SweepRow[]; setup: SweepSetup; opts: SweepFlags; range: { from: number; to: number }; seed: number; maxFalseStops: number | undefined }): Resampled | undefined {
  const { rows, setup, opts, range, seed } = args;
  const eligible = eligibleRows(rows, args.maxFalseStops);
  const outcomes = takeRunOutcomes(rows);
  const target = setup.targetCompletion;
  if (target === undefined || !splitsRuns(setup, opts) || (outcomes === undefined && rows.length > 0)) return undefined;
  // Ties broken as the report breaks them (recommendTie.ts): by the configurations' grid values, in a shard as in one sweep.
  const tieOrder = tieOrderOf((i) => setup.configurations[i]!.settings, setup.axes);
  return resampledSlice(outcomes ?? [], { from: range.from, configurations: setup.configurations.length, target, seed, tieOrder, scenarios: setup.scenarios.map((input) => ({ scenario: input.scenario, runs: input.settings.runs })), ...(eligible === undefined ? {} : { eligible }) });
}

export async function sweepAction(inputs: string[], opts: SweepFlags, io: CliIO, given: GivenFlag, cores: number): Promise<number> {
  // Before any worker thread starts (they share the flags, and their code cache was taken under these).
  letYoungGenerationGrow();
  // With a target, --seed also seeds the resamples of the recommendation (resampledRows): not a flag that does nothing without scenario files.
  if (opts.targetCompletion !== undefined && opts.seed !== undefined) opts = { ...opts, seedSeedsProjection: true };
  const seed = opts.targetCompletion === undefined ? 1 : nonNegativeInt('--seed', opts.seed ?? '1');
  const shard = shardOf(opts.shard);
  const maxFalseStops = maxFalseStopsOf(opts.maxFalseStops, opts.targetCompletion);
  // A shard is only ever read by merge: JSON unless --format or an --out name asks for another format (refused below).
  const format = shard !== undefined && opts.format === undefined && (opts.out === undefined || opts.out === '-') ? 'json' : chooseFormat(opts, io);
  warnViewFlags(opts, format, io);
  if (shard !== undefined && format !== 'json') {
    throw new UserError({ file: '<command line>', field: '--shard', code: 'flag_without_effect', message: `a shard's report is JSON (what loopcost merge reads), not ${format}`, hint: 'add --format json (or --out FILE.json), then join the shards with loopcost merge' });
  }
  const show = sweepShowOf(opts, format, io);
  if (opts.reportDir !== undefined) {
    if (opts.out !== undefined || opts.format !== undefined || shard !== undefined) {
      const flag = opts.out !== undefined ? '--out' : opts.format !== undefined ? '--format' : '--shard';
      throw new UserError({ file: '<command line>', field: flag, code: 'flag_without_effect', message: 'cannot be used with --report-dir, which writes every format (sweep.json, sweep.csv, sweep.txt, sweep-chart.txt)', hint: `drop ${flag}, or --report-dir` });
    }
    checkOutputDirectory(opts.reportDir, SWEEP_REPORT_FILES);
  }
  const { count, axes } = sweepGrid(opts, given);
  const workers = Math.min(workersOf(opts.workers, cores, count, io.stderr), Math.max(1, count));
  checkOutputs([['--out', opts.out], ...reportDirOutputs(opts.reportDir, SWEEP_REPORT_FILES)], pricedInputs(inputs, opts), io);
  // Worker threads that will split the runs with this one start now and load their modules while this thread sets up.
  const started = workers > 1 && opts.tree !== true && !inputs.includes('-') ? (await import('./sweepWorkers.js')).startShareWorkers({ inputs, opts, given, workers: workers - 1 }) : [];
  let done: { setup: SweepSetup; range: { from: number; to: number }; rows: SweepRow[]; header: SweepHeader };
  try {
    const setup = setUpSweep(inputs, opts, given, io);
    const range = shardRange(shard, setup.configurations.length);
    done = { setup, range, ...(await rowsAndHeader({ inputs, opts, maxFalseStops, given, io, setup, range, workers, started })) };
  } catch (error) {
    throw strategyErrorInGrid(error, axes);
  } finally {
    for (const worker of started) worker.stop();
  }
  const { setup, range, rows, header } = done;
  const replayInputs = replayInputArgs(inputs, opts);
  const resampled = resampledRows({ rows, setup, opts, range, seed, maxFalseStops });
  const report: SweepReport =
    shard === undefined
      ? finishSweepReport(header, rows, replayInputs, resampled === undefined ? undefined : [resampled])
      : { ...header, shard: { ...shard, ...range, configurations: setup.configurations.length, replayInputs, inputs: shardInputHashes(setup, opts), ...(resampled === undefined ? {} : { resampled: shardResampled(resampled) }) }, configurations: rows };
  if (opts.reportDir !== undefined) return writeReportDir(report, { ...opts, reportDir: opts.reportDir }, { show, io });
  // In pieces (JSON a configuration at a time, CSV a MiB at a time): a report of 10^5 configurations is never one string.
  emitReport(sweepReportPieces(report, format, reportView(opts, io), show), { ...(opts.out === undefined ? {} : { out: opts.out }), format, warnings: report.warnings }, io);
  recommendationOnStderr(report, { out: opts.out, format, view: reportView(opts, io) }, io);
  return 0;
}

/** --report-dir: every format written into the directory (all or nothing), the table on stdout; the tables' rows as --show chose. */
function writeReportDir(report: SweepReport, opts: SweepFlags & { reportDir: string }, { show, io }: { show: SweepShow; io: CliIO }): number {
  const view = reportView(opts, io);
  const fileView = { ...view, width: 120 };
  const rendered = (['json', 'csv', 'table', 'chart'] as const).map((f, i) => [SWEEP_REPORT_FILES[i]!, renderSweep(report, f, fileView, show)] as const);
  writeFilesAtomic(opts.reportDir, rendered);
  io.stdout(renderSweep(report, 'table', view, show));
  announceReportDir(opts.reportDir, rendered.map(([name]) => name), io);
  return 0;
}

/** What --report-dir writes, in the order of json, csv, table, chart. */
const SWEEP_REPORT_FILES = ['sweep.json', 'sweep.csv', 'sweep.txt', 'sweep-chart.txt'];
