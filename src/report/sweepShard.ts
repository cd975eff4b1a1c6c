/**
 * A shard's JSON text read for `loopcost merge`: parsed (a key given twice refused, as every JSON reader
 * refuses it), checked against the shard schema (src/report/sweepShardSchema.ts), then checked as a slice of
 * its grid: the configurations it says it holds, in grid order. Every problem of a shard comes back
 * together, each naming the field (its JSON path); nothing is thrown. Pure.
 */
import type { z } from 'zod';
import { MAX_REPORTED_ISSUES, type InputIssue } from '../errors.js';
import { parseJsonFileText } from '../io/jsonFileText.js';
import { parsedJsonTextProblem } from '../io/jsonText.js';
import type { GridAxis } from '../population/grid.js';
import type { SweepRow } from './sweepReport.js';
import { zodIssueWords } from '../zodWords.js';
import { rowProblems, sweepShardSchema, type SweepShardReport } from './sweepShardSchema.js';
import { fieldPath } from '../fieldPath.js';

export const SHARD_HINT = 'make each shard with loopcost sweep ... --shard K/N --format json, and merge the files as written';

export type ShardRead = { report: SweepShardReport; issues?: undefined } | { report?: undefined; issues: InputIssue[] };

/** A schema issue in the words of src/zodWords.ts (`is -5: must not be negative`); unknown keys and stop reasons in merge's own. */
function messageOf(issue: z.core.$ZodIssue, value: unknown): { code: string; message: string } {
  if (issue.code === 'unrecognized_keys') return { code: 'unknown_field', message: `unknown field${issue.keys.length === 1 ? '' : 's'} ${issue.keys.join(', ')}` };
  if (issue.code === 'invalid_key') return { code: 'unknown_stop_reason', message: 'is not a stop reason' };
  return zodIssueWords(issue, { schema: sweepShardSchema(), value }) ?? { code: issue.code, message: issue.message };
}

function shardIssue(file: string, field: string, code: string, message: string): InputIssue {
  return { file, ...(field === '' ? {} : { field }), code, message, hint: SHARD_HINT };
}

/**
 * Every problem of a shard's value: the schema's, then, in each row of the right types, figures that
 * disagree (rowProblems; a row with a field of the wrong type or range is not checked further).
 */
function valueIssues(value: { configurations?: unknown }, error: z.ZodError | undefined, file: string): InputIssue[] {
  const issues = (error?.issues ?? []).map((issue) => {
    const { code, message } = messageOf(issue, value);
    return shardIssue(file, fieldPath(issue.path), code, message);
  });
  const rows = Array.isArray(value.configurations) ? (value.configurations as unknown[]) : [];
  const badRows = new Set((error?.issues ?? []).filter((issue) => issue.path[0] === 'configurations').map((issue) => issue.path[1]));
  rows.forEach((row, i) => {
    if (badRows.has(i) || badRows.has(undefined)) return;
    for (const problem of rowProblems(row as SweepRow)) issues.push(shardIssue(file, `configurations[${i}].${problem.field}`, 'inconsistent_figures', problem.message));
  });
  return issues.slice(0, MAX_REPORTED_ISSUES);
}

/** The configuration label (`max-steps=10,max-repeat=3`, `default`) at `index` of the grid, the first axis varying slowest (as gridConfigurations). */
export function gridLabel(axes: readonly GridAxis[], index: number): string {
  if (axes.length === 0) return 'default';
  const parts: string[] = [];
  let rest = index;
  for (let a = axes.length - 1; a >= 0; a--) {
    const values = axes[a]!.values;
    parts.unshift(`${axes[a]!.key}=${values[rest % values.length]!}`);
    rest = Math.floor(rest / values.length);
  }
  return parts.join(',');
}

/** Where a shard's slice must sit: its range as sweep cuts it (shardRange), its rows the grid's configurations there. */
function sliceIssues(report: SweepShardReport, file: string): InputIssue[] {
  const issues: InputIssue[] = [];
  const at = (field: string, message: string) => issues.push({ file, field, code: 'bad_shard', message, hint: SHARD_HINT });
  const { index, of, from, to, configurations } = report.shard;
  const total = report.grid.reduce((n, axis) => n * axis.values.length, 1);
  if (index > of) at('shard.index', `is ${index}, past the ${of} shards`);
  if (configurations !== total) at('shard.configurations', `is ${configurations}, but the grid makes ${total}`);
  if (issues.length > 0) return issues;
  const range = { from: Math.floor(((index - 1) * total) / of), to: Math.floor((index * total) / of) };
  if (from !== range.from || to !== range.to) return [...issues, { file, field: 'shard', code: 'bad_shard', message: `holds configurations [${from}, ${to}), but shard ${index}/${of} of ${total} is [${range.from}, ${range.to})`, hint: SHARD_HINT }];
  if (report.configurations.length !== to - from) at('configurations', `holds ${report.configurations.length} configurations, its shard says ${to - from}`);
  report.configurations.forEach((row, i) => {
    const label = gridLabel(report.grid, from + i);
    if (issues.length < MAX_REPORTED_ISSUES && row.settings !== label) at(`configurations[${i}].settings`, `is '${row.settings}', but configuration ${from + i + 1} of the grid is '${label}'`);
  });
  return [...issues, ...resampledIssues(report, file)];
}

/** A shard's resamples: one choice per resample, each of its own configurations (or none), and only with a target. */
function resampledIssues(report: SweepShardReport, file: string): InputIssue[] {
  const resampled = report.shard.resampled;
  if (resampled === undefined) return [];
  const at = (field: string, message: string): InputIssue[] => [{ file, field: `shard.resampled${field}`, code: 'bad_shard', message, hint: SHARD_HINT }];
  if (report.targetCompletion === undefined) return at('', 'is there without a targetCompletion: only a sweep with --target-completion resamples its choice');
  const { choices } = resampled;
  if (choices === null) return [];
  if (choices.length !== resampled.resamples) return at('.choices', `holds ${choices.length} choices, but resamples is ${resampled.resamples}`);
  const { from, to } = report.shard;
  const bad = choices.findIndex(([index]) => index !== -1 && (index < from || index >= to));
  return bad < 0 ? [] : at(`.choices[${bad}]`, `chooses configuration ${choices[bad]![0]}, outside the shard's [${from}, ${to})`);
}

function looksLikeShard(value: unknown): boolean {
  return value !== null && typeof value === 'object' && !Array.isArray(value) && (value as { command?: unknown }).command === 'sweep' && 'shard' in value;
}

/** A shard's text read and checked; `file` names it in every issue. The report is the parsed value itself (its keys in the file's order). */
export function readSweepShard(text: string, file: string): ShardRead {
  const read = parseJsonFileText(text, { file, what: 'the JSON report of a loopcost sweep --shard K/N', hint: SHARD_HINT });
  if ('issue' in read) return { issues: [read.issue] };
  const value = read.value;
  const problem = parsedJsonTextProblem(text, value);
  if (problem !== undefined) return { issues: [{ file, ...(problem.field === undefined ? {} : { field: problem.field }), code: problem.code, message: problem.message, hint: SHARD_HINT }] };
  if (!looksLikeShard(value)) return { issues: [{ file, code: 'bad_shard', message: 'is not the JSON report of a loopcost sweep --shard K/N', hint: 'make each shard with loopcost sweep ... --shard K/N --format json' }] };
  const parsed = sweepShardSchema().safeParse(value, { reportInput: true });
  const issues = valueIssues(value as { configurations?: unknown }, parsed.error, file);
  if (issues.length > 0) return { issues };
  const report = value as SweepShardReport;
  const slice = sliceIssues(report, file);
  return slice.length > 0 ? { issues: slice } : { report };
}
