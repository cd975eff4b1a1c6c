import { maxOutputTokensSent, type BrakeConfig } from '../../brakes/config.js';
import { COMMAND_LINE_CONTEXT, contextSpecOf, parseContextList, type ContextStrategy } from '../../context/strategy.js';
import { COMMAND_LINE_MODEL } from '../../options/given.js';
import { UserError } from '../../errors.js';
import type { LatencyModel } from '../../loop/latency.js';
import { loadPriceTable, type LoadPriceTableOptions } from '../../pricing/index.js';
import { compareCurves, curveRun } from '../../replay/curve.js';
import { buildCurveReport, outputPastCapWarnings, renderComparedCurvesCsv, renderCurveChart, renderCurveCsv, renderCurveTable, type CurveReport } from '../../report/curveReport.js';
import { reportSettings } from '../../report/settings.js';
import type { ReportView } from '../../report/view.js';
import { CURVE_STEPS_LIMIT, type ConstantStepsSpec } from '../../synthetic/constantSteps.js';
import type { CliIO } from '../io.js';
import { brakesFromFlags, latencyFromSpec, RECORDED_PRESET, strategyFromFlags, type BrakeFlags, type ContextFlags } from '../../flags/settingsFlags.js';
import { nonNegativeInt, positiveInt } from '../../flags/numberFlags.js';
import { priceOptionsFromFlags, type PriceFlags } from '../parseFlags.js';
import { windowlessModelWarnings } from '../../report/warnings.js';
import { checkOut, emitReport, reportView } from './output.js';
import { checkBrakeFlags, chooseFormat } from './flagChecks.js';
import { withinExactCost } from './curveExact.js';
import { triggerUnderFixedPrompt } from '../../context/summaryTrigger.js';
import { summaryTriggerWarnings } from '../../report/summaryTriggerWarning.js';

export interface CurveCommand {
  spec: ConstantStepsSpec;
  strategy: ContextStrategy;
  /** `--compare-context`: strategies shown side by side with `strategy` (`--context` syntax). */
  compare?: { spec: string; strategy: ContextStrategy }[];
  brakes: BrakeConfig;
  latency?: LatencyModel;
  priceOptions: LoadPriceTableOptions;
  format: 'table' | 'csv' | 'json' | 'chart';
  view: ReportView;
  out?: string;
}

export function runCurve(command: CurveCommand, io: CliIO): number {
  const prices = loadPriceTable(command.priceOptions);
  const options = { brakes: command.brakes, modelPlace: COMMAND_LINE_MODEL, strategyPlace: COMMAND_LINE_CONTEXT, ...(command.latency === undefined ? {} : { latency: command.latency }) };
  const run = withinExactCost(command.spec, (spec) => curveRun(spec, command.strategy, prices, options));
  const settings = reportSettings({ brakes: command.brakes, strategy: { cache: 'off', ...command.strategy }, ...(command.latency === undefined ? {} : { latency: command.latency }) });
  const explicitWindow = typeof command.brakes.contextWindow === 'number' ? command.brakes.contextWindow : undefined;
  // The run's own strategy comes first; one the list names again is not run twice.
  const own = { spec: contextSpecOf(command.strategy), strategy: command.strategy };
  const strategies = [own, ...(command.compare ?? []).filter((entry) => entry.spec !== own.spec)];
  const eachRun = strategies.map((entry) => ({ label: entry.spec, run: (spec: ConstantStepsSpec) => curveRun(spec, entry.strategy, prices, options) }));
  const comparison = command.compare === undefined ? undefined : withinExactCost(command.spec, (spec) => compareCurves(spec, strategies, prices, options), eachRun);
  const windowless = command.brakes.contextWindow === 'model' && run.pricing.contextWindow === undefined ? windowlessModelWarnings([run.pricing.model]) : [];
  const warnings = [...windowless, ...outputPastCapWarnings(command.spec, maxOutputTokensSent(command.brakes)), ...curveTriggerWarnings(strategies, { spec: command.spec, contextWindowTokens: explicitWindow ?? run.pricing.contextWindow ?? Infinity })];
  const report = buildCurveReport({ spec: command.spec, strategy: command.strategy, run, settings, priceSource: prices.source, ...(explicitWindow === undefined ? {} : { contextWindow: explicitWindow }), ...(command.brakes.maxOutputTokens === undefined ? {} : { maxOutputTokens: command.brakes.maxOutputTokens }), ...(comparison === undefined ? {} : { comparison }), warnings });
  const window = explicitWindow ?? run.pricing.contextWindow;
  const text =
    command.format === 'json'
      ? JSON.stringify(report, null, 2) + '\n'
      : command.format === 'csv'
        ? comparison === undefined
          ? renderCurveCsv(report)
          : renderComparedCurvesCsv(strategies.map((entry, i) => ({ strategy: entry.spec, report: i === 0 ? report : strategyCurve(command, { entry, prices, options, explicitWindow }) })))
        : command.format === 'chart'
          ? renderCurveChart(report, command.view, window)
          : renderCurveTable(report, command.view);
  emitReport(text, { ...(command.out === undefined ? {} : { out: command.out }), format: command.format, warnings }, io);
  return 0;
}

/** One compared strategy's curve as a report of its own (the CSV of --compare-context: every strategy's rows). */
function strategyCurve(
  command: CurveCommand,
  made: { entry: { spec: string; strategy: ContextStrategy }; prices: ReturnType<typeof loadPriceTable>; options: Parameters<typeof curveRun>[3]; explicitWindow: number | undefined },
): CurveReport {
  const { entry, prices, options, explicitWindow } = made;
  const run = withinExactCost(command.spec, (spec) => curveRun(spec, entry.strategy, prices, options));
  const settings = reportSettings({ brakes: command.brakes, strategy: { cache: 'off', ...entry.strategy }, ...(command.latency === undefined ? {} : { latency: command.latency }) });
  return buildCurveReport({ spec: command.spec, strategy: entry.strategy, run, settings, priceSource: prices.source, ...(explicitWindow === undefined ? {} : { contextWindow: explicitWindow }), ...(command.brakes.maxOutputTokens === undefined ? {} : { maxOutputTokens: command.brakes.maxOutputTokens }) });
}

/** Each strategy's summary trigger at or below the curve's fixed prompt (--system-tokens + --goal-tokens + its summary tokens). */
function curveTriggerWarnings(strategies: readonly { spec: string; strategy: ContextStrategy }[], at: { spec: ConstantStepsSpec; contextWindowTokens: number }) {
  const { systemTokens, goalTokens = 0 } = at.spec;
  const sizes = `--system-tokens ${systemTokens} + --goal-tokens ${goalTokens}`;
  return summaryTriggerWarnings(
    strategies.flatMap((entry, i) => {
      const found = triggerUnderFixedPrompt(entry.strategy, { systemTokens, goalTokens, contextWindowTokens: at.contextWindowTokens });
      return found === undefined ? [] : [{ ...found, place: i === 0 ? '--context' : `--compare-context ${entry.spec}`, sizes }];
    }),
  );
}

export type CurveFlags = ContextFlags & PriceFlags & BrakeFlags & { out?: string } & Record<string, string | undefined>;

/** `--compare-context 'full;window:5;mask:10'`: each with --tool-result-cap and --cache as given. */
function compareStrategies(opts: ContextFlags, list: string): { spec: string; strategy: ContextStrategy }[] {
  const base = strategyFromFlags({ ...opts, context: 'full' });
  return parseContextList(list, '--compare-context').map((parsed) => {
    const strategy = { ...parsed, ...(base.toolResultCap === undefined ? {} : { toolResultCap: base.toolResultCap }), ...(base.cache === undefined ? {} : { cache: base.cache }) };
    return { spec: contextSpecOf(strategy), strategy };
  });
}

export function curveAction(opts: CurveFlags, io: CliIO): number {
  const format = chooseFormat(opts, io);
  checkOut(opts.out);
  checkBrakeFlags(opts, 'curve');
  if (opts.preset === RECORDED_PRESET) {
    throw new UserError({ file: '<command line>', field: '--preset', code: 'bad_value', message: "'recorded' needs recorded runs; a curve is synthetic", hint: "use --preset reference or brake flags (run 'loopcost curve --help')" });
  }
  return runCurve(
    {
      spec: {
        model: opts.model!,
        systemTokens: nonNegativeInt('--system-tokens', opts.systemTokens!),
        goalTokens: nonNegativeInt('--goal-tokens', opts.goalTokens ?? '0'),
        outputTokens: nonNegativeInt('--output-tokens', opts.outputTokens!),
        toolTokens: nonNegativeInt('--tool-tokens', opts.toolTokens!),
        steps: positiveInt('--steps', opts.steps!, CURVE_STEPS_LIMIT),
      },
      strategy: strategyFromFlags(opts),
      ...(opts.compareContext === undefined ? {} : { compare: compareStrategies(opts, opts.compareContext) }),
      brakes: brakesFromFlags(opts),
      ...(opts.latencyModel === undefined ? {} : { latency: latencyFromSpec(opts.latencyModel) }),
      format: format as CurveCommand['format'],
      view: reportView(opts, io),
      priceOptions: priceOptionsFromFlags(opts),
      ...(opts.out === undefined ? {} : { out: opts.out }),
    },
    io,
  );
}
