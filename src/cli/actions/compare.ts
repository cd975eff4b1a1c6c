import { loadPriceTable, type LoadPriceTableOptions } from '../../pricing/index.js';
import { compareRun } from '../../replay/compare.js';
import { defaultCacheMode } from '../../replay/replay.js';
import { buildCompareReport, renderCompareCsv, renderCompareTable } from '../../report/compareReport.js';
import { PricedModels, pricesRecord } from '../../report/pricedModels.js';
import type { ReportView } from '../../report/view.js';
import type { CliIO } from '../io.js';
import { parseTolerance } from '../../check/baseline.js';
import { priceOptionsFromFlags, type PriceFlags, type ReadFlags } from '../parseFlags.js';
import { checkOutputs, emitReport, pricedInputs, reportView, type ViewFlags } from './output.js';
import { pricingFor } from './runNotes.js';
import { comparedCalls, compareRunNotes } from './compareNotes.js';
import { inputWarningsOf } from './inputWarnings.js';
import { chooseFormat, warnViewFlags } from './flagChecks.js';
import { traceInputs, workOnRuns } from './inputs.js';
import { recordedTraceFiles } from './recordedInputs.js';

export async function runCompare(
  command: { inputs: string[]; priceOptions: LoadPriceTableOptions; tolerance: number; format: 'table' | 'csv' | 'json'; view: ReportView; out?: string; read: ReadFlags },
  io: CliIO,
): Promise<number> {
  const prices = loadPriceTable(command.priceOptions);
  // Each run replayed as recorded: its prompts past the window and outputs past max_tokens counted as replay counts them (compareNotes.ts).
  const notes = compareRunNotes(command.tolerance);
  const { files, unread, broughtIn } = recordedTraceFiles(command.inputs, { command: 'compare', instead: 'synthetic runs have no recorded figures to compare with; replay the scenario instead', read: command.read }, io);
  const compared = await workOnRuns(traceInputs(files, command.read, { unread, broughtIn }), io, (trace) => {
    // Priced first: an unknown model is named in the field the run's own format gives it (pricingFor).
    const pricing = pricingFor(trace, { prices });
    const row = compareRun(trace, prices, command.tolerance);
    // The cache the run took (replayed as recorded: defaultCacheMode), for the settings line.
    return { note: notes.noteOf(trace, pricing, comparedCalls(row)), row, cache: defaultCacheMode(trace) };
  });
  // Each run priced once (replay's `prices.models`).
  const pricings = new PricedModels();
  for (const { note } of compared) notes.addNote(note), pricings.add(note.pricing);
  const rows = compared.map(({ row }) => row);
  const warnings = [...inputWarningsOf(io), ...notes.warnings(command.inputs)];
  const took = { recordedCaches: compared.map(({ cache }) => cache), scenarios: [] };
  const report = buildCompareReport(rows, { prices: pricesRecord(prices.source, { models: pricings.records(), days: notes.priceDays(), note: notes.pricesNote() }), tolerance: command.tolerance, warnings, took });
  const text =
    command.format === 'json' ? JSON.stringify(report, null, 2) + '\n' : command.format === 'csv' ? renderCompareCsv(report) : renderCompareTable(report, command.view);
  emitReport(text, { ...(command.out === undefined ? {} : { out: command.out }), format: command.format, warnings }, io);
  return 0;
}

export type CompareFlags = PriceFlags & ReadFlags & ViewFlags & { tolerance?: string; format?: string; out?: string };

export function compareAction(inputs: string[], opts: CompareFlags, io: CliIO): Promise<number> {
  // The one reading of --tolerance (check's too): a fraction or a percentage, `1e-6` or `5%`.
  const tolerance = parseTolerance(opts.tolerance ?? '1e-6');
  const format = chooseFormat(opts, io);
  checkOutputs([['--out', opts.out]], pricedInputs(inputs, opts), io);
  warnViewFlags(opts, format, io);
  return runCompare(
    {
      inputs,
      tolerance,
      format: format as 'table' | 'csv' | 'json',
      view: reportView(opts, io),
      priceOptions: priceOptionsFromFlags(opts),
      ...(opts.out === undefined ? {} : { out: opts.out }),
      read: opts,
    },
    io,
  );
}
