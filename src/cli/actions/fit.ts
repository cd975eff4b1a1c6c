/**
 * `loopcost fit INPUTS... --out profile.yaml [--prices FILE] [--report]`: a scenario whose population
 * reproduces recorded runs; `--report` replays both and prints their quantiles side by side (on stderr when
 * the profile goes to stdout: no `--out`, or `--out -`, so that `fit … > profile.yaml` is a YAML file).
 */
import { maxOutputTokensSent, NO_BRAKES } from '../../brakes/config.js';
import { PromptCrossings } from '../../population/project.js';
import { windowLessMaxTokens } from '../../report/crossingWords.js';
import { writeFileAtomic } from '../../io/atomicWrite.js';
import { loadPriceTable } from '../../pricing/index.js';
import type { ModelPricing, PriceSource, PriceTable } from '../../pricing/types.js';
import type { Trace } from '../../trace/types.js';
import { replayTrace, type RunResult } from '../../replay/replay.js';
import { tracePricing } from '../../replay/tracePricing.js';
import { formatUsdNumber } from '../../report/money.js';
import { formatTable, type Column } from '../../report/table.js';
import { labelledLine, reportFooter } from '../../report/view.js';
import { fitScenario, PROVIDER_ERROR_GROUP, RUNS_FOR_A_TAIL } from '../../scenario/fit.js';
import { reliabilityLine } from '../../scenario/fitReliability.js';
import { fewRunsForTailsWarning } from '../../scenario/fitTails.js';
import { CONTEXT_WINDOW_GROUP } from '../../scenario/fitWindow.js';
import { doneUnfinishedText, GAVE_UP_GROUP, type TruthRuns } from '../../scenario/fitGaveUp.js';
import { profiledRuns, subagentsLeftOutLine } from '../../scenario/fitPooling.js';
import { fitPricesNote } from '../../scenario/fitWarnings.js';
import { allCallsFailedLine, compareRuns, refusedAtWindowLine, type FitComparison, type FitMetric } from '../../scenario/fitReport.js';
import { tokenCount } from '../../report/text.js';
import { parseScenario, type Scenario } from '../../scenario/load.js';
import { brakesText } from '../../scenario/fitBrakeStops.js';
import { resolveScenarioPricing, runScenario } from '../../scenario/run.js';
import { scenarioYaml } from '../../scenario/writeYaml.js';
import type { CliIO } from '../io.js';
import { nonNegativeInt, positiveInt } from '../../flags/numberFlags.js';
import { priceOptionsFromFlags, type PriceFlags, type ReadFlags } from '../parseFlags.js';
import { SCENARIO_RUNS_LIMIT } from '../../flags/numberFlags.js';
import { traceInputs, workOnRuns } from './inputs.js';
import { announceWritten, checkOutputs, pricedInputs, reportView } from './output.js';
import { recordedTraceFiles } from './recordedInputs.js';
import { refuseCountPastHeap } from '../runsHeap.js';
import { describePriceSource } from '../../pricing/source.js';
import { STDOUT_PATH } from '../../io/outputTarget.js';
import { UserError } from '../../errors.js';
import { priceGapWarningsOf } from '../../replay/priceGaps.js';
import { warningLines, type ReportWarning } from '../../report/warnings.js';
import { inputWarningsOf } from './inputWarnings.js';
import { counted } from '../../plural.js';
import { percentText, signedPercentText, signedPointsText } from '../../report/percentText.js';

export type FitFlags = PriceFlags & ReadFlags & { out?: string; report?: boolean; runs?: string; seed?: string; format?: 'table' | 'json' };

const COLUMNS: Column[] = [
  { header: 'metric' },
  { header: 'quantile' },
  { header: 'recorded', align: 'right' },
  { header: 'synthetic', align: 'right' },
  { header: 'gap', align: 'right' },
];

/** fit's quantiles are interpolated (a smooth target on few runs); the population reports' are nearest-rank values. */
const QUANTILE_NOTE = 'quantiles interpolated between the nearest runs (sweep, check and project report the nearest-rank run: on few runs the two differ)';

/** The brakes the report's runs ran under: none, or the profile's (the recorded runs end where they ended, as recorded). */
const profileBrakesWords = (brakes: Scenario['brakes']) => (brakes === undefined ? 'no brakes' : `recorded runs with no brakes (each ends where it ended), synthetic ones under the profile's brakes ${brakesText(brakes)}`);

/** The price flags fit was given (`--prices FILE`, …), as a profile's replays pass them again; empty: the bundled table. */
function priceFlagsGiven(flags: PriceFlags): string {
  const given = [flags.prices === undefined ? '' : `--prices ${flags.prices}`, flags.pricesOverride === undefined ? '' : `--prices-override ${flags.pricesOverride}`, flags.pricesAsOf === undefined ? '' : `--prices-as-of ${flags.pricesAsOf}`];
  return given.filter(Boolean).join(' ');
}

/**
 * The profile holds token sizes, not prices: a note of the table its runs were priced with (--report, the
 * prices gap), of the flags that price its replays the same way, and the table's identity for the commands
 * that run the profile to hold theirs to (scenario/fitWarnings.ts: they warn under another table).
 */
function pricesNotes(flags: PriceFlags, source: PriceSource): string[] {
  const given = priceFlagsGiven(flags);
  const again = given === '' ? 'the bundled table' : given;
  return [
    `Fitted with prices ${describePriceSource(source)}. The profile names no prices in its fields: replay it with ${again} to price it as its runs were priced here (the commands that run it warn under another table, by the line below).`,
    fitPricesNote(source, given),
  ];
}

/** Completion shares, recorded and synthetic, and their gap in points (`+2.3`; a gap that is not 0 never reads `+0.0`). */
export function completionLine(completion: FitComparison['completion']): string {
  return `completion: recorded ${percentText(completion.recorded)}, synthetic ${percentText(completion.synthetic)} (${signedPointsText(completion.gapPoints)} points)\n`;
}

/**
 * Runs that did their task, recorded and synthetic, by their ground truth ('' unless every recorded run carries
 * one): a run that completed need not have (a retrier that gives up), and fit keeps those apart (fitGaveUp.ts).
 */
export function tasksDoneLine(c: Pick<FitComparison, 'tasksDone'>, runs: TruthRuns): string {
  if (c.tasksDone === undefined) return '';
  const { recorded, synthetic, gapPoints } = c.tasksDone;
  const its = (n: number) => (n === 1 ? 'its' : 'their');
  const apart = runs.gaveUp === 0 ? 'every recorded run that completed did its task' : `the ${counted(runs.gaveUp, 'recorded run')} that completed without doing ${its(runs.gaveUp)} task are the profile's '${GAVE_UP_GROUP}' group`;
  const short = runs.doneUnfinished === 0 ? '' : `; ${doneUnfinishedText(runs.doneUnfinished, 'the synthetic share')}`;
  return `tasks done: recorded ${percentText(recorded)}, synthetic ${percentText(synthetic)} (${signedPointsText(gapPoints)} points), by the runs' ground truth: ${apart}${short}`;
}

/** A fit figure as the table shows it: money as every report does, prompt tokens as a token count (to the token: quantiles are interpolated), steps to a tenth. */
export function fitFigureText(metric: FitMetric, value: number): string {
  if (metric === 'costPerRunUsd') return formatUsdNumber(value);
  return metric === 'promptTokensAtLastCall' ? tokenCount(Math.round(value)) : value.toFixed(1);
}

function renderComparison(c: FitComparison, view: { how: string; unseenRuns: string; truthRuns: TruthRuns; priceSource: PriceSource; warnings: readonly ReportWarning[]; width: number }): string {
  const { how, priceSource, width } = view;
  const rows = c.rows.map((row) => {
    const value = (n: number) => fitFigureText(row.metric, n);
    return [row.metric, row.quantile, value(row.recorded), value(row.synthetic), row.relativeGap === null ? '-' : signedPercentText(row.relativeGap)];
  });
  const completion = completionLine(c.completion);
  const heldOut = labelledLine(`unseen runs: ${view.unseenRuns}`, width);
  const said = (line: string) => (line === '' ? '' : labelledLine(line, width));
  const zeroRuns = said(allCallsFailedLine(c, { providerError: PROVIDER_ERROR_GROUP, contextWindow: CONTEXT_WINDOW_GROUP }));
  const atWindow = said(refusedAtWindowLine(c, CONTEXT_WINDOW_GROUP));
  const tasksDone = said(tasksDoneLine(c, view.truthRuns));
  return `${labelledLine(how, width)}${formatTable(COLUMNS, rows, { maxWidth: width })}${completion}${tasksDone}${zeroRuns}${atWindow}${heldOut}${reportFooter({ priceSource, warnings: view.warnings, width })}`;
}

/**
 * Recorded prompts past the window the profile's synthetic runs are held to — its model's window less the
 * max_tokens they send, as a provider counts it (PromptCrossings, the one rule) — warned: those runs end
 * there (their provider refuses the call), so the profile cuts the recorded runs' longest, costliest tail.
 * `recorded`: the runs made on the profile's model only (another model's prompts say nothing of its window).
 */
export function pastProfileWindowWarnings(recorded: readonly Pick<RunResult, 'rows'>[], pricing: ModelPricing): ReportWarning[] {
  const crossings = new PromptCrossings({ maxOutputTokens: maxOutputTokensSent(NO_BRAKES) });
  let largest = 0;
  for (const run of recorded) {
    crossings.add(pricing, run.rows);
    for (const row of run.rows) largest = Math.max(largest, row.inputTokens);
  }
  const past = crossings.crossings().find((c) => c.kind === 'context_window' && c.runsCrossing > 0);
  if (past === undefined) return [];
  return [
    {
      code: 'recorded_past_profile_window',
      message:
        `recorded prompts of runs made on ${past.model}, the profile's model, pass its context window less max_tokens ${windowLessMaxTokens(past)} in ${past.runsCrossing} of the ${counted(past.runs, 'run')} made on it (up to ${largest.toLocaleString('en-US')} tokens): ` +
        "the profile's synthetic runs end there (their provider refuses a prompt + max_tokens past the window), so its longest, costliest runs are cut short; " +
        "price it with the window these runs had (max_input_tokens in a --prices or --prices-override file; loopcost prices derive writes one from these runs when they passed the table's), or replay the profile with the max_tokens they sent (--max-output-tokens)",
    },
  ];
}

/**
 * A profile is YAML (its notes are comments), read back (replay, check, sweep) from a scenario file's name:
 * an `--out` not named .yaml or .yml (`prof.txt`, `prof.yaml.gz`, `prof.json`, whose readers would expect
 * JSON) is refused before any work.
 */
export function checkProfileOut(out: string | undefined): void {
  if (out === undefined || out === STDOUT_PATH || YAML_NAME.test(out)) return;
  const base = out.replace(/\.gz$/i, '');
  const named = YAML_NAME.test(base) ? base : `${base.replace(/\.[a-z][a-z0-9]*$/i, '')}.yaml`;
  throw new UserError({
    file: '<command line>',
    field: '--out',
    code: 'unknown_extension',
    message: `'${out}' is not a YAML scenario file's name: fit writes the profile as YAML (its notes as comments), which replay, check and sweep read back from a .yaml or .yml file`,
    hint: `name it ${named}`,
  });
}

const YAML_NAME = /\.ya?ml$/i;

/**
 * The profile of the runs read, with its notes and warnings as comments: a session's sub-agents are other
 * agents, left out (said on stderr) when a main agent's runs are there (fitPooling.ts).
 */
function profileOf(read: readonly { trace: Trace; run: RunResult }[], ctx: { flags: FitFlags; prices: PriceTable; inputs: string[]; io: CliIO }) {
  const { flags, prices, inputs, io } = ctx;
  const { profiled, subagentRunsLeftOut } = profiledRuns(read, (r) => r.trace);
  const leftOut = subagentsLeftOutLine(subagentRunsLeftOut);
  if (leftOut !== '') io.stderr(`loopcost: ${leftOut}\n`);
  const traces = profiled.map((r) => r.trace);
  const fitted = fitScenario(traces, (trace) => tracePricing(trace, { prices }), { prices });
  const { scenario } = fitted;
  const notes = leftOut === '' ? fitted.notes : [fitted.notes[0]!, leftOut, ...fitted.notes.slice(1)];
  // The window the profile's runs are held to speaks of the recorded runs of the profile's model only.
  const ofProfileModel = profiled.filter((r) => r.trace.header.model === scenario.model).map((r) => r.run);
  const windowWarnings = pastProfileWindowWarnings(ofProfileModel, resolveScenarioPricing({ ...scenario, source: flags.out ?? 'fitted profile' }, prices));
  const warnings = [...fitted.warnings, ...priceGapWarningsOf(traces, { prices, inputs }), ...windowWarnings];
  const yaml = scenarioYaml(scenario, [...notes, ...pricesNotes(flags, prices.source), ...warnings.map((w) => `Warning: ${w.message}`)]);
  const recordedTasksDone = profiled.map((r) => r.trace.header.synthetic?.taskDone);
  return { recorded: profiled.map((r) => r.run), recordedTasksDone, truthRuns: fitted.truthRuns, subagentRunsLeftOut, warnings, yaml };
}

/** --runs, --seed and --format shape the report only: said on stderr when given without --report (read first: a bad value is refused alone). */
function warnReportFlags(flags: FitFlags, io: CliIO): void {
  if (flags.report) return;
  for (const [flag, given] of [['--runs', flags.runs], ['--seed', flags.seed], ['--format', flags.format]] as const) {
    if (given !== undefined) io.stderr(`loopcost: warning: ${flag} applies to --report (the profile is the same whatever it says); without --report it does nothing\n`);
  }
}

export async function fitAction(inputs: string[], flags: FitFlags, io: CliIO): Promise<number> {
  const runs = positiveInt('--runs', flags.runs ?? '2000', SCENARIO_RUNS_LIMIT);
  const seed = nonNegativeInt('--seed', flags.seed ?? '1');
  warnReportFlags(flags, io);
  // --report keeps every synthetic run with its steps until it compares them: a count past the heap refused first (runsMemory.ts).
  if (flags.report) refuseCountPastHeap('fit', runs, { place: { file: '<command line>', field: '--runs' } });
  checkOutputs([['--out', flags.out]], pricedInputs(inputs, flags), io);
  checkProfileOut(flags.out);
  const prices = loadPriceTable(priceOptionsFromFlags(flags));
  const { files, unread, broughtIn } = recordedTraceFiles(inputs, { command: 'fit', instead: 'pass recorded traces of any supported format', read: flags }, io);
  // A run whose model the table lacks makes its file bad like any other problem (named, or left out with --skip-bad).
  // The recorded runs replayed as recorded as they are read (what --report compares, and the prompts the
  // profile's window must hold): a run costing past $9,007 makes its file bad too (replay names it).
  const read = await workOnRuns(traceInputs(files, flags, { unread, broughtIn }), io, (trace) => {
    tracePricing(trace, { prices });
    return { trace, run: replayTrace(trace, { brakes: NO_BRAKES, strategy: { kind: 'full' }, prices, keepSteps: true }) };
  });
  const { recorded, recordedTasksDone, truthRuns, subagentRunsLeftOut, warnings, yaml } = profileOf(read, { flags, prices, inputs, io });
  let report = '';
  if (flags.report) {
    const profile = parseScenario(yaml, flags.out ?? 'fitted profile');
    // Under the profile's own brakes: none, or those the runs a brake stopped were recorded under (scenario/fitBrakeStops.ts).
    const synthetic = runScenario(profile, { prices, runs, seed, keepSteps: true });
    const comparison = compareRuns(recorded, synthetic, recordedTasksDone);
    const unseenRuns = reliabilityLine({ comparison, recorded, synthetic, windowGroup: CONTEXT_WINDOW_GROUP }, RUNS_FOR_A_TAIL);
    const how = `recorded: ${counted(recorded.length, 'run')} replayed as recorded${subagentRunsLeftOut === 0 ? '' : ` (${counted(subagentRunsLeftOut, 'sub-agent run')} left out)`}; synthetic: ${synthetic.length} closed-loop runs of the fitted profile, seed ${seed}; ${profileBrakesWords(profile.brakes)}; ${QUANTILE_NOTE}`;
    const tails = fewRunsForTailsWarning(recorded.length);
    const reportWarnings = [...inputWarningsOf(io), ...warnings, ...(tails === undefined ? [] : [tails])];
    report =
      flags.format === 'json'
        ? `${JSON.stringify({ description: how, seed, priceSource: prices.source, subagentRunsLeftOut, ...comparison, unseenRuns, warnings: reportWarnings }, null, 2)}\n`
        : renderComparison(comparison, { how, unseenRuns, truthRuns, priceSource: prices.source, warnings: reportWarnings, width: reportView({}, io).width });
  }
  const profileToStdout = flags.out === undefined || flags.out === STDOUT_PATH;
  if (profileToStdout) io.stdout(yaml);
  else writeFileAtomic(flags.out!, yaml);
  // With the profile on stdout (`fit … > profile.yaml`), the report goes to stderr: the two on one stream are no YAML file.
  if (report && profileToStdout) io.stderr(report);
  else if (report) io.stdout(report);
  // Without a report the warnings are in the profile's comments, and said here too.
  else if (warnings.length > 0) io.stderr(warningLines(warnings));
  if (flags.out !== undefined) announceWritten({ what: 'scenario profile', file: flags.out }, io);
  return 0;
}
