/**
 * `loopcost fit INPUTS... --out profile.yaml [--prices FILE] [--report]`: a scenario whose population
 * reproduces recorded runs; `--report` replays both and prints their quantiles side by side.
 */
import type { Command } from 'commander';
import Table from 'cli-table3';
import { NO_BRAKES } from '../../brakes/config.js';
import { UserError } from '../../errors.js';
import { collectInputs } from '../../io/collectInputs.js';
import { writeFileAtomic } from '../../io/atomicWrite.js';
import { loadTraceFiles } from '../../import/index.js';
import { loadPriceTable } from '../../pricing/index.js';
import { describePriceSource } from '../../pricing/source.js';
import { replayTrace, resolveTracePricing } from '../../replay/replay.js';
import { fitScenario } from '../../scenario/fit.js';
import { compareRuns, type FitComparison } from '../../scenario/fitReport.js';
import { recordedInputsOnly } from '../../scenario/inputs.js';
import { parseScenario } from '../../scenario/load.js';
import { runScenario } from '../../scenario/run.js';
import { scenarioYaml } from '../../scenario/writeYaml.js';
import type { CliIO } from '../io.js';
import { nonNegativeInt, positiveInt, priceOptionsFromFlags, type PriceFlags } from '../parseFlags.js';

interface FitFlags extends PriceFlags {
  out?: string;
  report?: boolean;
  runs: string;
  seed: string;
  format: 'table' | 'json';
}

function renderComparison(c: FitComparison, how: string, prices: string): string {
  const table = new Table({ head: ['metric', 'quantile', 'recorded', 'synthetic', 'gap'], style: { head: [], border: [] } });
  for (const row of c.rows) {
    const digits = row.metric === 'costPerRunUsd' ? 4 : 1;
    const gap = row.relativeGap === null ? '-' : `${row.relativeGap >= 0 ? '+' : ''}${(row.relativeGap * 100).toFixed(1)}%`;
    table.push([row.metric, row.quantile, row.recorded.toFixed(digits), row.synthetic.toFixed(digits), gap]);
  }
  const completion = `completion: recorded ${(c.completion.recorded * 100).toFixed(1)}%, synthetic ${(c.completion.synthetic * 100).toFixed(1)}% (${c.completion.gapPoints >= 0 ? '+' : ''}${c.completion.gapPoints.toFixed(1)} points)`;
  return `${how}\n${table.toString()}\n${completion}\nprices: ${prices}\n`;
}

export function runFit(inputs: string[], flags: FitFlags, io: CliIO): number {
  const runs = positiveInt('--runs', flags.runs);
  const seed = nonNegativeInt('--seed', flags.seed);
  const prices = loadPriceTable(priceOptionsFromFlags(flags));
  const traceFiles = recordedInputsOnly(collectInputs(inputs), 'fit', 'pass recorded traces of any supported format');
  const traces = [...loadTraceFiles(traceFiles)];
  const { scenario, notes } = fitScenario(traces, (trace) => resolveTracePricing(trace, { prices }));
  const yaml = scenarioYaml(scenario, notes);
  let report = '';
  if (flags.report) {
    const profile = parseScenario(yaml, flags.out ?? 'fitted profile');
    const recorded = traces.map((trace) => replayTrace(trace, { brakes: NO_BRAKES, strategy: { kind: 'full' }, prices, keepSteps: true }));
    const synthetic = runScenario(profile, { prices, runs, seed, brakes: NO_BRAKES, keepSteps: true });
    const comparison = compareRuns(recorded, synthetic);
    const how = `recorded: ${recorded.length} runs replayed as recorded; synthetic: ${synthetic.length} closed-loop runs of the fitted profile, seed ${seed}; no brakes`;
    report = flags.format === 'json' ? `${JSON.stringify({ description: how, seed, priceSource: prices.source, ...comparison }, null, 2)}\n` : renderComparison(comparison, how, describePriceSource(prices.source));
  }
  if (flags.out !== undefined) writeFileAtomic(flags.out, yaml);
  else io.stdout(yaml);
  if (report) io.stdout(report);
  return 0;
}

export function registerFit(program: Command, io: CliIO, setExitCode: (code: number) => void): void {
  program
    .command('fit')
    .description('write a scenario whose synthetic population reproduces recorded runs')
    .argument('<inputs...>', 'recorded traces (files, directories, globs; any supported format)')
    .option('--out <file>', 'write the profile here (atomically) instead of stdout')
    .option('--report', 'replay the recorded runs and the fitted profile and print their quantiles side by side')
    .option('--runs <n>', 'synthetic runs for --report', '2000')
    .option('--seed <n>', 'seed for --report', '1')
    .option('--format <format>', 'report format: table | json', 'table')
    .option('--prices <file>', 'LiteLLM model_prices_and_context_window.json to use instead of the bundled table')
    .option('--prices-as-of <YYYY-MM-DD>', "read the bundled table's dated prices as of this day")
    .action((inputs: string[], flags: FitFlags) => {
      if (flags.format !== 'table' && flags.format !== 'json') {
        throw new UserError({ file: '<command line>', field: '--format', code: 'bad_value', message: `'${flags.format as string}' is not one of table, json` });
      }
      setExitCode(runFit(inputs, flags, io));
    });
}
