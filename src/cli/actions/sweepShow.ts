/**
 * sweep's `--show` (report/sweepShow.ts): `frontier` chooses a table's rows, so it is refused where there is
 * no table to choose them for — CSV and JSON always carry every configuration, and so does a shard (JSON for
 * loopcost merge) — and said to do nothing for the chart, which plots every configuration. With
 * --report-dir, the table (sweep.txt and stdout) follows it; the other files carry every row.
 */
import { UserError } from '../../errors.js';
import type { SweepShow } from '../../report/sweepShow.js';
import type { CliIO } from '../io.js';

/** `--show` read against the format chosen (commander has held it to its choices). */
export function sweepShowOf(opts: { show?: string; shard?: string; reportDir?: string }, format: string, io: CliIO): SweepShow {
  if (opts.show !== 'frontier') return 'all';
  if (opts.shard !== undefined) {
    throw new UserError({ file: '<command line>', field: '--show', code: 'flag_without_effect', message: "'frontier' chooses a table's rows; a shard's report is JSON carrying every configuration of its slice (what loopcost merge reads)", hint: "drop --show frontier, or --shard for a table; the merged report's pareto lists the frontier" });
  }
  if (opts.reportDir !== undefined) return 'frontier';
  if (format === 'csv' || format === 'json') {
    throw new UserError({ file: '<command line>', field: '--show', code: 'flag_without_effect', message: `'frontier' chooses a table's rows; a ${format.toUpperCase()} report always carries every configuration`, hint: `drop --show frontier, or write a table: --format table or --out FILE.txt; the frontier is the JSON's pareto and the CSV's pareto column` });
  }
  if (format === 'chart') io.stderr("loopcost: warning: --show frontier chooses a table's rows; the chart plots every configuration\n");
  return 'frontier';
}
