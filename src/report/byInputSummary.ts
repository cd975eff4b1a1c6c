/**
 * replay's text summary broken down by input: with runs from two or more input files (scenario files, trace
 * files; a directory or glob that brought in many trace files as one, as the chart groups them:
 * replayChart.ts chartInputOf), one row per input in input order, each input's figures as `replay` of it
 * alone gives them (summary.ts summarise, records.ts summaryRecord, tasks done judged as the summary judges
 * them: recommendRuns.ts DoneCountsBuilder). Pure.
 */
import type { RunResult } from '../replay/replay.js';
import { summarise } from '../replay/summary.js';
import { DoneCountsBuilder, type JudgedRun } from '../population/recommendRuns.js';
import { summaryRecord, type SummaryRecord } from './records.js';
import type { ReplayReport } from './replayReport.js';
import { usdOrDash } from './money.js';
import { percentText } from './percentText.js';
import { scenarioOfRun } from './scenarios.js';
import { formatTable, type Cell, type Column } from './table.js';
import { shortenPaths, splitRun } from './text.js';

/** What the by-input table reads beside the report: the runs' results, which input a run's file is under, and each run as judged for tasks done (replayFalseStops.ts FalseStopTally.judgedRuns), all in the report's run order. */
export interface ReportInputs {
  results: readonly RunResult[];
  inputOf: (file: string) => string;
  judged?: readonly (JudgedRun | undefined)[] | undefined;
}

/** The most common stop reasons an input's row names (`max_steps 12, repeat 3`). */
const STOP_REASONS_SHOWN = 2;

interface InputRuns {
  results: RunResult[];
  judged: (JudgedRun | undefined)[];
}

/** Each input's runs, inputs in the order their first run came; a synthetic run under its scenario file. */
function runsOfEachInput(report: ReplayReport, inputs: ReportInputs): Map<string, InputRuns> {
  const groups = new Map<string, InputRuns>();
  inputs.results.forEach((run, i) => {
    const file = splitRun(run.source)[0];
    const input = scenarioOfRun(run.source, report.settings.scenarios) === undefined ? inputs.inputOf(file) : file;
    let group = groups.get(input);
    if (group === undefined) groups.set(input, (group = { results: [], judged: [] }));
    group.results.push(run);
    group.judged.push(inputs.judged?.[i]);
  });
  return groups;
}

/** An input's summary as `replay` of it alone gives it, tasks done where some of its runs carry ground truth. */
function inputSummary(runs: InputRuns): SummaryRecord {
  const builder = new DoneCountsBuilder(1);
  let withTruth = 0;
  for (const run of runs.judged) {
    if (run === undefined) continue;
    builder.judge(0, run);
    withTruth += 1;
  }
  return summaryRecord(summarise(runs.results), withTruth === 0 ? undefined : builder.take(0));
}

/** `max_steps 12, repeat 3`: the input's most common stop reasons, most first (ties in the summary's order). */
function topStopReasons(stopReasons: Record<string, number>): string {
  const counted = Object.entries(stopReasons).filter(([, n]) => n > 0);
  counted.sort((a, b) => b[1] - a[1]);
  return counted.slice(0, STOP_REASONS_SHOWN).map(([reason, n]) => `${reason} ${n}`).join(', ') || '-';
}

/** The by-input table with its heading line, or '' with fewer than two inputs (or no results given). */
export function byInputTable(report: ReplayReport, inputs: ReportInputs | undefined, width: number): string {
  if (inputs === undefined || inputs.results.length !== report.runs.length) return '';
  const groups = runsOfEachInput(report, inputs);
  if (groups.size < 2) return '';
  // Each input named as the per-run table names its file: the part that differs (`flight-search.yaml`), the rest in the heading.
  const names = shortenPaths([...groups.keys()]);
  const rows = [...groups.values()].map((runs, i) => ({ input: names.short[i]!, summary: inputSummary(runs) }));
  const withTasks = report.summary.tasksDone !== undefined;
  const columns: (Column & { cell: (row: (typeof rows)[number]) => Cell })[] = [
    { header: 'input', shrink: true, cell: (row) => row.input },
    { header: 'runs', align: 'right', cell: (row) => row.summary.runs },
    { header: 'completed', align: 'right', cell: (row) => `${row.summary.completed} (${percentText(row.summary.completionRate)})` },
    ...(withTasks ? [{ header: 'tasks done', align: 'right' as const, cell: (row: (typeof rows)[number]) => tasksCell(row.summary) }] : []),
    { header: 'cost per run', align: 'right', cell: (row) => usdOrDash(row.summary.meanCostPerRunUsd) },
    { header: 'total cost', align: 'right', cell: (row) => usdOrDash(row.summary.totalCostUsd) },
    { header: 'top stop reasons', shrink: true, cell: (row) => topStopReasons(row.summary.stopReasons) },
  ];
  const table = formatTable(columns, rows.map((row) => columns.map((column) => column.cell(row))), { maxWidth: width });
  const shared = names.prefix === '' && names.suffix === '' ? '' : ` (${names.prefix}…${names.suffix})`;
  return `by input${shared}:\n${table}`;
}

/** `45 (90.0%)`, or `-` for an input none of whose runs carries ground truth. */
function tasksCell(summary: SummaryRecord): string {
  const tasks = summary.tasksDone;
  return tasks === undefined ? '-' : `${tasks.done} (${percentText(tasks.doneRate)})`;
}
