import { join } from 'node:path';
import type { BrakeConfig } from '../../brakes/config.js';
import type { ContextStrategy } from '../../context/strategy.js';
import { collectInputs } from '../../io/collectInputs.js';
import { writeFileAtomic } from '../../io/atomicWrite.js';
import { loadTraceFiles } from '../../import/index.js';
import type { ModelPricing } from '../../pricing/types.js';
import { loadPriceTable, type LoadPriceTableOptions } from '../../pricing/index.js';
import { replayTrace, resolveTracePricing, type RunResult } from '../../replay/replay.js';
import { buildReplayReport } from '../../report/replayReport.js';
import { renderReport, renderStepsCsv, renderTable, type ReportFormat } from '../../report/render.js';
import type { CliIO } from '../io.js';
import type { Trace } from '../../trace/types.js';
import type { LatencyModel } from '../../loop/latency.js';
import { splitInputs } from '../../scenario/inputs.js';
import { replayScenarioFiles, reportedSettings, syntheticNote, withScenarioSettings } from '../../scenario/replayScenarios.js';
import type { ScenarioOverrides } from '../../scenario/settings.js';

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
  /** What the command line says over scenario files' own settings (flags the user gave). */
  scenarioOverrides?: ScenarioOverrides;
}

/** Replays every input, then renders. Everything is computed before anything is written. */
export function runReplay(command: ReplayCommand, io: CliIO): number {
  const prices = loadPriceTable(command.priceOptions);
  const { scenarioFiles, traceFiles: files } = splitInputs(collectInputs(command.inputs));
  const keepSteps = command.format === 'chart' || command.reportDir !== undefined || command.perStep === true;
  const results: RunResult[] = [];
  const pricings = new Map<string, ModelPricing>();
  for (const trace of loadTraceFiles(files)) {
    const brakes = command.brakesFor ? command.brakesFor(trace) : command.brakes;
    const options = {
      brakes,
      strategy: command.strategy,
      prices,
      keepSteps,
      ...(command.model === undefined ? {} : { model: command.model }),
      ...(command.latency === undefined ? {} : { latency: command.latency }),
    };
    const pricing = resolveTracePricing(trace, options);
    pricings.set(pricing.model, pricing);
    results.push(replayTrace(trace, { ...options, pricing }));
  }
  const synthetic = replayScenarioFiles(scenarioFiles, {
    prices,
    overrides: command.scenarioOverrides ?? {},
    keepSteps,
    ...(command.model === undefined ? {} : { model: command.model }),
  });
  results.push(...synthetic.results);
  for (const pricing of synthetic.pricings) pricings.set(pricing.model, pricing);
  const shown = reportedSettings(command, files.length, synthetic.settings);
  const reportArgs = {
    results,
    brakes: shown.brakes,
    perRunRecordedLimits: command.brakesFor !== undefined,
    perStep: command.perStep === true,
    strategy: shown.strategy,
    priceSource: prices.source,
    pricings: [...pricings.values()].sort((a, b) => (a.model < b.model ? -1 : a.model > b.model ? 1 : 0)),
    ...(command.model === undefined ? {} : { model: command.model }),
  };
  const report = withScenarioSettings(buildReplayReport(reportArgs), synthetic.settings);

  if (command.reportDir !== undefined) {
    const outputs: [string, ReportFormat][] = [
      ['replay.json', 'json'],
      ['replay.csv', 'csv'],
      ['replay.txt', 'table'],
      ['replay-chart.txt', 'chart'],
    ];
    const rendered = outputs.map(([name, format]) => [join(command.reportDir!, name), renderReport(format, report, results) + (format === 'table' ? syntheticNote(synthetic.settings) : '')] as const);
    const withSteps = buildReplayReport({ ...reportArgs, perStep: true });
    rendered.push([join(command.reportDir, 'replay-steps.csv'), renderStepsCsv(withSteps)] as const);
    for (const [path, text] of rendered) writeFileAtomic(path, text);
    io.stdout(renderTable(report) + syntheticNote(synthetic.settings));
    io.stdout(`reports written: ${rendered.map(([path]) => path).join(', ')}\n`);
    return 0;
  }
  const text = renderReport(command.format, report, results) + (command.format === 'table' ? syntheticNote(synthetic.settings) : '');
  if (command.out !== undefined) writeFileAtomic(command.out, text);
  else io.stdout(text);
  return 0;
}
