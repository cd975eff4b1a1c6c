import { cacheRuleWarnings, skipOpenLoopWarnings, type ReportWarning } from '../../report/warnings.js';
import { firstOf, SummaryCallTally, summaryCallWarnings } from '../../report/summaryCallWarning.js';
import { fittedContextWarnings } from '../../report/fittedContextWarning.js';
import type { BrakeConfig } from '../../brakes/config.js';
import { COMMAND_LINE_CONTEXT, type CacheMode, type ContextStrategy } from '../../context/strategy.js';
import type { TraceInputs } from '../../import/inputSet.js';
import { checkOutputDirectory, writeFilesAtomic } from '../../io/atomicWrite.js';
import type { BroughtIn, UnreadInput } from '../../io/collectInputs.js';
import { loadPriceTable, type LoadPriceTableOptions } from '../../pricing/index.js';
import type { ModelPricing, PriceTable } from '../../pricing/types.js';
import { replayTrace, type RunResult } from '../../replay/replay.js';
import { CompileScratch } from '../../fast/compile.js';
import { recordedBrakes } from '../../replay/whatif.js';
import { buildReplayReport, replayReportJson, type ReplayReportArgs } from '../../report/replayReport.js';
import { PricedModels } from '../../report/pricedModels.js';
import { renderReport, renderStepsCsv, renderTable } from '../../report/render.js';
import { chartInputOf } from '../../report/replayChart.js';
import type { ReportView } from '../../report/view.js';
import { holdsBrake } from '../../population/run.js';
import type { CliIO } from '../io.js';
import type { ReportFormat } from '../options.js';
import type { Trace } from '../../trace/types.js';
import type { LatencyModel } from '../../loop/latency.js';
import { brakesForRun, brakesFromFlags, latencyFromSpec, RECORDED_PRESET, strategyFromFlags, type BrakeFlags, type ContextFlags } from '../../flags/settingsFlags.js';
import { priceOptionsFromFlags, type PriceFlags, type ReadFlags } from '../parseFlags.js';
import { inputWarningsOf } from './inputWarnings.js';
import { announceReportDir, checkOutputs, emitReport, pricedInputs, reportDirOutputs, reportView, type ViewFlags } from './output.js';
import { pricingFor, RunNotes, type RunNote } from './runNotes.js';
import { fittedProfileWarnings, unreadTracesWarnings } from './scenarioWarnings.js';
import { scenarioInputTriggerWarnings } from './scenarioTriggers.js';
import { modelWindowMaxTokens, sentMaxTokens } from '../../population/modelWindow.js';
import { windowSettingsOf } from '../../report/pastWindowRuns.js';
import { RowColumns, rowList } from '../../replay/runColumns.js';
import { checkBrakeFlags, checkReplayOutputFlags, chooseFormat, warnViewFlags } from './flagChecks.js';
import { readInputs, traceInputs, workOnRuns, type GivenFlag } from './inputs.js';
import { refuseRunsPastHeap } from '../runsHeap.js';
import { checkTreeInputs, subagentLimitsFromFlags, type TreeFlags } from './treeFlags.js';
import type { SubagentLimits } from '../../tree/engine.js';
import { reportedSettings, runScenarioInput, scenarioPricings, scenarioRunSettings, type ScenarioInput } from '../../scenario/replayScenarios.js';
import { appendAll } from '../../appendAll.js';
import { FalseStopTally, type FalseStopMark } from '../../report/replayFalseStops.js';
import { anyBrakeOn, recordedMark, syntheticMarks } from './replayBaselines.js';

export interface ReplayCommand {
  /** The paths as given (reports' hints name them). */
  inputs: string[];
  /** The trace files, with the read limits and --skip-bad. */
  traces: TraceInputs;
  /** Scenario files among the inputs, each with the settings its runs take. */
  scenarios: ScenarioInput[];
  /** Brakes shown in the report (under --preset recorded: the flags given beyond each run's own). */
  brakes: BrakeConfig;
  /** The brakes for each run; defaults to `brakes` for every run. */
  brakesFor?: (trace: Trace) => BrakeConfig;
  strategy: ContextStrategy;
  model?: string;
  priceOptions: LoadPriceTableOptions;
  format: ReportFormat;
  view: ReportView;
  out?: string;
  reportDir?: string;
  /** Every call's figures in JSON (`perStep`) and one CSV row per call. */
  perStep?: boolean;
  latency?: LatencyModel;
}

/** What replay's summary counts each part of a session tree as (without --tree: one run, one task): the session_parts warning's words. */
export const REPLAY_PART_FIGURES = "the summary's runs, cost per run and cost per completed run";

/** The files `--report-dir` writes. */
const REPORT_FILES = ['replay.json', 'replay.csv', 'replay.txt', 'replay-chart.txt', 'replay-steps.csv'];

/** What every run of a replay shares: the price table, the notes of what each was priced at, whether its calls are kept. */
interface ReplayShared {
  prices: PriceTable;
  notes: RunNotes;
  keepSteps: boolean;
  /** Every resolution the runs were priced at, each with its runs (not one per model: runs of one model recorded on two days are priced at two). */
  pricings: PricedModels;
  /** The kept runs' false stops (replayBaselines.ts, report/replayFalseStops.ts). */
  falseStops: FalseStopTally;
}

/** The recorded runs replayed: results and notes kept as columns (no object per run: a report of many runs stays small), `kept` the rows of the runs kept. */
interface RecordedReplay {
  kept: number[];
  results: RowColumns<RunResult>;
  notes: RowColumns<RecordedNote>;
}

/** A recorded run's note, with whether it skips repeated actions, the cache it took and its false-stop mark. */
type RecordedNote = RunNote & FalseStopMark & { skips: boolean; cache: CacheMode };

/** Replays every input, then renders. Everything is computed before anything is written. */
export async function runReplay(command: ReplayCommand, io: CliIO): Promise<number> {
  const prices = loadPriceTable(command.priceOptions);
  // A scenario's unknown model fails the command before any run.
  const scenarioPricing = scenarioPricings(command.scenarios, prices, command.model);
  const keepSteps = keepsEveryCall(command);
  const notes = new RunNotes({ strategy: command.strategy, ...(command.model === undefined ? {} : { model: command.model }), modelWindowBrake: modelWindowMaxTokens([command.brakes]), ...(command.brakesFor === undefined ? {} : { runModelWindowBrake: (trace: Trace) => modelWindowMaxTokens([command.brakesFor!(trace)]) }), partsBraked: holdsBrake(command.brakes) || command.brakesFor !== undefined, parts: { figures: REPLAY_PART_FIGURES }, contextSaid: true, ...(command.latency === undefined ? {} : { latency: command.latency }), windowSettings: (trace) => windowSettingsOf([{ brakes: command.brakesFor?.(trace) ?? command.brakes, strategy: command.strategy, model: command.model }]), sentCaps: (trace) => sentMaxTokens([command.brakesFor?.(trace) ?? command.brakes]) });
  const recorded = await replayRecorded(command, { prices, keepSteps, notes }, io);
  const shared: ReplayShared = { prices, notes, keepSteps, pricings: new PricedModels(), falseStops: new FalseStopTally() };
  const { skips, recordedCaches } = noteRecorded(recorded, shared);
  const synthetic = replayScenarios(command, shared, scenarioPricing);
  const results = rowList(recorded.results, recorded.kept, synthetic);
  const reportArgs = replayReportArgs(command, shared, { results, skips, recordedCaches });
  reportArgs.warnings.unshift(...inputWarningsOf(io));
  reportArgs.warnings.push(...scenarioInputTriggerWarnings(command.scenarios, scenarioPricing));
  if (command.reportDir !== undefined) return writeReportDir(command.reportDir, { command, reportArgs, results }, io);
  // JSON is written run by run (a report of many runs is never held whole).
  const text = command.format === 'json' ? replayReportJson(reportArgs) : renderReport(command.format, buildReplayReport(reportArgs), [...results], command.view, { inputOf: chartInputOf(command.traces.files, command.traces.broughtIn), judged: reportArgs.judgedRuns });
  emitReport(text, { ...(command.out === undefined ? {} : { out: command.out }), format: command.format, warnings: reportArgs.warnings }, io);
  return 0;
}

/** Each recorded run replayed under its brakes as it is read, its result and note kept. */
async function replayRecorded(command: ReplayCommand, shared: Omit<ReplayShared, 'pricings' | 'falseStops'>, io: CliIO): Promise<RecordedReplay> {
  const results = new RowColumns<RunResult>();
  const notes = new RowColumns<RecordedNote>();
  // Each run is replayed once and its compiled trace let go: one scratch memory for all of them.
  const scratch = new CompileScratch();
  const kept = await workOnRuns(command.traces, io, (trace) => {
    const brakes = command.brakesFor ? command.brakesFor(trace) : command.brakes;
    const options = {
      brakes,
      strategy: command.strategy,
      strategyPlace: COMMAND_LINE_CONTEXT,
      prices: shared.prices,
      keepSteps: shared.keepSteps,
      ...(command.model === undefined ? {} : { model: command.model }),
      ...(command.latency === undefined ? {} : { latency: command.latency }),
    };
    const pricing = pricingFor(trace, options);
    const result = replayTrace(trace, { ...options, pricing, scratch });
    const note = shared.notes.noteOf(trace, pricing, result);
    // The cache the run took (RunResult.cache: --cache, else defaultCacheMode), for the settings line.
    notes.add({ ...note, ...recordedMark(trace, result, { ...options, pricing, scratch }), skips: brakes.repeatAction === 'skip', cache: result.cache });
    return results.add(result);
  });
  return { kept, results, notes };
}

/** The kept runs' notes and pricings, in input order: how many skip repeated actions, and the cache each took. */
function noteRecorded(recorded: RecordedReplay, shared: ReplayShared): { skips: number; recordedCaches: CacheMode[] } {
  let skips = 0;
  const recordedCaches: CacheMode[] = [];
  for (const i of recorded.kept) {
    const { skips: skipsRun, cache, stop, steps, unbrakedStop, unbrakedSteps, truth, ownDone, ...note } = recorded.notes.at(i);
    shared.falseStops.add({ stop, steps, unbrakedStop, unbrakedSteps, truth, ownDone });
    recordedCaches.push(cache);
    shared.pricings.add(note.pricing);
    shared.notes.addNote(note);
    if (skipsRun) skips += 1;
  }
  return { skips, recordedCaches };
}

/** Each scenario file's synthetic runs under its settings (`scenarioPricing[i]`: the i-th's pricing), noted. */
function replayScenarios(command: ReplayCommand, shared: ReplayShared, scenarioPricing: readonly ModelPricing[]): RunResult[] {
  const synthetic: RunResult[] = [];
  command.scenarios.forEach((input, i) => {
    const pricing = scenarioPricing[i]!;
    const { prepared, runs } = runScenarioInput(input, { prices: shared.prices, keepSteps: shared.keepSteps, ...(command.model === undefined ? {} : { model: command.model }) });
    shared.pricings.add(pricing, runs.length);
    const sent = sentMaxTokens([input.settings.brakes]);
    for (const run of runs) shared.notes.addSynthetic(run.source, pricing, input.settings.strategy.cache, sent);
    for (const mark of syntheticMarks(prepared, runs)) shared.falseStops.add(mark);
    appendAll(synthetic, runs);
  });
  return synthetic;
}

/** What the report says of the runs: their results, the settings shown, the prices and every warning. */
function replayReportArgs(command: ReplayCommand, shared: ReplayShared, ran: { results: ReplayReportArgs['results']; skips: number; recordedCaches: CacheMode[] }): ReplayReportArgs & { warnings: ReportWarning[] } {
  const { notes, prices } = shared;
  const { results } = ran;
  // The trace files kept (--skip-bad may leave none beside scenario files).
  const traceFilesKept = command.traces.files.length - command.traces.badCount;
  const shown = reportedSettings(command, traceFilesKept, command.scenarios);
  const warnings = [...notes.warnings(command.inputs, results), ...unreadTracesWarnings(command.scenarios.map((input) => input.scenario)), ...fittedProfileWarnings(command.scenarios.map((input) => input.scenario), prices), ...skipOpenLoopWarnings(ran.skips), ...cacheRuleWarnings(results)];
  // What the strategy's summaries did on the recorded runs (the first results; a scenario file's run under its own strategy): summaryCallWarning.ts.
  warnings.push(...summaryCallWarnings(command.strategy, SummaryCallTally.of(firstOf(results, ran.recordedCaches.length))));
  warnings.push(...fittedContextWarnings(command.scenarios.map((input) => ({ scenario: input.scenario, strategy: input.settings.strategy }))));
  return {
    results,
    brakes: shown.brakes,
    perRunRecordedLimits: command.brakesFor !== undefined && traceFilesKept > 0,
    perStep: command.perStep === true,
    strategy: shown.strategy,
    scenarios: command.scenarios.map(scenarioRunSettings),
    priceSource: prices.source,
    pricedModels: shared.pricings.records(),
    warnings,
    priceDays: notes.priceDays(),
    pricesNote: notes.pricesNote(),
    recordedContext: notes.recordedContext(),
    ...(anyBrakeOn(command) ? { falseStops: shared.falseStops.figures() } : {}),
    doneCounts: shared.falseStops.doneCounts(), judgedRuns: shared.falseStops.judgedRuns(),
    pricedAsOf: (source: string) => notes.priceDay(source),
    ...(command.model === undefined ? {} : { model: command.model }),
    ...(shown.latency === undefined ? {} : { latency: shown.latency }),
    took: { recordedCaches: ran.recordedCaches, scenarios: command.scenarios.map((input) => input.settings) },
  };
}

/** `--report-dir`: every report file written at once (REPORT_FILES), the table on stdout. */
function writeReportDir(reportDir: string, args: { command: ReplayCommand; reportArgs: ReplayReportArgs; results: ReplayReportArgs['results'] }, io: CliIO): number {
  const { command, reportArgs, results } = args;
  const report = buildReplayReport(reportArgs);
  const outputs: [string, ReportFormat][] = [
    ['replay.json', 'json'],
    ['replay.csv', 'csv'],
    ['replay.txt', 'table'],
    ['replay-chart.txt', 'chart'],
  ];
  const fileView = { ...command.view, width: 120 };
  const rendered = outputs.map(([name, format]) => [name, renderReport(format, report, [...results], fileView, { inputOf: chartInputOf(command.traces.files, command.traces.broughtIn), judged: reportArgs.judgedRuns })] as const);
  const withSteps = buildReplayReport({ ...reportArgs, perStep: true });
  rendered.push(['replay-steps.csv', renderStepsCsv(withSteps)] as const);
  writeFilesAtomic(reportDir, rendered);
  io.stdout(renderTable(report, command.view, { results: [...results], inputOf: chartInputOf(command.traces.files, command.traces.broughtIn), judged: reportArgs.judgedRuns }));
  announceReportDir(reportDir, rendered.map(([name]) => name), io);
  return 0;
}

/** `replay --tree` (see actions/tree.ts). */
async function replayTrees(inputs: string[], opts: ReplayFlags, read: { traceFiles: string[]; scenarios: ScenarioInput[]; unread: UnreadInput[]; broughtIn: BroughtIn; format: string; subagent: SubagentLimits | undefined }, io: CliIO): Promise<number> {
  checkTreeInputs(read.scenarios.length, []);
  checkTreeInputs(0, [
    ['--report-dir', opts.reportDir !== undefined],
    ['--per-step', opts.perStep === true],
    ['--format chart', read.format === 'chart'],
  ]);
  const { runTreeReplay, treeTraceInputs } = await import('./tree.js');
  return runTreeReplay(
    {
      inputs,
      traces: treeTraceInputs(read.traceFiles, opts, { besideScenarios: read.scenarios.length > 0, unread: read.unread, broughtIn: read.broughtIn }),
      brakes: brakesFromFlags(opts),
      // --preset recorded: each tree under its recordings' limits, the flags on top (tree.ts, treeRecorded.ts).
      ...(opts.preset === RECORDED_PRESET ? { recorded: (recorded: BrakeConfig) => brakesForRun(opts, recorded) } : {}),
      ...(read.subagent === undefined ? {} : { subagent: read.subagent }),
      strategy: strategyFromFlags(opts),
      format: read.format as 'table' | 'csv' | 'json',
      view: reportView(opts, io),
      ...(opts.model === undefined ? {} : { model: opts.model }),
      priceOptions: priceOptionsFromFlags(opts),
      ...(opts.out === undefined ? {} : { out: opts.out }),
      ...(opts.latencyModel === undefined ? {} : { latency: latencyFromSpec(opts.latencyModel) }),
    },
    io,
  );
}

export type ReplayFlags = BrakeFlags &
  ContextFlags &
  PriceFlags &
  ReadFlags &
  ViewFlags &
  TreeFlags & { format?: string; model?: string; out?: string; reportDir?: string; perStep?: boolean; latencyModel?: string; runs?: string; seed?: string };

/** `loopcost replay`: the flags as commander parsed them (`given`: which the user gave) → a ReplayCommand. */
export function replayAction(inputs: string[], opts: ReplayFlags, io: CliIO, given: GivenFlag): Promise<number> {
  const format = chooseFormat(opts, io);
  if (opts.reportDir !== undefined) checkOutputDirectory(opts.reportDir, REPORT_FILES);
  checkOutputs([['--out', opts.out], ...reportDirOutputs(opts.reportDir, REPORT_FILES)], pricedInputs(inputs, opts), io);
  const { traceFiles, scenarios, unread, broughtIn } = readInputs(inputs, opts, given, io);
  refuseRunsPastHeap(keepsEveryCall({ ...opts, format }) ? 'replaySteps' : 'replay', scenarios, { runsGiven: given('runs'), pooled: true });
  checkBrakeFlags(opts, 'replay', scenarios.map((input) => input.settings.brakes));
  checkReplayOutputFlags(opts, format);
  // --per-run shapes the chart too (every run's own chart): with a chart only --wide does nothing.
  warnViewFlags(format === 'chart' ? { wide: opts.wide === true } : opts, opts.reportDir === undefined ? format : 'table', io);
  const subagent = subagentLimitsFromFlags(opts, 'replay');
  if (opts.tree === true) return replayTrees(inputs, opts, { traceFiles, scenarios, unread, broughtIn, format, subagent }, io);
  return runReplay(
    {
      inputs,
      traces: traceInputs(traceFiles, opts, { compiled: format !== 'chart' && opts.reportDir === undefined && opts.perStep !== true, besideScenarios: scenarios.length > 0, unread, broughtIn }),
      scenarios,
      brakes: brakesFromFlags(opts),
      ...(opts.preset === RECORDED_PRESET ? { brakesFor: (trace: Trace) => brakesForRun(opts, recordedBrakes(trace)) } : {}),
      strategy: strategyFromFlags(opts),
      format: format as ReportFormat,
      view: reportView(opts, io),
      ...(opts.model === undefined ? {} : { model: opts.model }),
      priceOptions: priceOptionsFromFlags(opts),
      ...(opts.out === undefined ? {} : { out: opts.out }),
      ...(opts.reportDir === undefined ? {} : { reportDir: opts.reportDir }),
      perStep: opts.perStep === true,
      ...(opts.latencyModel === undefined ? {} : { latency: latencyFromSpec(opts.latencyModel) }),
    },
    io,
  );
}

/** Whether the replay keeps every call's row: a chart, --report-dir and --per-step show them. */
function keepsEveryCall(output: { format?: string; reportDir?: string | undefined; perStep?: boolean | undefined }): boolean {
  return output.format === 'chart' || output.reportDir !== undefined || output.perStep === true;
}
