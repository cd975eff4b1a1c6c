/**
 * The projection report (`loopcost project`): daily and period spend at p50 / p95 / p99 and the mean (and
 * where a percentile is only the top of few values: projectTails.ts), the ceiling the brakes allow (JSON
 * `worstCase`: a bound, on a line of its own, not beside the percentiles), where prompts pass a price tier
 * or the context window less the max_tokens sent (a provider refuses a call whose prompt + max_tokens
 * passes it), and how far to trust it (bootstrap intervals, the distribution-free cap bound, a suggested cap).
 */
import { LOOPCOST_VERSION } from '../version.js';
import { counted } from '../plural.js';
import type { Projection, PromptCrossing, Quantiles } from '../population/project.js';
import type { PricesRecord } from './pricedModels.js';
import { falseStopsText, type FalseStopFigures } from './replayFalseStops.js';
import { noRoomCrossingLine } from '../population/modelWindow.js';
import { thresholdWords } from './crossingWords.js';
import { confidenceText, type FittedProfile, type GeneratedRuns, type HandWrittenScenario } from './projectConfidenceText.js';
import { partsText, type ProjectPart } from './projectParts.js';
import { formatUsdNumber } from './money.js';
import { scenarioLine, type InputsRecord } from './scenarios.js';
import { SETTINGS_SEPARATOR, type ReportSettings } from './settings.js';
import { formatTable, type Column } from './table.js';
import { printableText, wrapLine } from './text.js';
import { labelledLine, reportFooter, type ReportView } from './view.js';
import type { ReportWarning } from './warnings.js';
import { mixesRecordedAndScenarioRuns } from './projectMix.js';
import { fewValuesLine, periodBelowMeanTopWords } from './projectTails.js';

export interface SuggestedCap {
  /** The share of completing runs the cap may stop. */
  share: number;
  capUsd: number | null;
  completedRuns: number;
  /** Replayed under the cap (check mode): completing runs it stopped. */
  stopped: number;
  /** Replayed so, the completing runs the other brakes stopped first (false stops); absent: no other brake binds. */
  otherStopped?: number;
  /** With a fitted profile among the inputs: the runs those completing and stopped stand for (its runs the recorded runs it was fitted to), what the bounds are of. */
  standsFor?: { completedRuns: number; stopped: number };
  /** One-sided 95% upper bound (exact binomial) of the share of new runs the cap stops (from `stopped` of `completedRuns`, or `standsFor`'s; 0 when none completes). */
  stoppedUpperShare: number;
  /** With n completing runs (`standsFor`'s where given), the share of new runs above their largest cost, at 95% confidence (one-sided, distribution-free). */
  boundShare: number;
  runsToClaim: number;
  text: string;
}

/** A projection as the report has it: every amount named for its unit (`perDayUsd`, `perPeriodUsd`, as `perRunUsd`). */
export type ProjectionUsd = Omit<Projection, 'perDay' | 'perPeriod'> & { perDayUsd: Projection['perDay']; perPeriodUsd: Projection['perPeriod'] };

/** JSON `prices` as replay's (pricedModels.ts pricesRecord): the table's source (its fields, and again as `source`), each resolution the runs took with its runs, the days they were priced as of, and the note. */
export type ProjectPricesRecord = PricesRecord;

export interface ProjectReport extends ProjectionUsd, Partial<FalseStopFigures> {
  tool: { name: 'loopcost'; version: string };
  command: 'project';
  settings: ReportSettings;
  prices: ProjectPricesRecord;
  /** The runs drawn from: recorded and synthetic, each scenario file's runs, seed and latency (`seed` above: the simulated days' and the bootstrap's; with --seed given, the synthetic runs' too). */
  inputs: InputsRecord;
  /** The worst case the brakes allow over the period (null: unbounded), per run, and by which rule. */
  worstCaseUsd: number | null;
  /** `atLatest`: where the table's latest prices (`pricesAsOf`, its release day) put it elsewhere, a run's ceiling at them (runs priced as of their recording day, a tier the latest drop). */
  worstCase: { perRunUsd: number | null; perDayUsd: number | null; rule: string; atLatest?: { perRunUsd: number | null; pricesAsOf?: string } };
  capBound: { runs: number; share: number; text: string };
  crossings: PromptCrossing[];
  /** How each part's runs ended under the settings it took (recorded runs, each scenario file's, or the session trees), and what they cost a run. */
  parts: ProjectPart[];
  /** The fitted profiles among the inputs: their runs stand for the recorded runs each was fitted to in `confidence` (projectConfidence.ts). */
  fittedProfiles?: FittedProfile[];
  /**
   * The scenario files fit did not write among the inputs, and the traces `loopcost generate` wrote (by the file
   * each was drawn from): every figure rests on the weights and sizes a scenario assumes, which no interval
   * measures (projectConfidenceText.ts).
   */
  handWritten?: { scenarios: readonly HandWrittenScenario[]; generated?: readonly GeneratedRuns[]; text: string };
  /** `project --tree`: each session tree one run (one task) of every figure; the per-agent limits (`none` without them). */
  tree?: { sessionTrees: number; subagentLimits: string };
  suggestCap?: SuggestedCap;
  notes: string[];
  warnings: ReportWarning[];
}

export function buildProjectReport(args: Omit<ProjectReport, 'tool' | 'command' | keyof ProjectionUsd> & Projection): ProjectReport {
  // The inputs beside the settings and prices (JSON key order), then the figures.
  const { settings, prices, inputs, runsPerDay, days, seed, trials, perDay, perPeriod, ...rest } = args;
  return { tool: { name: 'loopcost', version: LOOPCOST_VERSION }, command: 'project', settings, prices, inputs, runsPerDay, days, seed, trials, perDayUsd: perDay, perPeriodUsd: perPeriod, ...rest };
}

const usd = (value: number | null): string => (value === null ? 'unbounded' : formatUsdNumber(value));

/** The spend drawn; the ceiling the brakes allow is a bound, not a percentile, so it is a line of its own (ceilingLine). */
const COLUMNS: Column[] = [{ header: 'spend' }, { header: 'mean', align: 'right' }, { header: 'p50', align: 'right' }, { header: 'p95', align: 'right' }, { header: 'p99', align: 'right' }];

/** `Ceiling the brakes allow (a bound, not a projected spend): $X a run, $Y a day, $Z per 30 days — <rule>.` (JSON `worstCase`, `worstCaseUsd`). */
function ceilingLine(report: Pick<ProjectReport, 'worstCase' | 'worstCaseUsd' | 'days'>): string {
  const { perRunUsd, perDayUsd, rule } = report.worstCase;
  if (perRunUsd === null) return `Ceiling the brakes allow: none (${rule}).`;
  return `Ceiling the brakes allow (a bound, not a projected spend): ${usd(perRunUsd)} a run, ${usd(perDayUsd)} a day, ${usd(report.worstCaseUsd)} per ${report.days} days — ${rule}.${ceilingAtLatestWords(report.worstCase.atLatest)}`;
}

/** ` At the table's latest prices (2026-09-23) it is $12.0614 a run (…).` where they move it; else ''. */
function ceilingAtLatestWords(atLatest: ProjectReport['worstCase']['atLatest']): string {
  if (atLatest === undefined) return '';
  const day = atLatest.pricesAsOf === undefined ? '' : ` (${atLatest.pricesAsOf})`;
  return ` At the table's latest prices${day} it is ${usd(atLatest.perRunUsd)} a run (the runs are priced as of their recording days${atLatest.pricesAsOf === undefined ? '' : `; --prices-as-of ${atLatest.pricesAsOf} projects at the latest`}).`;
}

export function renderProjectTable(report: ProjectReport, view: ReportView): string {
  const row = (label: string, q: Quantiles) => [label, usd(q.mean), usd(q.p50), usd(q.p95), usd(q.p99)];
  let text = formatTable(COLUMNS, [row('per run', report.perRunUsd), row('per day', report.perDayUsd), row(`per ${report.days} days`, report.perPeriodUsd)], { maxWidth: view.width });
  const c = report.confidence;
  const fewValues = fewValuesLine({ runs: report.perRunUsd.runs, days: report.days, trials: report.trials, tree: report.tree !== undefined });
  const lines = [
    `${report.runsPerDay} runs a day for ${report.days} days, drawn from ${report.tree === undefined ? `${report.perRunUsd.runs} runs` : `${counted(report.perRunUsd.runs, 'session tree')}, each one run`} (${runKinds(report.inputs)}; ${report.trials} simulated periods drawn with seed ${report.seed}${populationSeedText(report)}).`,
    ...(fewValues === undefined ? [] : [fewValues]),
    partsText(report.parts),
    ...falseStopsLine(report),
    ceilingLine(report),
    `${confidenceText(c, report.perRunUsd.runs, report.fittedProfiles, mixesRecordedAndScenarioRuns(report.parts))}${periodBelowMeanTopWords(report)} ${report.capBound.text}`,
    ...(report.handWritten === undefined ? [] : [report.handWritten.text]),
    ...report.crossings.map((x) => noRoomCrossingLine(x) ?? `${x.model}: prompts pass the ${thresholdWords(x)} in ${x.runsCrossing} of ${x.runs} runs${x.firstStep === null ? '' : `, first at step ${x.firstStep}, median step ${x.medianStep}`}.`),
    ...(report.suggestCap ? [report.suggestCap.text] : []),
    ...report.notes,
  ];
  text += lines.map((line) => wrapLine('', line, view.width)).join('');
  text += reportFooter({ settings: report.settings, warnings: [], width: view.width });
  // Each scenario file's runs and seed, as replay names them, and what its runs took that the settings line does not say (its own brakes, context, cache, latency).
  const synthetic = report.parts.filter((part) => part.kind === 'synthetic');
  for (const [i, s] of report.inputs.scenarios.entries()) {
    const spec = synthetic[i]?.settings ?? { latency: s.latency };
    text += labelledLine(printableText(scenarioLine({ ...s, spec }, report.settings)), view.width, SETTINGS_SEPARATOR);
  }
  const rule = scenarioSettingsRule(report);
  if (rule !== undefined) text += labelledLine(rule, view.width);
  return `${text}${reportFooter({ priceSource: report.prices.source, pricesNote: report.prices.note ?? '', warnings: report.warnings, width: view.width })}`;
}

/**
 * With a brake on, its false stops in replay's words (replayFalseStops.ts falseStopsText: replay's figures on
 * the same runs), and that the spend is of the runs as stopped: the tasks they leave undone are not in it.
 */
function falseStopsLine(report: ProjectReport): string[] {
  const { falseStops, falseStopRate, completeWithoutBrakes, falseStopsJudged } = report;
  if (falseStops === undefined || falseStopRate === undefined || completeWithoutBrakes === undefined || falseStopsJudged === undefined) return [];
  const trees = report.tree !== undefined;
  const what = trees ? 'session trees they stop that complete with no brakes, as replay --tree counts them' : 'runs they stop that complete with no brakes, as replay counts them';
  const spend = falseStops === 0 ? '' : `; the spend projected is of those ${trees ? 'trees' : 'runs'} as stopped, not of finishing their tasks`;
  return [`False stops of these brakes (${what}): ${falseStopsText({ falseStops, falseStopRate, completeWithoutBrakes, falseStopsJudged }, trees ? 'tree' : 'run')}${spend}.`];
}

/**
 * With scenario files, how their runs' settings were made, in the settings block (one block, as every report
 * ends with; before, a `Settings:` paragraph above it said this): each file's own, the flags on top; the
 * recorded runs beside them the flags alone.
 */
function scenarioSettingsRule(report: Pick<ProjectReport, 'inputs' | 'parts' | 'tree'>): string | undefined {
  if (report.tree !== undefined || report.inputs.scenarios.length === 0) return undefined;
  const recorded = report.parts.some((part) => part.kind === 'recorded') ? '; the recorded runs beside them take the flags alone (as sweep, replay and calibrate run them)' : '';
  return `synthetic runs: each scenario file's runs take its own brakes, context and cache, with the flags given on top${recorded}`;
}

/**
 * Which seed made the synthetic runs, beside the projection's: `--seed` seeds both (seedSeedsProjection);
 * without it the days take 1 and each file's runs its own seed.
 */
function populationSeedText(report: Pick<ProjectReport, 'seed' | 'inputs' | 'parts'>): string {
  const seeds = [...new Set(report.inputs.scenarios.map((s) => s.seed))];
  if (seeds.length === 0) return '';
  // Generated traces among the synthetic runs (the recorded part's `generated`) were made when they were generated, not with these seeds.
  const made = report.parts.some((part) => (part.generated ?? 0) > 0) ? "the scenario files' runs" : 'the synthetic runs';
  if (seeds.length === 1 && seeds[0] === report.seed) return `, which made ${made} too`;
  return `; ${made} made with ${seeds.length === 1 ? 'seed' : 'seeds'} ${seeds.join(', ')}`;
}

/** `38 recorded, 300 synthetic`: the runs a projection draws from. */
function runKinds(inputs: InputsRecord): string {
  return [inputs.recordedRuns > 0 ? `${inputs.recordedRuns} recorded` : '', inputs.syntheticRuns > 0 ? `${inputs.syntheticRuns} synthetic` : ''].filter(Boolean).join(', ');
}

export function renderProject(report: ProjectReport, format: string, view: ReportView): string {
  return format === 'json' ? JSON.stringify(report, null, 2) + '\n' : renderProjectTable(report, view);
}
