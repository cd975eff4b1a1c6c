import { UserError } from '../../errors.js';
import { loadTraceFiles } from '../../import/index.js';
import { loadPriceTable, type LoadPriceTableOptions } from '../../pricing/index.js';
import { compareWithRecorded } from '../../replay/compare.js';
import { buildCompareReport, renderCompareCsv, renderCompareTable } from '../../report/compareReport.js';
import type { ReportView } from '../../report/view.js';
import type { CliIO } from '../io.js';
import { priceOptionsFromFlags, type PriceFlags } from '../parseFlags.js';
import { emitReport, reportView, type ViewFlags } from './output.js';
import { RunNotes } from './runNotes.js';
import { chooseFormat, warnViewFlags } from './flagChecks.js';
import { recordedTraceFiles } from './recordedInputs.js';

export function runCompare(
  command: { inputs: string[]; priceOptions: LoadPriceTableOptions; tolerance: number; format: 'table' | 'csv' | 'json'; view: ReportView; out?: string },
  io: CliIO,
): number {
  const prices = loadPriceTable(command.priceOptions);
  const notes = new RunNotes({ strategy: { kind: 'full' }, tolerance: command.tolerance });
  const files = recordedTraceFiles(command.inputs, 'compare', 'synthetic runs have no recorded figures to compare with; replay the scenario instead', io);
  const rows = compareWithRecorded(notes.tap(loadTraceFiles(files), prices), prices, command.tolerance);
  const warnings = notes.warnings(command.inputs);
  const report = buildCompareReport(rows, { priceSource: prices.source, pricesNote: notes.pricesNote(), tolerance: command.tolerance, warnings });
  const text =
    command.format === 'json' ? JSON.stringify(report, null, 2) + '\n' : command.format === 'csv' ? renderCompareCsv(report) : renderCompareTable(report, command.view);
  emitReport(text, { ...(command.out === undefined ? {} : { out: command.out }), format: command.format, warnings }, io);
  return 0;
}

export type CompareFlags = PriceFlags & ViewFlags & { tolerance?: string; format?: string; out?: string };

export function compareAction(inputs: string[], opts: CompareFlags, io: CliIO): number {
  const raw = opts.tolerance ?? '1e-6';
  const tolerance = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(tolerance) || tolerance < 0) {
    throw new UserError({ file: '<command line>', field: '--tolerance', code: 'bad_value', message: `'${raw}' is not a number, 0 or more` });
  }
  const format = chooseFormat(opts, io);
  warnViewFlags(opts, format, io);
  return runCompare(
    {
      inputs,
      tolerance,
      format: format as 'table' | 'csv' | 'json',
      view: reportView(opts, io),
      priceOptions: priceOptionsFromFlags(opts),
      ...(opts.out === undefined ? {} : { out: opts.out }),
    },
    io,
  );
}
