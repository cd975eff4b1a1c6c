import type { ContextStrategy } from '../../context/strategy.js';
import { collectInputs } from '../../io/collectInputs.js';
import type { LatencyModel } from '../../loop/latency.js';
import { loadTraceFiles } from '../../import/index.js';
import { loadPriceTable, type LoadPriceTableOptions } from '../../pricing/index.js';
import { whatIf, type WhatIfSetting } from '../../replay/whatif.js';
import { NO_BRAKES } from '../../brakes/config.js';
import { reportSettings } from '../../report/settings.js';
import type { ReportView } from '../../report/view.js';
import { buildWhatIfReport, renderWhatIfCsv, renderWhatIfTable } from '../../report/whatifReport.js';
import { brakesFromSpec, latencyFromSpec, priceOptionsFromFlags, strategyFromFlags, type ContextFlags, type PriceFlags } from '../parseFlags.js';
import type { CliIO } from '../io.js';
import { emitReport, reportView, type ViewFlags } from './output.js';
import { RunNotes } from './runNotes.js';
import { checkTrySpec, chooseFormat, warnViewFlags } from './flagChecks.js';

export interface WhatIfCommand {
  inputs: string[];
  tries: string[];
  strategy: ContextStrategy;
  model?: string;
  priceOptions: LoadPriceTableOptions;
  latency?: LatencyModel;
  format: 'table' | 'csv' | 'json';
  view: ReportView;
  out?: string;
}

export function runWhatIf(command: WhatIfCommand, io: CliIO): number {
  const settings: WhatIfSetting[] = command.tries.map((spec) => {
    const brakes = brakesFromSpec(spec);
    checkTrySpec(spec, brakes);
    return { name: spec, brakes };
  });
  const prices = loadPriceTable(command.priceOptions);
  const notes = new RunNotes({ strategy: command.strategy, ...(command.model === undefined ? {} : { model: command.model }) });
  const traces = notes.tap(loadTraceFiles(collectInputs(command.inputs)), prices);
  const result = whatIf(traces, settings, {
    strategy: command.strategy,
    prices,
    ...(command.model === undefined ? {} : { model: command.model }),
    ...(command.latency === undefined ? {} : { latency: command.latency }),
  });
  const warnings = notes.warnings(command.inputs);
  const report = buildWhatIfReport({
    result,
    settings,
    reportSettings: reportSettings({
      brakes: NO_BRAKES,
      perRunRecordedLimits: true,
      strategy: command.strategy,
      ...(command.latency === undefined ? {} : { latency: command.latency }),
      ...(command.model === undefined ? {} : { model: command.model }),
    }),
    priceSource: prices.source,
    pricesNote: notes.pricesNote(),
    pricedAsOf: (source: string) => notes.priceDay(source),
    warnings,
  });
  const text =
    command.format === 'json' ? JSON.stringify(report, null, 2) + '\n' : command.format === 'csv' ? renderWhatIfCsv(report) : renderWhatIfTable(report, command.view);
  emitReport(text, { ...(command.out === undefined ? {} : { out: command.out }), format: command.format, warnings }, io);
  return 0;
}

export type WhatIfFlags = ContextFlags & PriceFlags & ViewFlags & { try: string[]; format?: string; model?: string; out?: string; latencyModel?: string };

export function whatIfAction(inputs: string[], opts: WhatIfFlags, io: CliIO): number {
  const format = chooseFormat(opts, io);
  warnViewFlags(opts, format, io);
  return runWhatIf(
    {
      inputs,
      tries: opts.try,
      strategy: strategyFromFlags(opts),
      format: format as 'table' | 'csv' | 'json',
      view: reportView(opts, io),
      ...(opts.model === undefined ? {} : { model: opts.model }),
      priceOptions: priceOptionsFromFlags(opts),
      ...(opts.out === undefined ? {} : { out: opts.out }),
      ...(opts.latencyModel === undefined ? {} : { latency: latencyFromSpec(opts.latencyModel) }),
    },
    io,
  );
}
