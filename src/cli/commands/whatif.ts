import Table from 'cli-table3';
import { stringify } from 'csv-stringify/sync';
import type { ContextStrategy } from '../../context/strategy.js';
import { checkOutputFile, writeFileAtomic } from '../../io/atomicWrite.js';
import type { LatencyModel } from '../../loop/latency.js';
import { skippedMessage, TraceInputs, type InputSetOptions } from '../../import/inputSet.js';
import { picoToUsd } from '../../money.js';
import { describePriceSource, loadPriceTable, priceSourceColumns, type LoadPriceTableOptions } from '../../pricing/index.js';
import { whatIfRun, whatIfTotals, type WhatIfRun, type WhatIfSetting } from '../../replay/whatif.js';
import { brakesFromSpec } from '../parseFlags.js';
import type { CliIO } from '../io.js';

export interface WhatIfCommand {
  inputs: string[];
  tries: string[];
  strategy: ContextStrategy;
  model?: string;
  priceOptions: LoadPriceTableOptions;
  latency?: LatencyModel;
  format: 'table' | 'csv' | 'json';
  out?: string;
  /** Read limits and --skip-bad. */
  read?: InputSetOptions;
}

export async function runWhatIf(command: WhatIfCommand, io: CliIO): Promise<number> {
  const settings: WhatIfSetting[] = command.tries.map((spec) => ({ name: spec, brakes: brakesFromSpec(spec) }));
  if (command.out !== undefined) checkOutputFile(command.out);
  const prices = loadPriceTable(command.priceOptions);
  const options = {
    strategy: command.strategy,
    prices,
    ...(command.model === undefined ? {} : { model: command.model }),
    ...(command.latency === undefined ? {} : { latency: command.latency }),
  };
  const inputs = new TraceInputs(command.inputs, command.read);
  const perRun: { file: string; run: WhatIfRun }[] = [];
  for await (const input of inputs.runs()) {
    const run = inputs.guard(input, () => whatIfRun(input.trace, settings, options));
    if (run) perRun.push({ file: input.file, run });
  }
  const skipped = inputs.finish();
  io.stderr(skippedMessage(skipped, inputs.files.length));
  const runs = inputs.keep(perRun).map((kept) => kept.run);
  const result = { runs, totals: whatIfTotals(runs, settings) };
  const rows = result.runs.flatMap((run) =>
    run.settings.map((cell, i) => ({
      source: run.source,
      setting: settings[i]!.name,
      baselineStopReason: run.baseline.stopReason,
      baselineSteps: run.baseline.steps,
      baselineCostUsd: picoToUsd(run.baseline.costPico),
      stopReason: cell.stopReason,
      steps: cell.steps,
      costUsd: picoToUsd(cell.costPico),
      falseStop: cell.falseStop,
      savedUsd: picoToUsd(cell.savedPico),
    })),
  );
  const totals = result.totals.map((t) => ({
    setting: t.setting,
    runs: t.runs,
    completed: t.completed,
    falseStops: t.falseStops,
    caughtRuns: t.caughtRuns,
    costUsd: picoToUsd(t.costPico),
    savedUsd: picoToUsd(t.savedPico),
    stopReasons: t.stopReasons,
  }));
  const baselineCost = result.runs.reduce((sum, run) => sum + BigInt(run.baseline.costPico), 0n);
  const baselineCompleted = result.runs.filter((run) => run.baseline.stopReason === 'completed').length;
  let text: string;
  if (command.format === 'json') {
    text = JSON.stringify({ prices: prices.source, baseline: { runs: result.runs.length, completed: baselineCompleted, costUsd: picoToUsd(baselineCost) }, totals, runs: rows }, null, 2) + '\n';
  } else if (command.format === 'csv') {
    text = stringify(rows.map((row) => ({ ...row, ...priceSourceColumns(prices.source) })), { header: true });
  } else {
    const runs = new Table({ head: ['source', 'setting', 'baseline', 'what-if', 'steps', 'cost', 'false stop'], style: { head: [], border: [] } });
    for (const row of rows) {
      runs.push([row.source, row.setting, `${row.baselineStopReason} (${row.baselineSteps}, $${row.baselineCostUsd.toFixed(4)})`, row.stopReason, row.steps, `$${row.costUsd.toFixed(4)}`, row.falseStop ? 'FALSE STOP' : '']);
    }
    const summary = new Table({ head: ['setting', 'completed', 'false stops', 'caught', 'spend', 'saved', 'stop reasons'], style: { head: [], border: [] } });
    summary.push(['baseline (as recorded)', `${baselineCompleted}/${result.runs.length}`, '-', '-', `$${picoToUsd(baselineCost).toFixed(4)}`, '-', '']);
    for (const t of totals) {
      summary.push([t.setting, `${t.completed}/${t.runs}`, t.falseStops, t.caughtRuns, `$${t.costUsd.toFixed(4)}`, `$${t.savedUsd.toFixed(4)}`, Object.entries(t.stopReasons).map(([r, n]) => `${r} ${n}`).join(', ')]);
    }
    text = `${runs.toString()}\n${summary.toString()}\nfalse stop: a brake ended a run that completed as recorded; caught: a run that did not complete, stopped earlier; saved: spend avoided on those.\nprices: ${describePriceSource(prices.source)}\n`;
  }
  if (command.out !== undefined) writeFileAtomic(command.out, text);
  else io.stdout(text);
  return 0;
}
