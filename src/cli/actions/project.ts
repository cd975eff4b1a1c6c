/**
 * `loopcost project`: what the population's runs would cost a day and over a period under the brakes
 * given (seeded Monte Carlo), the worst case those brakes allow, where prompts pass a price tier or the
 * context window, and with `--suggest-cap R` the per-run budget that stops at most R of completing runs.
 */
import type { ReportWarning } from '../../report/warnings.js';
import { UserError } from '../../errors.js';
import { picoToUsd, usdToPico } from '../../money.js';
import { shareFlagValue } from '../../io/numberText.js';
import { capBoundShare, projectSpend, type PromptCrossing } from '../../population/project.js';
import type { WorstCase } from '../../population/worstCase.js';
import type { PopulationConfig } from '../../population/run.js';
import type { ModelPricing } from '../../pricing/types.js';
import type { RunPair } from '../../metrics/population.js';
import { tooManySimulatedDays } from '../../population/projectDays.js';
import { buildProjectReport, renderProject, type ProjectPricesRecord, type ProjectReport, type SuggestedCap } from '../../report/projectReport.js';
import { percentText } from '../../report/percentText.js';
import { handWrittenText, periodNote, type FittedProfile, type HandWrittenInputs } from '../../report/projectConfidenceText.js';
import { CompletionMeanings, completionMeaningsLine } from '../../population/completionMeanings.js';
import { predictiveStopsLine } from '../../report/predictiveStops.js';
import { reportSettings } from '../../report/settings.js';
import { inputsRecord, type InputsRecord } from '../../report/scenarios.js';
import { traceRunKinds } from '../../population/generatedRuns.js';
import { scenarioPricings, scenarioRunSettings } from '../../scenario/replayScenarios.js';
import { nonNegativeInt, positiveInt } from '../../flags/numberFlags.js';
import type { CliIO } from '../io.js';
import { letYoungGenerationGrow } from '../youngGeneration.js';
import { checkOutputs, emitReport, pricedInputs, reportView, tableOrJson } from './output.js';
import { chooseFormat } from './flagChecks.js';
import type { GivenFlag } from './inputs.js';
import { refuseRunsPastHeap } from '../runsHeap.js';
import { prepareSweep, type PreparedSweep, type SweepFlags } from './sweepWork.js';
import { sweepTookOwn } from './sweepTook.js';
import { suggestedCap } from './projectSuggestCap.js';
import { projectBrakesOn, projectFalseStops, projectRunWarnings } from './projectStops.js';
import { projectPrices } from './projectPricing.js';
import type { FalseStopFigures } from '../../report/replayFalseStops.js';
import { fittedStrata, type ObservedRuns, partCacheWarnings, partRecords, partSummaryRuns, partWindowWarnings, projectConfig, projectedRuns, worstCaseAtLatest, worstCaseOverParts, type RunsPart } from './projectParts.js';
import type { ProjectPart } from '../../report/projectParts.js';
import { tallyDropping } from './sweepDrop.js';
import { checkProjectedSizes, runsPerDayFlag } from './projectRange.js';
import { maxOf } from '../../metrics/extremes.js';
import { fittedProfileWarnings, unreadTracesWarnings } from './scenarioWarnings.js';
import { scenarioInputTriggerWarnings } from './scenarioTriggers.js';
import { importNotesTallyOf } from './runNotes.js';
import { inputWarningsOf } from './inputWarnings.js';
import { projectWarningList, type SummaryRuns } from '../../report/warningLists.js';
import { mixesRecordedAndScenarioRuns, mixFollowsRunCountsWarnings } from '../../report/projectMix.js';
import { projectTreeOf, treeCapBoundText, treeNotes } from './projectTree.js';
import { subagentLimitsFromFlags } from './treeFlags.js';

export type ProjectFlags = Omit<SweepFlags, 'grid' | 'force' | 'targetCompletion' | 'workers' | 'shard'> & { runsPerDay?: string; days?: string; trials?: string; suggestCap?: string };

/** A share flag (`--suggest-cap`): a number as every number flag takes one (io/numberText.ts), or a percentage of one. */
function share(flag: string, value: string): number {
  const smallHint = 'to suggest a cap, write the share of completing runs it may stop, at least 1e-16: 0.02 or 2%';
  const zeroNot = 'asks for a cap that stops no run that completes, which only no cap does: leave --suggest-cap out';
  const n = shareFlagValue(value, { flag, accepts: (fraction) => fraction > 0 && fraction < 1, notA: 'is not a share between 0 and 1', hint: 'write 0.02 or 2%', smallHint, zeroNot });
  // Past this, 1 − share is 1 in doubles: the cap is the largest completed run's whatever the share, and the runs to claim it are past 1e17.
  if (1 - n === 1) throw new UserError({ file: '<command line>', field: flag, code: 'bad_value', message: `'${value}' is too small a share to tell from 0 (1 − it is 1 in double precision)`, hint: smallHint });
  return n;
}

/** The runs the predictive budget bound stopped (their stops' byPredictiveBound), said under the table. */
function predictiveStopsOf(pairs: readonly RunPair[]): number {
  return pairs.filter((pair) => pair.run.byPredictiveBound === true).length;
}

/** Each trial keeps its days' spend for the quantiles: days × trials numbers in memory, bounded. */
function checkSimulatedDays(days: number, trials: number): void {
  const tooMany = tooManySimulatedDays(days, trials);
  if (tooMany !== undefined) throw new UserError({ file: '<command line>', field: '--days', code: 'too_large', message: tooMany, hint: 'give fewer --days or fewer --trials' });
}

/** Without --runs-per-day: the scenario files' runsPerDay summed (whole runs), else 100. */
export const FALLBACK_RUNS_PER_DAY = 100;
function defaultRunsPerDay(prepared: PreparedSweep): number {
  const stated = prepared.scenarios.map((s) => s.scenario.runsPerDay).filter((n): n is number => n !== undefined);
  return stated.length === 0 ? FALLBACK_RUNS_PER_DAY : Math.max(1, Math.round(stated.reduce((a, b) => a + b, 0)));
}

/** Where the runs a day were given: the flag, else the scenario files' `runsPerDay` (the first file's, when it is one). */
function runsPerDayPlace(prepared: PreparedSweep, given: number | undefined): { file: string; field: string } {
  const files = prepared.scenarios.filter((s) => s.scenario.runsPerDay !== undefined).map((s) => s.scenario.source);
  return given !== undefined || files.length === 0 ? { file: '<command line>', field: '--runs-per-day' } : { file: files.length === 1 ? files[0]! : '<arguments>', field: 'runsPerDay' };
}

export async function projectAction(inputs: string[], opts: ProjectFlags, io: CliIO, given: GivenFlag): Promise<number> {
  letYoungGenerationGrow();
  const flags = readProjectFlags(opts, io);
  // Per-agent limits without --tree are refused naming this command (sweepGrid would name sweep's help).
  subagentLimitsFromFlags(opts, 'project');
  const { days, target } = flags;
  checkOutputs([['--out', opts.out]], pricedInputs(inputs, opts), io);
  // Each scenario file's runs under its own settings, the flags on top; recorded runs under the flags alone (as sweep: projectParts.ts).
  const sweepOpts = { ...opts, grid: [], seedSeedsProjection: true };
  const read = await prepareSweep(inputs, sweepOpts, given, io);
  refuseRunsPastHeap('project', read.scenarios, { runsGiven: given('runs'), pooled: true });
  // Every tally over the runs (a run past $9,007 makes its file bad: sweepDrop.ts), then the bad files refused or listed.
  const { prepared, config, pairs, crossings, parts, suggestCap, stopsAndPrices, pricings, worst } = await tallyDropping({ prepared: read, opts: sweepOpts, io }, (prepared) => {
    const config = projectConfig(prepared);
    const { pairs, crossings, parts, observed } = projectedRuns(prepared, config);
    const suggestCap = target === undefined || pairs.length === 0 ? undefined : suggestedCap(prepared, { config, pairs, target, strata: fittedStrata(parts, pairs).strata });
    // Each recorded run's pricing as it was priced (they come first; --tree: every run of the trees), for the warnings that read it.
    const pricings = observed.pricings.slice(0, prepared.traces.length);
    const worst = worstCaseOverParts(parts, prepared);
    // The ceiling priced at the table's latest too: a recording day's tier the latest drop moves it (said beside it).
    const latestPerRunUsd = worstCaseAtLatest(parts, prepared, worst).perRunUsd;
    return { prepared, config, pairs, crossings, parts, suggestCap, stopsAndPrices: stopsAndPricesOf(prepared, { config, pairs, parts, observed }), pricings, worst: { ...worst, latestPerRunUsd } };
  });
  const runsPerDay = flags.runsPerDay ?? defaultRunsPerDay(prepared);
  if (pairs.length === 0) throw new UserError({ file: '<arguments>', code: 'no_runs', message: 'no run to project from', hint: 'pass trace files or scenario files' });
  const costsPico = pairs.map((p) => p.run.costPico);
  checkProjectedSizes({ runsPerDay, days, largestRunPico: maxOf(costsPico), worstRunPico: worst.perRunUsd === null ? null : usdToPico(worst.perRunUsd), place: runsPerDayPlace(prepared, flags.runsPerDay) });
  // A fitted profile's runs stand for the recorded runs it was fitted to in the intervals and each period's resample (projectConfidence.ts, projectDays.ts).
  const { strata, fitted, handWritten } = fittedStrata(parts, pairs);
  const projection = projectSpend(costsPico, { runsPerDay, days, seed: flags.seed, trials: flags.trials, ...(strata === undefined ? {} : { strata }) });
  const meanings = suggestCap === undefined ? [] : completionNotes(pairs);
  const report = projectReportOf({ prepared, config, inputs, runs: pairs.length, crossings: crossings.crossings(), parts, records: partRecords(parts, pairs), fitted, handWritten, suggestCap, meanings, predictiveStops: predictiveStopsOf(pairs), said: inputWarningsOf(io), summaries: partSummaryRuns(parts, pairs), stopsAndPrices, pricings }, { projection, worst, runsPerDay, days });
  emitReport(renderProject(report, flags.format, reportView(opts, io)), { ...(opts.out === undefined ? {} : { out: opts.out }), format: flags.format, warnings: report.warnings }, io);
  return 0;
}

/** What the runs say beside their spend: the false stops of the brakes (when one binds), the prices they took, and what both warn of. */
interface StopsAndPrices {
  falseStops?: FalseStopFigures;
  prices: ProjectPricesRecord;
  warnings: ReportWarning[];
}

/**
 * The false stops as replay counts them (projectStops.ts), the prices block as replay's (projectPricing.ts), and
 * their warnings: a brake's early stop of recorded runs (`open_loop_brakes`), runs priced as of a past day at
 * other prices than the table's latest (`prices_as_recorded`: the runs' cost decides, as the library's).
 */
function stopsAndPricesOf(prepared: PreparedSweep, run: { config: PopulationConfig; pairs: RunPair[]; parts: RunsPart[]; observed: ObservedRuns }): StopsAndPrices {
  const { config, pairs, observed } = run;
  return {
    ...(projectBrakesOn(run.parts, config) ? { falseStops: projectFalseStops(pairs) } : {}),
    prices: projectPrices(prepared.prices.source, observed.pricings),
    warnings: projectRunWarnings(observed, { prices: prepared.prices, config, pairs, recordedTraces: prepared.population.recorded.traces ?? [], ...(prepared.trees === undefined ? {} : { trees: prepared.trees }) }),
  };
}

/** The command's own flags, checked in the order given: the format, runs a day, days, trials, seed and --suggest-cap. */
function readProjectFlags(opts: ProjectFlags, io: CliIO): { format: string; runsPerDay: number | undefined; days: number; trials: number; seed: number; target: number | undefined } {
  const format = chooseFormat(opts, io);
  tableOrJson('project', format);
  const runsPerDay = opts.runsPerDay === undefined ? undefined : runsPerDayFlag(opts.runsPerDay);
  const days = positiveInt('--days', opts.days ?? '30');
  const trials = positiveInt('--trials', opts.trials ?? '1000');
  checkSimulatedDays(days, trials);
  const seed = nonNegativeInt('--seed', opts.seed ?? '1');
  const target = opts.suggestCap === undefined ? undefined : share('--suggest-cap', opts.suggestCap);
  return { format, runsPerDay, days, trials, seed, target };
}

/** The report of a projection: the spend drawn, the worst case the brakes allow, the cap bound, the crossings, notes and warnings. */
function projectReportOf(
  runs: { prepared: PreparedSweep; config: PopulationConfig; inputs: string[]; runs: number; crossings: PromptCrossing[]; parts: RunsPart[]; records: ProjectPart[]; fitted: FittedProfile[]; handWritten: HandWrittenInputs; suggestCap: SuggestedCap | undefined; meanings: string[]; predictiveStops: number; said: ReportWarning[]; summaries: SummaryRuns[]; stopsAndPrices: StopsAndPrices; pricings: readonly ModelPricing[] },
  spend: { projection: ReturnType<typeof projectSpend>; worst: WorstCase & { latestPerRunUsd: number | null }; runsPerDay: number; days: number },
): ProjectReport {
  const { prepared, config, suggestCap } = runs;
  const { worst, runsPerDay, days } = spend;
  const times = (count: number) => (worst.perRunUsd === null ? null : picoToUsd(BigInt(usdToPico(worst.perRunUsd)) * BigInt(count)));
  const n = runs.runs;
  // A fitted profile's runs stand for the runs it was fitted to (projectConfidence.ts): the bound of that many.
  const standsFor = spend.projection.confidence.standsFor;
  const bound = capBoundShare(standsFor ?? n);
  const tree = prepared.trees === undefined ? undefined : projectTreeOf(prepared.trees, config);
  return buildProjectReport({
    // The flags' settings (the recorded runs'), each scenario file's runs what they took of their file's, as sweep says them.
    settings: reportSettings({
      brakes: config.brakes,
      strategy: config.strategy,
      ...(config.latency === undefined ? {} : { latency: config.latency }),
      ...(config.model === undefined ? {} : { model: config.model }),
      took: sweepTookOwn(prepared),
    }),
    prices: runs.stopsAndPrices.prices,
    inputs: projectInputs(prepared, tree),
    ...(tree === undefined ? {} : { tree }),
    ...spend.projection,
    worstCaseUsd: times(runsPerDay * days),
    worstCase: { perRunUsd: worst.perRunUsd, perDayUsd: times(runsPerDay), rule: worst.rule, ...(worst.latestPerRunUsd === worst.perRunUsd ? {} : { atLatest: { perRunUsd: worst.latestPerRunUsd, ...(prepared.prices.source.releasedOn === undefined ? {} : { pricesAsOf: prepared.prices.source.releasedOn }) } }) },
    capBound: { runs: n, share: bound, text: tree === undefined ? `A budget at the largest of these ${n} runs' costs may stop up to ${percentText(bound)} of new runs (95% confidence, distribution-free: 1 − 0.05^(1/n)${standsFor === undefined ? '' : `, n the ${standsFor} runs they stand for`}).` : treeCapBoundText(n, percentText(bound)) },
    crossings: runs.crossings,
    parts: runs.records,
    ...runs.stopsAndPrices.falseStops,
    ...(runs.fitted.length === 0 ? {} : { fittedProfiles: runs.fitted }),
    ...handWrittenRecord(runs.handWritten, mixesRecordedAndScenarioRuns(runs.records)),
    ...(suggestCap === undefined ? {} : { suggestCap }),
    notes: tree !== undefined ? [...treeNotes(tree, prepared.traces.length), ...predictiveNotes(runs.predictiveStops, n)] : [
      periodNote(runs.fitted),
      ...predictiveNotes(runs.predictiveStops, n),
      ...runs.meanings,
    ],
    // What reading the inputs said on stderr first (inputWarnings.ts), then what the runs warn of.
    warnings: [...runs.said, ...mixFollowsRunCountsWarnings(runs.records), ...projectWarnings(prepared, { config, runs: n, inputs: runs.inputs, crossings: runs.crossings, parts: runs.parts, summaries: runs.summaries, pricings: runs.pricings }), ...runs.stopsAndPrices.warnings],
  });
}

/** The runs drawn from (JSON `inputs`): generated traces among the synthetic runs, as calibrate counts them (generatedRuns.ts); --tree's session trees as recorded. */
function projectInputs(prepared: PreparedSweep, tree: { sessionTrees: number } | undefined): InputsRecord {
  const scenarios = prepared.scenarios.map(scenarioRunSettings);
  if (tree !== undefined) return inputsRecord(tree.sessionTrees, scenarios);
  const { recordedRuns, generatedRuns } = traceRunKinds(prepared.population.traces);
  const record = inputsRecord(recordedRuns, scenarios);
  return { ...record, syntheticRuns: record.syntheticRuns + generatedRuns };
}

/** The hand-written scenario files and generated traces among the inputs and what their figures rest on (JSON `handWritten`); nothing when there is none. */
function handWrittenRecord(inputs: HandWrittenInputs, mixed: boolean): Pick<ProjectReport, 'handWritten'> {
  const text = handWrittenText(inputs, mixed);
  return text === undefined ? {} : { handWritten: { scenarios: inputs.scenarios, ...(inputs.generated.length === 0 ? {} : { generated: inputs.generated }), text } };
}

/** With --suggest-cap (chosen by ground truth where it is known): what "completed" and "task done" each count, in one line. */
function completionNotes(pairs: readonly RunPair[]): string[] {
  const meanings = new CompletionMeanings();
  for (const pair of pairs) meanings.add(pair.baseline.stopReason, pair.baseline.truth);
  const line = completionMeaningsLine(meanings.counts(), { completed: 'what a completion rate counts, and recorded runs are judged by', done: 'what the suggested cap is chosen from' });
  return line === undefined ? [] : [line];
}

/** The line counting the runs (trees) the predictive bound stopped, if any. */
function predictiveNotes(stops: number, n: number): string[] {
  return stops === 0 ? [] : [predictiveStopsLine(stops, `of the ${n}`)];
}

/** What the projection's report warns of (report/warningLists.ts projectWarningList, as the library's): its parts' cache and windows, unread and fitted scenario files, summary triggers, trees, import notes. */
function projectWarnings(prepared: PreparedSweep, of: { config: PopulationConfig; runs: number; inputs: string[]; crossings: PromptCrossing[]; parts: readonly RunsPart[]; summaries: SummaryRuns[]; pricings: readonly ModelPricing[] }): ReportWarning[] {
  const { config } = of;
  const scenarios = prepared.scenarios.map((s) => s.scenario);
  return projectWarningList({
    config,
    traces: prepared.traces,
    pricings: of.pricings,
    runs: of.runs,
    prices: prepared.prices,
    inputs: of.inputs,
    crossings: of.crossings,
    cache: partCacheWarnings(of.parts, prepared),
    windows: partWindowWarnings(of.parts, prepared),
    scenarioFiles: [...unreadTracesWarnings(scenarios), ...fittedProfileWarnings(scenarios, prepared.prices), ...scenarioInputTriggerWarnings(prepared.scenarios, scenarioPricings(prepared.scenarios, prepared.prices, config.model))],
    ...(prepared.trees === undefined ? {} : { unrecorded: prepared.trees.unrecorded() }),
    importNotes: importNotesTallyOf(prepared.traces).warnings(),
    summaries: of.summaries,
  });
}
