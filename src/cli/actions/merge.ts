/**
 * `loopcost merge`: the JSON reports of `sweep --shard K/N` joined into the report one run of the whole
 * sweep gives (byte-identical): every shard 1..N of the same sweep (same grid, settings, prices, inputs,
 * tool version) exactly once, rows in configuration order, then the frontier and recommendation.
 */
import { canonicalJson } from '../../brakes/fingerprint.js';
import { UserError, type InputIssue } from '../../errors.js';
import { readSmallTextFileSync } from '../../io/readInput.js';
import { finishSweepReport, renderSweep, type SweepHeader, type SweepReport } from '../../report/sweepReport.js';
import type { CliIO } from '../io.js';
import { checkOut, emitReport, reportView, type ViewFlags } from './output.js';
import { chooseFormat, warnViewFlags } from './flagChecks.js';

export type MergeFlags = ViewFlags & { format?: string; out?: string };

function shardIssue(file: string, message: string, hint = 'pass the JSON reports of every loopcost sweep --shard K/N of one sweep, each once'): InputIssue {
  return { file, code: 'bad_shard', message, hint };
}

function readShard(file: string): SweepReport {
  const text = readSmallTextFileSync(file);
  let report: SweepReport;
  try {
    report = JSON.parse(text) as SweepReport;
  } catch (error) {
    throw new UserError(shardIssue(file, `is not JSON (${(error as Error).message})`));
  }
  const shard = report?.shard;
  const ok = report !== null && typeof report === 'object' && report.command === 'sweep' && Array.isArray(report.configurations) && shard !== undefined && [shard.index, shard.of, shard.from, shard.to, shard.configurations].every(Number.isSafeInteger);
  if (!ok) throw new UserError(shardIssue(file, 'is not the JSON report of a loopcost sweep --shard K/N', 'make each shard with loopcost sweep ... --shard K/N --format json'));
  if (report.configurations.length !== shard.to - shard.from) throw new UserError(shardIssue(file, `holds ${report.configurations.length} configurations, its shard says ${shard.to - shard.from}`));
  return report;
}

/** What every shard of one sweep shares. */
function headerOf(report: SweepReport): SweepHeader {
  const { shard: _shard, configurations: _rows, pareto: _pareto, recommendation: _recommendation, ...header } = report;
  return header;
}

export function mergeShards(files: readonly string[]): SweepReport {
  const shards = files.map((file) => ({ file, report: readShard(file) }));
  const first = shards[0]!;
  const key = canonicalJson(headerOf(first.report));
  const issues: InputIssue[] = [];
  for (const { file, report } of shards) {
    if (canonicalJson(headerOf(report)) !== key || report.shard!.of !== first.report.shard!.of || report.shard!.configurations !== first.report.shard!.configurations) {
      issues.push(shardIssue(file, `is a shard of another sweep than ${first.file} (grid, settings, prices, inputs or version differ)`));
    }
  }
  const of = first.report.shard!.of;
  const byIndex = new Map<number, string>();
  for (const { file, report } of shards) {
    const other = byIndex.get(report.shard!.index);
    if (other !== undefined) issues.push(shardIssue(file, `is shard ${report.shard!.index}/${of} again (also ${other})`));
    byIndex.set(report.shard!.index, file);
  }
  const missing = Array.from({ length: of }, (_, k) => k + 1).filter((k) => !byIndex.has(k));
  if (missing.length > 0) issues.push({ file: '<arguments>', code: 'missing_shard', message: `shard${missing.length === 1 ? '' : 's'} ${missing.join(', ')} of ${of} missing`, hint: 'pass every shard of the sweep' });
  if (issues.length > 0) throw new UserError(issues);
  const ordered = [...shards].sort((a, b) => a.report.shard!.index - b.report.shard!.index);
  return finishSweepReport(headerOf(first.report), ordered.flatMap(({ report }) => report.configurations));
}

export function mergeAction(files: string[], opts: MergeFlags, io: CliIO): number {
  const format = chooseFormat(opts, io);
  warnViewFlags(opts, format, io);
  checkOut(opts.out);
  const report = mergeShards(files);
  emitReport(renderSweep(report, format, reportView(opts, io)), { ...(opts.out === undefined ? {} : { out: opts.out }), format, warnings: report.warnings }, io);
  return 0;
}
