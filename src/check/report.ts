/**
 * The check report: every expectation of every scenario with its measured value, its limit and pass /
 * fail, the drift against a baseline when one is given, the settings each scenario ran under and the
 * price table. As a table (one row per expectation, failures spelled out under it) or as JSON.
 */
import { describePriceSource } from '../pricing/source.js';
import type { PriceSource } from '../pricing/types.js';
import type { BaselineWritten } from './baselineCarry.js';
import { pricesRecord, type PricesRecord } from '../report/pricedModels.js';
import { formatGroupedTable, formatTable, type Cell, type Column, type RowGroup } from '../report/table.js';
import { wrapGroups, wrapRows } from '../report/wrapCells.js';
import { SETTINGS_SEPARATOR, settingsText, shellWord } from '../report/settings.js';
import { labelledLine } from '../report/view.js';
import { warningLines, type ReportWarning } from '../report/warnings.js';
import { displayWidth, printableText } from '../report/text.js';
import { maxOf } from '../metrics/extremes.js';
import { strategyFieldsText } from '../report/strategyFields.js';
import type { Drift, DriftRow } from './baseline.js';
import { priceChangeText } from './priceChangeText.js';
import { correctionsChangeText } from '../pricing/correctionsChange.js';
import { changesText } from './settingChanges.js';
import type { ScenarioCheck } from './run.js';
import { counted } from '../plural.js';
import { styledPercentText } from '../report/percentText.js';
import { driftDirection, driftValue, droppedBelowBaseline } from './driftText.js';
import { brakesRemovedLines, distrustedLines, noiseLines, pairedLines, quietStatusText, removedVerdict, sameAgentsLines } from './noiseText.js';
import { WORST_CASE_FIGURE, worstCaseLines, worstCaseVerdict } from './worstCaseDrift.js';
import { budgetBindsLines, budgetBindsVerdict } from './budgetBinds.js';
import { acceptText, baselineFailures, failsAgainstBaseline } from './gateCounts.js';
import { gateLines, gateVerdict, loosenedVerdict } from './gateFailures.js';
import { expectationNotes, failedWithinNoiseText, resultText } from './expectationText.js';
import { renamedLines } from './scenarioMatch.js';

export { renderCheckJson } from './reportJson.js';
export { driftDirection, driftValue, droppedBelowBaseline } from './driftText.js';

export interface CheckReport {
  tool: { name: 'loopcost'; version: string };
  /** Every expectation holds, nothing drifted past the tolerance and every baseline scenario was checked. */
  passed: boolean;
  expectations: number;
  failed: number;
  scenarios: ScenarioCheck[];
  drift?: Drift;
  /** Replay's prices block (pricedModels.ts pricesRecord): the table, `source`, `models` (each run of each scenario priced once), `days`, `note`. */
  prices: PricesRecord;
  warnings: ReportWarning[];
  /** The baseline `--update-baseline` wrote: what it carried over, replaced, and the overrides it holds (baselineCarry.ts). */
  baselineWritten?: BaselineWritten;
}

/** The report; `prices` the block of the runs checked (the CLI's), or the table alone (a library caller's: `models` empty, `days` absent). */
export function buildCheckReport(args: { scenarios: ScenarioCheck[]; drift?: Drift; prices: PriceSource | PricesRecord; version: string; warnings: ReportWarning[]; baselineWritten?: BaselineWritten }): CheckReport {
  const expectations = args.scenarios.reduce((n, s) => n + s.results.length, 0);
  const failed = args.scenarios.reduce((n, s) => n + s.results.filter((r) => !r.pass).length, 0);
  // A figure past the tolerance fails, and so does a baseline scenario this check did not run, a brake
  // removed, and a worst case per run the brakes allow that rose (`looser`): gateCounts.ts.
  const drifted = failsAgainstBaseline(args.drift);
  return {
    tool: { name: 'loopcost', version: args.version },
    passed: failed === 0 && !drifted,
    expectations,
    failed,
    scenarios: args.scenarios,
    ...(args.drift === undefined ? {} : { drift: args.drift }),
    prices: 'models' in args.prices ? args.prices : pricesRecord(args.prices, { models: [] }),
    warnings: args.warnings,
    ...(args.baselineWritten === undefined ? {} : { baselineWritten: args.baselineWritten }),
  };
}

// Each scenario's expectations under its name, shown whole on a line of its own; a list too long for the
// width (stop counts, the stop reasons allowed) continues on lines under its cell (wrapCells.ts).
const COLUMNS: Column[] = [{ header: 'expectation' }, { header: 'measured', wrap: ', ' }, { header: 'limit', wrap: ', ' }, { header: 'result' }];

function runsText(s: ScenarioCheck): string {
  const parts = [];
  if (s.recordedRuns > 0) parts.push(`${s.recordedRuns} recorded`);
  if (s.syntheticRuns > 0) parts.push(`${s.syntheticRuns} synthetic`);
  // The seed that made the synthetic runs (the file's, or --seed), as replay's scenario line says it.
  const seed = s.syntheticRuns > 0 && s.seed !== undefined ? ` (seed ${s.seed})` : '';
  // --tree: each recorded session tree is one run of every expectation.
  const trees = s.tree === undefined ? '' : ` (--tree: the recorded runs are ${counted(s.tree.sessionTrees, 'session tree')}, each one run; per-agent limits ${s.tree.subagentLimits})`;
  return `${parts.join(' + ') || 'no'} ${s.recordedRuns + s.syntheticRuns === 1 ? 'run' : 'runs'}${seed}${trees}`;
}

/** `5%`: the tolerance as `--tolerance` takes it. */
export function toleranceText(drift: Pick<Drift, 'tolerance'>): string {
  return styledPercentText(drift.tolerance, { decimals: 4, trim: true });
}

/** Which columns the drift table shows beside the figures: the baseline's agents on these draws (paired), the figures at the baseline's prices. */
interface DriftColumns {
  paired: boolean;
  repriced: boolean;
  tolerance: number;
  /** The scenarios whose worst case moved with the model, the brakes as they were (worstCaseModel.ts). */
  movedWithModel: ReadonlySet<string>;
}

/**
 * A scenario's row: new and gone have no figures to show; the status says what they are. A paired row shows the
 * baseline's agents on these draws in a column of their own, what its change (arrow and sign) is from.
 */
function driftCells(row: DriftRow, shown: DriftColumns): Cell[] {
  const extra = (shown.paired ? 1 : 0) + (shown.repriced ? 1 : 0);
  if (row.status === 'new' || row.status === 'gone') {
    return [row.scenario, row.figure, '', ...Array<string>(extra).fill(''), '', row.status === 'new' ? 'new: not in the baseline' : 'GONE: not checked'];
  }
  const direction = driftDirection(row, shown.tolerance);
  return [
    row.scenario,
    row.figure,
    driftValue(row, row.baseline),
    ...(shown.paired ? [row.paired === undefined ? '' : driftValue(row, row.paired)] : []),
    driftValue(row, row.measured),
    ...(shown.repriced ? [row.atBaselinePrices === undefined ? '' : driftValue(row, row.atBaselinePrices)] : []),
    row.status === 'drift' ? `DRIFT ${direction}`.trimEnd() : row.status === 'looser' ? `LOOSER ${direction}: ${shown.movedWithModel.has(row.scenario) ? 'the model allows more' : 'the brakes allow more'}` : row.status === 'budget binds' ? `BUDGET BINDS ${direction}: at the new prices` : quietStatusText(row, direction, shown.movedWithModel.has(row.scenario)),
  ];
}

function priceNotes(drift: Drift): string[] {
  const notes: string[] = [];
  // loopcost's corrections over the table differ from the baseline's: said in whichever price note there is.
  const corrections = drift.corrections === undefined ? undefined : correctionsChangeText(drift.corrections);
  const withCorrections = (note: string) => (corrections === undefined ? note : `${note}. ${corrections}`);
  if (drift.priceChange) {
    const models = drift.priceChange.models.map(priceChangeText).join('; ');
    notes.push(
      `price change: ${withCorrections(models)}. Every figure is measured again under the baseline's prices and judged there (what moved there is drift, not the price change); money only the new prices moved is labelled price change, not a brake regression, but a brake outcome (completionRate, falseStopRate) they moved past the tolerance fails as budget binds: the budget no longer fits the runs`,
    );
  }
  if (drift.tableChange) {
    const models = drift.tableChange.models === 1 ? 'the model these scenarios run is' : `the ${drift.tableChange.models} models these scenarios run are`;
    notes.push(withCorrections(`price table: the baseline was priced with ${drift.tableChange.baseline}, this check with ${drift.tableChange.now}; ${models} priced the same in both, so every figure is compared as measured`));
  }
  if (drift.pricesUnknown) {
    notes.push(
      withCorrections(
        `price table: the baseline was priced with ${drift.pricesUnknown.baseline}, this check with ${drift.pricesUnknown.now}; the baseline (format 1) does not hold the prices of its models, so money that moved counts as drift: write the baseline again with --update-baseline to store them`,
      ),
    );
  }
  return notes;
}

function goneNote(drift: Drift): string {
  const keyed = drift.formatOne
    ? 'this baseline (format 1) names scenario files by the path given where it was written: run from that directory, or write it again with --update-baseline to key them by their path from the baseline'
    : drift.keysNote !== undefined
      ? "this baseline's keys are read as the keys line above says"
      : "a baseline matches scenario files by their path relative to the baseline's directory, else a renamed one by its `name:` or its synthetic runs";
  // A new scenario beside a gone one may be it renamed, unmatched: accepted as new, its brakes would be compared with nothing.
  const renamed = drift.scenarios.new > 0 ? "; if a new scenario is a gone one renamed, give it the gone one's `name:`: it is then compared as that scenario, not accepted as new" : '';
  // Accepted: the baseline written keeps those whose file is there and drops the others, as `next:` says.
  if (drift.accepted !== undefined) return `gone: ${counted(drift.scenarios.gone, 'baseline scenario')} not checked in this run (next: what the baseline written kept and dropped); ${keyed}${renamed}`;
  return `gone: ${counted(drift.scenarios.gone, 'baseline scenario')} not checked (a failure): check ${drift.scenarios.gone === 1 ? 'it' : 'them'} too, or, if removed on purpose, drop ${drift.scenarios.gone === 1 ? 'it' : 'them'} from the baseline (next); ${keyed}${renamed}`;
}

/** Per scenario, what changed since the baseline; a scenario that drifted with none of it changed is said so. */
function changeLines(drift: Drift, width: number): string {
  if (drift.changes.length === 0) return '';
  let text = 'changed since the baseline:\n';
  for (const { scenario, changes } of drift.changes) {
    const line = changes.length > 0 ? changesText(changes) : 'no setting, model or run count changed: the scenario file (its population, sizes, traces) or loopcost moved these figures';
    text += labelledLine(printableText(`  ${scenario}: ${line}`), width, '; ');
  }
  return text;
}

/** That the tolerance holds both ways, before what a drop of the figures that fell may mean. */
const DROPS_FAIL = 'a figure that fell (↓) past the tolerance fails as one that rose does';

/**
 * What a drop of each figure a baseline holds (baseline.ts FIGURES) may mean, in the words that fit it,
 * in their order: a rate is no cost. Money (every `…Usd` figure) shares one reason.
 */
const DROP_MEANS: readonly [test: (figure: string) => boolean, means: string][] = [
  [(figure) => figure === 'completionRate', 'a lower completion rate is runs that no longer finish: brakes that now stop them, or an agent stuck more often'],
  [(figure) => figure === 'falseStopRate', 'a lower false-stop rate may be brakes loosened: fewer runs that would finish are stopped, and stuck runs may spend longer before one is'],
  [(figure) => figure === 'wastedShare', 'a smaller share of spend wasted may be runs that now end elsewhere: stopped sooner, or finishing where a brake stopped them'],
  [(figure) => figure.includes('Usd'), 'runs that cost less may be runs the brakes now stop before they finish'],
];

/** Why a drop of `figures` fails (the tolerance holds both ways), as the report and a JUnit drop failure say it. */
export function dropReason(figures: readonly string[]): string {
  const means = DROP_MEANS.filter(([test]) => figures.some(test)).map(([, words]) => words);
  return means.length === 0 ? DROPS_FAIL : `${DROPS_FAIL}: ${means.join('; ')}`;
}

/**
 * Said when a figure fell past the tolerance: the tolerance holds both ways, a drop fails as a rise does,
 * and what the drop of each figure that fell may mean; and the command that accepts it. Undefined when nothing dropped.
 */
export function dropNote(drift: Drift): string | undefined {
  const dropped = drift.rows.filter(droppedBelowBaseline).map((row) => row.figure);
  if (dropped.length === 0) return undefined;
  const accept = drift.accepted === undefined ? `if the drop is intended, accept it: run the same check with --update-baseline ${shellWord(drift.file)}` : acceptText(drift);
  return `drops: ${dropReason(dropped)}; ${accept}`;
}

/** How the drift is shown: the width, and each scenario's synthetic runs now (what the noise line's detection is said at). */
interface DriftView {
  width: number;
  runs: (scenario: string) => number | undefined;
}

/** The notes after the drift table: the drops, what changed, new and gone scenarios, and what to do. */
function driftNotes(drift: Drift, { width, runs }: DriftView): string {
  const drop = dropNote(drift);
  let text = drop === undefined ? '' : labelledLine(printableText(drop), width);
  for (const line of [...renamedLines(drift), ...brakesRemovedLines(drift), ...budgetBindsLines(drift), ...gateLines(drift), ...worstCaseLines(drift), ...noiseLines(drift, runs), ...distrustedLines(drift), ...sameAgentsLines(drift), ...pairedLines(drift)]) text += labelledLine(printableText(line), width);
  text += changeLines(drift, width);
  if (drift.loopcost) text += labelledLine(printableText(`loopcost: ${drift.loopcost.baseline} wrote the baseline, ${drift.loopcost.now} checks now`), width);
  if (drift.scenarios.new > 0) text += labelledLine(printableText(`new: ${counted(drift.scenarios.new, 'scenario')} not in the baseline (not a failure)`), width);
  if (drift.scenarios.gone > 0) text += labelledLine(printableText(goneNote(drift)), width);
  if (drift.hint) text += labelledLine(printableText(`next: ${drift.hint}`), width);
  return text;
}

function driftText(drift: Drift, view: DriftView): string {
  const { width } = view;
  const shown = drift.rows.filter((row) => row.status !== 'ok');
  // The figures of the runs (the worst case the brakes allow is said only when it moved: worstCaseDrift.ts).
  const compared = drift.rows.filter((row) => row.status !== 'new' && row.status !== 'gone' && row.figure !== WORST_CASE_FIGURE).length;
  let text = labelledLine(printableText(`baseline: ${drift.file}, tolerance ${toleranceText(drift)} (rates in points, money as a share of the baseline)`), width);
  if (drift.keysNote !== undefined) text += labelledLine(printableText(`keys: ${drift.keysNote}`), width);
  for (const note of priceNotes(drift)) text += labelledLine(printableText(note), width);
  if (shown.length === 0) return `${text}all ${compared} figures within tolerance\n${driftNotes(drift, view)}`;
  const repriced = drift.priceChange !== undefined;
  const paired = shown.some((row) => row.paired !== undefined);
  const movedWithModel = new Set((drift.worstCase?.moved ?? []).filter((move) => move.cause !== undefined).map((move) => move.scenario));
  const rows: Cell[][] = shown.map((row) => driftCells(row, { paired, repriced, tolerance: drift.tolerance, movedWithModel }));
  const columns: Column[] = [
    // A path is never cut (a CI log is searched and pasted from): the line runs long by it (tableWidth).
    { header: 'scenario' },
    { header: 'figure' },
    { header: 'baseline', align: 'right' },
    ...(paired ? [{ header: "baseline's\nagents now", align: 'right' as const }] : []),
    { header: 'measured', align: 'right' },
    ...(repriced ? [{ header: 'at baseline prices', align: 'right' as const }] : []),
    // A long status (a paired one names the baseline's agents) continues on lines under its cell.
    { header: 'status', wrap: ' ' },
  ];
  // The other columns keep the room they had beside a path cut to 12 columns: the path's excess makes the line longer.
  const tableWidth = width + Math.max(0, maxOf(shown.map((row) => displayWidth(printableText(row.scenario)))) - 12);
  return text + formatTable(columns, wrapRows(columns, rows, tableWidth), { maxWidth: tableWidth }) + driftNotes(drift, view);
}

/** `, 7 of 8 baseline scenarios matched (1 gone), 1 new scenario, 2 baseline figures drifted` */
function baselineVerdict(drift: Drift | undefined): string {
  if (drift === undefined) return '';
  const { drifted } = baselineFailures(drift);
  const how = [...(drift.renamed === undefined ? [] : [`${drift.renamed.length} renamed`]), ...(drift.scenarios.gone > 0 ? [`${drift.scenarios.gone} gone`] : [])];
  const gone = how.length === 0 ? '' : ` (${how.join(', ')})`;
  const added = drift.scenarios.new > 0 ? `, ${counted(drift.scenarios.new, 'new scenario')}` : '';
  return `, ${drift.scenarios.matched} of ${counted(drift.scenarios.inBaseline, 'baseline scenario')} matched${gone}${added}, ${counted(drifted, 'baseline figure')} drifted${removedVerdict(drift)}${loosenedVerdict(drift)}${worstCaseVerdict(drift)}${budgetBindsVerdict(drift)}${gateVerdict(drift)}`;
}

export function renderCheckTable(report: CheckReport, width: number): string {
  const groups: RowGroup[] = report.scenarios
    .filter((s) => s.results.length > 0)
    .map((s) => ({ heading: s.name, rows: s.results.map((r) => [r.expectation, r.measuredText, r.limit, resultText(r)]) }));
  const verdict = report.passed ? 'PASS' : 'FAIL';
  let text = `loopcost check: ${verdict}: ${counted(report.scenarios.length, 'scenario')}, ${counted(report.expectations, 'expectation')}, ${report.failed} failed${failedWithinNoiseText(report.scenarios)}${baselineVerdict(report.drift)}\n\n`;
  text += groups.length > 0 ? formatGroupedTable(COLUMNS, wrapGroups(COLUMNS, groups, width), { maxWidth: width }) : 'no expectations (add an `expect:` block to a scenario file; see docs/check.md)\n';
  text += expectationNotes(report.scenarios, width);
  const runs = (scenario: string) => report.scenarios.find((s) => s.source === scenario)?.syntheticRuns;
  if (report.drift) text += `\n${driftText(report.drift, { width, runs })}`;
  text += '\n';
  for (const s of report.scenarios) {
    text += labelledLine(printableText(`${s.name}: ${s.source}, ${runsText(s)}${SETTINGS_SEPARATOR}${settingsText(s.settings)}`), width, SETTINGS_SEPARATOR);
    if (s.strategy !== undefined) text += labelledLine(printableText(`${s.name}: ${strategyFieldsText(s.strategy)}`), width, ';');
  }
  text += labelledLine(printableText(`prices: ${describePriceSource(report.prices.source)}${report.prices.note ? `; ${report.prices.note}` : ''}`), width);
  return text + warningLines(report.warnings, width);
}
