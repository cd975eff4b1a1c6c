/**
 * `loopcost calibrate`: the loop detectors' settings of a grid judged on synthetic runs (precision and
 * recall of catching stuck runs, and false stops, against ground truth) and on recorded runs (false stops
 * by outcome: among runs that complete with no brakes). The grid, inputs and flags are read as `sweep` reads them.
 */
import { UserError } from '../../errors.js';
import { calibrationsOf } from '../../population/calibrate.js';
import { CompletionMeanings, completionMeaningsLine } from '../../population/completionMeanings.js';
import { buildCalibrateReport, noStuckRunsNote, renderCalibrate } from '../../report/calibrateReport.js';
import { fitPricesOf, fitWarningsOf } from '../../scenario/fitWarnings.js';
import { reportSettings } from '../../report/settings.js';
import { brakesFromFlags, strategyFromFlags } from '../../flags/settingsFlags.js';
import type { CliIO } from '../io.js';
import { checkOutputs, emitReport, pricedInputs, reportView } from './output.js';
import { chooseFormat, warnViewFlags } from './flagChecks.js';
import type { GivenFlag } from './inputs.js';
import { prepareSweep, type PreparedSweep, type SweepFlags } from './sweepWork.js';
import type { ReportWarning } from '../../report/warnings.js';
import { configurationSayer, configurationStrategy, scenarioNotes, sweepTookOwn } from './sweepTook.js';
import { tallyDropping } from './sweepDrop.js';
import { letYoungGenerationGrow } from '../youngGeneration.js';
import { sweepPriceGaps } from './sweepPricing.js';
import { sweepPrices } from './sweepPrices.js';
import { PricedRunKinds } from './pricedRunKinds.js';
import { gridWarnings, recordedWindowless } from './sweepWarnings.js';
import { gridFactsReading, runHeaderFactsOf } from './sweepHeaderFacts.js';
import { inputWarningsOf, sayInputWarning } from './inputWarnings.js';
import { noGroundTruthWarning } from '../../report/warningLists.js';
import { configurationSummaryWarnings } from '../../report/summaryCallWarning.js';
import { traceRunKinds } from '../../population/generatedRuns.js';

/** Inputs with no ground truth: calibrate says so when it reads them, and its report warns of it (inputWarnings.ts). */
const NO_GROUND_TRUTH = noGroundTruthWarning();

export type CalibrateFlags = Omit<SweepFlags, 'targetCompletion' | 'workers' | 'shard'>;

export async function calibrateAction(inputs: string[], opts: CalibrateFlags, io: CliIO, given: GivenFlag): Promise<number> {
  letYoungGenerationGrow();
  const format = chooseFormat(opts, io);
  if (format === 'chart') throw new UserError({ file: '<command line>', field: '--format', code: 'bad_value', message: 'calibrate has no chart', hint: 'use table, csv or json' });
  warnViewFlags(opts, format, io);
  checkOutputs([['--out', opts.out]], pricedInputs(inputs, opts), io);
  const read = await prepareSweep(inputs, opts, given, io);
  // A run past $9,007 makes its file bad (sweepDrop.ts): the figures are of the sweep without it.
  const { prepared, figures, meanings } = await tallyDropping({ prepared: read, opts, io }, (prepared) => {
    const meanings = new CompletionMeanings();
    return { prepared, figures: calibrationsOf(prepared.population, prepared.configurations.map((c) => c.config), prepared.prices, meanings), meanings };
  });
  // Generated traces (`loopcost generate`) carry their run's ground truth in their headers: synthetic runs.
  const { recordedRuns, generatedRuns: generated } = traceRunKinds(prepared.population.traces);
  const syntheticRuns = prepared.scenarios.reduce((n, s) => n + s.settings.runs, 0) + generated;
  if (syntheticRuns === 0) sayInputWarning(io, NO_GROUND_TRUTH, `loopcost: warning: ${NO_GROUND_TRUTH.message}\n`);
  const configs = prepared.configurations;
  const say = configurationSayer(prepared);
  // A fitted profile among the inputs has no stuck agents: said when no synthetic run is stuck (fitWarnings.ts knows the profiles fit wrote).
  const fitted = [...new Set(prepared.scenarios.filter(({ scenario }) => fitPricesOf(scenario) !== undefined || fitWarningsOf(scenario).length > 0).map(({ scenario }) => scenario.source))];
  const noStuck = noStuckRunsNote(figures, fitted);
  const report = buildCalibrateReport({
    // What the runs took of the brakes, context, cache and latency no grid axis gave, as sweep says it (sweepTookOwn).
    settings: reportSettings({
      brakes: brakesFromFlags(prepared.fixed.brakeFlags),
      strategy: strategyFromFlags(prepared.fixed.contextFlags),
      ...(prepared.fixed.latency === undefined ? {} : { latency: prepared.fixed.latency }),
      ...(prepared.fixed.model === undefined ? {} : { model: prepared.fixed.model }),
      grid: prepared.axes,
      took: sweepTookOwn(prepared),
    }),
    prices: sweepPrices(prepared, new PricedRunKinds().add(prepared.traces).kinds()),
    grid: prepared.axes,
    inputs: { recordedRuns, syntheticRuns },
    configurations: configs.map((c, i) => {
      const { flags, brakes } = say(c);
      return { settings: c.settings, flags, brakes, ...figures[i]! };
    }),
    notes: [
      'Ground truth (synthetic runs, and traces `loopcost generate` wrote, whose headers carry it): whether the agent gets stuck with no brakes, and from which step; whether its task is done, and at which step. Recorded runs have none: only their false stops are counted, by outcome (baseline: replayed as recorded with no brakes).',
      ...scenarioNotes(prepared, 'calibrate'),
      ...[completionMeaningsLine(meanings.counts(), { completed: 'what a completion rate counts, and recorded runs are judged by', done: 'false stops (synthetic), precision and recall' }), noStuck].filter((line): line is string => line !== undefined),
    ],
    warnings: [...inputWarningsOf(io), ...calibrateWarnings({ prepared, figures, recordedRuns, inputs })],
  });
  emitReport(renderCalibrate(report, format, reportView(opts, io)), { ...(opts.out === undefined ? {} : { out: opts.out }), format, warnings: report.warnings }, io);
  return 0;
}

/** What calibrate's report warns of beyond reading its inputs: sweep's grid warnings, and what each summary strategy's summaries did (read off each configuration's totals under the strategy its runs took, as sweep reads its rows: summaryCallWarning.ts). */
function calibrateWarnings(args: { prepared: PreparedSweep; figures: ReturnType<typeof calibrationsOf>; recordedRuns: number; inputs: string[] }): ReportWarning[] {
  const { prepared, figures } = args;
  const summaryRuns = prepared.configurations.flatMap((c, i) => {
    const strategy = configurationStrategy(c.config, prepared);
    return strategy === undefined ? [] : [{ strategy, runs: figures[i]!.synthetic.runs + figures[i]!.recorded.runs, summaryCalls: figures[i]!.summaryCalls }];
  });
  return [
    ...gridWarnings({ command: 'calibrate', setup: prepared, recordedRuns: args.recordedRuns, priceGaps: sweepPriceGaps(prepared, prepared.traces), windowless: recordedWindowless(prepared, prepared.traces), inputs: args.inputs, traces: prepared.traces, headerFacts: runHeaderFactsOf(prepared.traces, gridFactsReading(prepared.configurations.map((c) => c.config), prepared.prices)) }),
    ...configurationSummaryWarnings(summaryRuns),
  ];
}
