import { join } from 'node:path';
import type { BrakeConfig } from '../../brakes/config.js';
import type { ContextStrategy } from '../../context/strategy.js';
import { checkOutputDirectory, checkOutputFile, writeFileAtomic, writeFilesAtomic } from '../../io/atomicWrite.js';
import { skippedMessage, TraceInputs, type InputSetOptions } from '../../import/inputSet.js';
import type { ModelPricing, PriceTable } from '../../pricing/types.js';
import { loadPriceTable, type LoadPriceTableOptions } from '../../pricing/index.js';
import { replayTrace, resolveTracePricing, type RunResult } from '../../replay/replay.js';
import { buildReplayReport } from '../../report/replayReport.js';
import { renderReport, renderStepsCsv, renderTable, type ReportFormat } from '../../report/render.js';
import type { CliIO } from '../io.js';
import type { Trace } from '../../trace/types.js';
import type { LatencyModel } from '../../loop/latency.js';

export interface ReplayCommand {
  inputs: string[];
  /** Brakes shown in the report (under --preset recorded: the flags given beyond each run's own). */
  brakes: BrakeConfig;
  /** The brakes for each run; defaults to `brakes` for every run. */
  brakesFor?: (trace: Trace) => BrakeConfig;
  strategy: ContextStrategy;
  model?: string;
  priceOptions: LoadPriceTableOptions;
  format: ReportFormat;
  out?: string;
  reportDir?: string;
  /** Every call's figures in JSON (`perStep`) and one CSV row per call. */
  perStep?: boolean;
  latency?: LatencyModel;
  /** Read limits and --skip-bad. */
  read?: InputSetOptions;
}

/** The files `--report-dir` writes. */
const REPORT_FILES = ['replay.json', 'replay.csv', 'replay.txt', 'replay-chart.txt', 'replay-steps.csv'];

/** Replays every input, then renders. Everything is computed before anything is written. */
export async function runReplay(command: ReplayCommand, io: CliIO): Promise<number> {
  if (command.out !== undefined) checkOutputFile(command.out);
  if (command.reportDir !== undefined) checkOutputDirectory(command.reportDir, REPORT_FILES);
  const prices = loadPriceTable(command.priceOptions);
  const inputs = new TraceInputs(command.inputs, command.read);
  const keepSteps = command.format === 'chart' || command.reportDir !== undefined || command.perStep === true;
  const perRun: { file: string; result: RunResult; pricing: ModelPricing }[] = [];
  for await (const run of inputs.runs()) {
    const replayed = inputs.guard(run, () => replayOne(run.trace, command, prices, keepSteps));
    if (replayed) perRun.push({ file: run.file, ...replayed });
  }
  const skipped = inputs.finish();
  io.stderr(skippedMessage(skipped, inputs.files.length));
  const kept = inputs.keep(perRun);
  const results = kept.map((run) => run.result);
  const pricings = new Map(kept.map((run) => [run.pricing.model, run.pricing]));
  const reportArgs = {
    results,
    brakes: command.brakes,
    perRunRecordedLimits: command.brakesFor !== undefined,
    perStep: command.perStep === true,
    strategy: command.strategy,
    priceSource: prices.source,
    pricings: [...pricings.values()].sort((a, b) => (a.model < b.model ? -1 : a.model > b.model ? 1 : 0)),
    ...(command.model === undefined ? {} : { model: command.model }),
  };
  const report = buildReplayReport(reportArgs);

  if (command.reportDir !== undefined) {
    const outputs: [string, ReportFormat][] = [
      ['replay.json', 'json'],
      ['replay.csv', 'csv'],
      ['replay.txt', 'table'],
      ['replay-chart.txt', 'chart'],
    ];
    const rendered = outputs.map(([name, format]) => [name, renderReport(format, report, results)] as const);
    const withSteps = buildReplayReport({ ...reportArgs, perStep: true });
    rendered.push(['replay-steps.csv', renderStepsCsv(withSteps)] as const);
    writeFilesAtomic(command.reportDir, rendered);
    io.stdout(renderTable(report));
    io.stdout(`reports written: ${rendered.map(([name]) => join(command.reportDir!, name)).join(', ')}\n`);
    return 0;
  }
  const text = renderReport(command.format, report, results);
  if (command.out !== undefined) writeFileAtomic(command.out, text);
  else io.stdout(text);
  return 0;
}

/** One run replayed with the command's settings, and the prices it was charged at. */
function replayOne(trace: Trace, command: ReplayCommand, prices: PriceTable, keepSteps: boolean): { pricing: ModelPricing; result: RunResult } {
  const options = {
    brakes: command.brakesFor ? command.brakesFor(trace) : command.brakes,
    strategy: command.strategy,
    prices,
    keepSteps,
    ...(command.model === undefined ? {} : { model: command.model }),
    ...(command.latency === undefined ? {} : { latency: command.latency }),
  };
  const pricing = resolveTracePricing(trace, options);
  return { pricing, result: replayTrace(trace, { ...options, pricing }) };
}
