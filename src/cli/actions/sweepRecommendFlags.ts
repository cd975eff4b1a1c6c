/**
 * sweep's recommendation at the command line: `--max-false-stops` read (a share of the runs that complete
 * with no brakes, as the rows' falseStopRate counts them; only with --target-completion), and the
 * recommendation's lines said on stderr when the report the user sees holds none (CSV or JSON, or a
 * report written to a file), stdout left to the report alone.
 */
import { UserError } from '../../errors.js';
import { shareFlagValue } from '../../io/numberText.js';
import { withinFalseStops } from '../../population/recommend.js';
import { recommendationLines } from '../../report/sweepTable.js';
import type { SweepReport, SweepRow } from '../../report/sweepReport.js';
import type { ReportView } from '../../report/view.js';
import type { CliIO } from '../io.js';

/** `--max-false-stops` (0.05 or 5%; 0: none), refused without --target-completion (it bounds the recommendation only). */
export function maxFalseStopsOf(value: string | undefined, targetCompletion: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (targetCompletion === undefined) {
    throw new UserError({ file: '<command line>', field: '--max-false-stops', code: 'flag_without_effect', message: 'bounds the recommendation, which only --target-completion asks for', hint: 'add --target-completion R (0.9 or 90%), or drop --max-false-stops' });
  }
  return shareFlagValue(value, {
    flag: '--max-false-stops',
    accepts: (share) => share >= 0 && share <= 1,
    notA: 'is not a share of false stops',
    hint: 'write a share from 0 to 1 of the runs that complete with no brakes (0.05 or 5%; 0: no false stop)',
  });
}

/** Which rows of a slice the resamples may choose: those within the bound (undefined: no bound). */
export function eligibleRows(rows: readonly SweepRow[], maxFalseStops: number | undefined): boolean[] | undefined {
  return maxFalseStops === undefined ? undefined : rows.map((row) => withinFalseStops(row, maxFalseStops));
}

/** The recommendation's lines on stderr when the report goes to a file or is CSV or JSON (which print no text of it). */
export function recommendationOnStderr(report: SweepReport, args: { out: string | undefined; format: string; view: ReportView }, io: CliIO): void {
  const toFile = args.out !== undefined && args.out !== '-';
  if (report.recommendation === undefined || (!toFile && args.format !== 'csv' && args.format !== 'json')) return;
  io.stderr(recommendationLines(report, args.view.width));
}
