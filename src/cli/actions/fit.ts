/**
 * `loopcost fit INPUTS... --out profile.yaml [--prices FILE] [--report]`: a scenario whose population
 * reproduces recorded runs; `--report` replays both and prints their quantiles side by side.
 */
import { NO_BRAKES } from '../../brakes/config.js';
import { writeFileAtomic } from '../../io/atomicWrite.js';
import { loadPriceTable } from '../../pricing/index.js';
import type { PriceSource } from '../../pricing/types.js';
import { replayTrace, resolveTracePricing } from '../../replay/replay.js';
import { formatUsdNumber } from '../../report/money.js';
import { formatTable, type Column } from '../../report/table.js';
import { labelledLine, reportFooter } from '../../report/view.js';
import { fitScenario, heldOutStatement } from '../../scenario/fit.js';
import { compareRuns, type FitComparison } from '../../scenario/fitReport.js';
import { parseScenario } from '../../scenario/load.js';
import { runScenario } from '../../scenario/run.js';
import { scenarioYaml } from '../../scenario/writeYaml.js';
import type { CliIO } from '../io.js';
import { nonNegativeInt, positiveInt, priceOptionsFromFlags, type PriceFlags, type ReadFlags } from '../parseFlags.js';
import { traceInputs, workOnRuns } from './inputs.js';
import { checkOut, reportView } from './output.js';
import { recordedTraceFiles } from './recordedInputs.js';

export type FitFlags = PriceFlags & ReadFlags & { out?: string; report?: boolean; runs?: string; seed?: string; format?: 'table' | 'json' };

const COLUMNS: Column[] = [
  { header: 'metric' },
  { header: 'quantile' },
  { header: 'recorded', align: 'right' },
  { header: 'synthetic', align: 'right' },
  { header: 'gap', align: 'right' },
];

function signedPercent(value: number, digits = 1): string {
  return `${value >= 0 ? '+' : ''}${value.toFixed(digits)}`;
}

function renderComparison(c: FitComparison, how: string, priceSource: PriceSource, width: number): string {
  const rows = c.rows.map((row) => {
    const value = (n: number) => (row.metric === 'costPerRunUsd' ? formatUsdNumber(n) : n.toFixed(1));
    return [row.metric, row.quantile, value(row.recorded), value(row.synthetic), row.relativeGap === null ? '-' : `${signedPercent(row.relativeGap * 100)}%`];
  });
  const completion = `completion: recorded ${(c.completion.recorded * 100).toFixed(1)}%, synthetic ${(c.completion.synthetic * 100).toFixed(1)}% (${signedPercent(c.completion.gapPoints)} points)\n`;
  const heldOut = labelledLine(`unseen runs: ${heldOutStatement(c.recordedRuns)}`, width);
  return `${how}\n${formatTable(COLUMNS, rows, { maxWidth: width })}${completion}${heldOut}${reportFooter({ priceSource, warnings: [], width })}`;
}

export async function fitAction(inputs: string[], flags: FitFlags, io: CliIO): Promise<number> {
  const runs = positiveInt('--runs', flags.runs ?? '2000');
  const seed = nonNegativeInt('--seed', flags.seed ?? '1');
  checkOut(flags.out);
  const prices = loadPriceTable(priceOptionsFromFlags(flags));
  const files = recordedTraceFiles(inputs, 'fit', 'pass recorded traces of any supported format', io);
  // A run whose model the table lacks makes its file bad like any other problem (named, or left out with --skip-bad).
  const traces = await workOnRuns(traceInputs(files, flags), io, (trace) => {
    resolveTracePricing(trace, { prices });
    return trace;
  });
  const { scenario, notes } = fitScenario(traces, (trace) => resolveTracePricing(trace, { prices }));
  const yaml = scenarioYaml(scenario, notes);
  let report = '';
  if (flags.report) {
    const profile = parseScenario(yaml, flags.out ?? 'fitted profile');
    const recorded = traces.map((trace) => replayTrace(trace, { brakes: NO_BRAKES, strategy: { kind: 'full' }, prices, keepSteps: true }));
    const synthetic = runScenario(profile, { prices, runs, seed, brakes: NO_BRAKES, keepSteps: true });
    const comparison = compareRuns(recorded, synthetic);
    const how = `recorded: ${recorded.length} runs replayed as recorded; synthetic: ${synthetic.length} closed-loop runs of the fitted profile, seed ${seed}; no brakes`;
    report =
      flags.format === 'json'
        ? `${JSON.stringify({ description: how, seed, priceSource: prices.source, ...comparison, unseenRuns: heldOutStatement(comparison.recordedRuns) }, null, 2)}\n`
        : renderComparison(comparison, how, prices.source, reportView({}, io).width);
  }
  if (flags.out !== undefined) writeFileAtomic(flags.out, yaml);
  else io.stdout(yaml);
  if (report) io.stdout(report);
  return 0;
}
