/** Where a report goes and how wide it may be: shared by every command that writes a report. */
import { checkOutputFile, writeFileAtomic } from '../../io/atomicWrite.js';
import { DEFAULT_TABLE_WIDTH } from '../../report/table.js';
import type { ReportView } from '../../report/view.js';
import { warningLines, type ReportWarning } from '../../report/warnings.js';
import type { CliIO } from '../io.js';

export interface ViewFlags {
  wide?: boolean;
  perRun?: boolean;
  out?: string;
}

/** The terminal's width when the report goes to one, else 120 columns; `--wide`, `--per-run` as given. */
export function reportView(flags: ViewFlags, io: CliIO): ReportView {
  const toTerminal = flags.out === undefined && io.columns !== undefined;
  const view: ReportView = { width: toTerminal ? Math.max(40, io.columns!) : DEFAULT_TABLE_WIDTH, wide: flags.wide === true };
  if (flags.perRun === true) view.perRun = true;
  return view;
}

/**
 * Writes a rendered report to `out` (atomically) or stdout. Warnings are in every text and JSON report;
 * they are also said on stderr when the report goes to a file or is CSV (which has no place for them), so
 * the person at the terminal sees them.
 */
/** `text` may come in pieces (a JSON report written run by run: replayReportJson). */
export function emitReport(text: string | Iterable<string>, args: { out?: string; format: string; warnings: readonly ReportWarning[] }, io: CliIO): void {
  if (args.out !== undefined) writeFileAtomic(args.out, text);
  else if (typeof text === 'string') io.stdout(text);
  else for (const piece of text) io.stdout(piece);
  if (args.warnings.length > 0 && (args.out !== undefined || args.format === 'csv')) io.stderr(warningLines(args.warnings));
}

/** Refuses an output path before any work is done when it cannot be a file (a directory, a path under a file, a device, empty). */
export function checkOut(out: string | undefined, flag = '--out'): void {
  if (out !== undefined) checkOutputFile(out, flag);
}
