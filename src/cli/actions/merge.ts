/**
 * `loopcost merge`: the JSON reports of `sweep --shard K/N` joined into the report one run of the whole
 * sweep gives (byte-identical): every shard 1..N of the same sweep (same grid, settings, prices, inputs,
 * tool version) exactly once, rows in configuration order, then the frontier and recommendation. A shard of
 * another sweep is refused naming the fields that differ, with both values (mergeDifferences.ts).
 */
import { UserError, type InputIssue } from '../../errors.js';
import { readSmallTextFileSync } from '../../io/readInput.js';
import { readSweepShard } from '../../report/sweepShard.js';
import type { SweepShardReport } from '../../report/sweepShardSchema.js';
import { finishSweepReport, resampledOfShard, sweepReportPieces, type SweepHeader, type SweepReport } from '../../report/sweepReport.js';
import type { Resampled } from '../../population/recommendSureness.js';
import type { CliIO } from '../io.js';
import { checkOutputs, emitReport, reportView, type ViewFlags } from './output.js';
import { chooseFormat, warnViewFlags } from './flagChecks.js';
import { inputHashIssues } from './sweepInputHashes.js';
import { otherSweepIssue } from './mergeDifferences.js';
import { rowBrakesIssue, UnreadRowBrakes } from '../../report/sweepBrakeConfig.js';

export type MergeFlags = ViewFlags & { format?: string; out?: string };

function shardIssue(file: string, message: string, hint = 'pass the JSON reports of every loopcost sweep --shard K/N of one sweep, each once'): InputIssue {
  return { file, code: 'bad_shard', message, hint };
}

/** A shard read and checked: its report, or every problem found in it (a file that cannot be read is one). */
function readShard(file: string): { file: string; report?: SweepShardReport; issues: InputIssue[] } {
  let text: string;
  try {
    text = readSmallTextFileSync(file);
  } catch (error) {
    if (error instanceof UserError) return { file, issues: error.issues };
    throw error;
  }
  const read = readSweepShard(text, file);
  return read.report === undefined ? { file, issues: read.issues } : { file, report: read.report, issues: [] };
}

/** What every shard of one sweep shares. */
function headerOf(report: SweepShardReport): SweepHeader {
  const { shard: _shard, configurations: _rows, ...header } = report;
  return header;
}

export function mergeShards(files: readonly string[]): SweepReport {
  const read = files.map(readShard);
  const problems = read.flatMap((shard) => shard.issues);
  if (problems.length > 0) throw new UserError(problems);
  const shards = read.map(({ file, report }) => ({ file, report: report! }));
  const first = shards[0]!;
  const firstSweep = { file: first.file, header: headerOf(first.report), shard: first.report.shard };
  const issues = shards.flatMap(({ file, report }) => otherSweepIssue(file, { header: headerOf(report), shard: report.shard }, firstSweep) ?? []);
  const of = first.report.shard.of;
  const byIndex = new Map<number, string>();
  for (const { file, report } of shards) {
    const other = byIndex.get(report.shard.index);
    if (other !== undefined) issues.push(shardIssue(file, `is shard ${report.shard.index}/${of} again (also ${other})`));
    byIndex.set(report.shard.index, file);
  }
  const missing = Array.from({ length: of }, (_, k) => k + 1).filter((k) => !byIndex.has(k));
  // The same names read with other contents (a trace edited between two jobs): figures of other runs.
  for (const { file, report } of shards.slice(1)) issues.push(...inputHashIssues({ file, inputs: report.shard.inputs }, { file: first.file, inputs: first.report.shard.inputs }));
  if (missing.length > 0) issues.push({ file: '<arguments>', code: 'missing_shard', message: `shard${missing.length === 1 ? '' : 's'} ${missing.join(', ')} of ${of} missing`, hint: 'pass every shard of the sweep' });
  if (issues.length > 0) throw new UserError(issues);
  const ordered = [...shards].sort((a, b) => a.report.shard.index - b.report.shard.index);
  try {
    return finishSweepReport(headerOf(first.report), ordered.flatMap(({ report }) => report.configurations), first.report.shard.replayInputs, resampledOfShards(shards));
  } catch (error) {
    throw error instanceof UnreadRowBrakes ? new UserError(rowBrakesIssue(error.unread, inShard(ordered, error.index))) : error;
  }
}

/** The shard file that holds row `index` of the merged rows (shards in order), and its index among that shard's rows. */
function inShard(ordered: readonly { file: string; report: SweepShardReport }[], index: number): { file: string; index: number } {
  let start = 0;
  for (const { file, report } of ordered) {
    if (index < start + report.configurations.length) return { file, index: index - start };
    start += report.configurations.length;
  }
  return { file: '<arguments>', index };
}

/**
 * The shards' resamples (how sure the recommendation is), each its slice of the grid's (finishSweepReport
 * joins them as one sweep's): absent when none has them; shards that resampled otherwise (seed, resamples,
 * or one without them) are refused.
 */
function resampledOfShards(shards: readonly { file: string; report: SweepShardReport }[]): Resampled[] | undefined {
  const parts = shards.map(({ report }) => report.shard.resampled);
  const first = parts[0];
  if (parts.every((part) => part === undefined)) return undefined;
  const other = shards.find(({ report }) => report.shard.resampled?.seed !== first?.seed || report.shard.resampled?.resamples !== first?.resamples);
  if (other !== undefined) throw new UserError(shardIssue(other.file, `resampled its choice otherwise than ${shards[0]!.file} (seed or resamples differ, or one has none)`, 'make every shard with the same loopcost sweep command and --seed, then merge them'));
  return parts.map((part) => resampledOfShard(part!));
}

export function mergeAction(files: string[], opts: MergeFlags, io: CliIO): number {
  const format = chooseFormat(opts, io);
  warnViewFlags(opts, format, io);
  checkOutputs([['--out', opts.out]], files, io);
  const report = mergeShards(files);
  emitReport(sweepReportPieces(report, format, reportView(opts, io)), { ...(opts.out === undefined ? {} : { out: opts.out }), format, warnings: report.warnings }, io);
  return 0;
}
