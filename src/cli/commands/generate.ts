/** `loopcost generate SCENARIO --runs N --seed S --out F.jsonl`: synthetic runs as native traces. */
import type { Command } from 'commander';
import { AtomicFileWriter } from '../../io/atomicWrite.js';
import { loadPriceTable } from '../../pricing/index.js';
import { generateTraces } from '../../scenario/generate.js';
import { loadScenarioFile } from '../../scenario/load.js';
import { scenarioOverridesFromFlags, type ScenarioFlagValues } from '../../scenario/overrides.js';
import { writeNativeTraces } from '../../trace/writeNative.js';
import type { CliIO } from '../io.js';
import { priceOptionsFromFlags, type PriceFlags } from '../parseFlags.js';

interface GenerateFlags extends ScenarioFlagValues, PriceFlags {
  out?: string;
}

export function runGenerate(scenarioPath: string, flags: GenerateFlags, given: (key: string) => boolean, io: CliIO): number {
  const scenario = loadScenarioFile(scenarioPath);
  const prices = loadPriceTable(priceOptionsFromFlags(flags));
  const traces = generateTraces(scenario, { prices, overrides: scenarioOverridesFromFlags(flags, given) });
  if (flags.out === undefined) {
    for (const trace of traces) io.stdout(writeNativeTraces([trace]));
    return 0;
  }
  const writer = new AtomicFileWriter(flags.out);
  try {
    for (const trace of traces) writer.write(writeNativeTraces([trace]));
    writer.commit();
  } catch (error) {
    writer.abort();
    throw error;
  }
  io.stderr(`generated ${flags.out}\n`);
  return 0;
}

export function registerGenerate(program: Command, io: CliIO, setExitCode: (code: number) => void): void {
  const command = program
    .command('generate')
    .description('write a scenario\'s synthetic runs as native JSONL traces (no brakes, up to the hard cap; context strategy as the file says)')
    .argument('<scenario>', 'scenario file (YAML or JSON)')
    .option('--runs <n>', "runs (default: the file's runs, else 100)")
    .option('--seed <n>', "seed (default: the file's seed, else 1)")
    .option('--context <strategy>', "context strategy the runs unfold under: 'full' or 'window:K' (default: the file's)")
    .option('--tool-result-cap <tokens>', 'truncate each tool result to this many tokens')
    .option('--cache <mode>', 'prompt caching: on | off (default: the file\'s, else off)')
    .option('--latency-model <spec>', 'call=MS,input-token=MS,output-token=MS,tool=MS (default: the file\'s)')
    .option('--prices <file>', 'LiteLLM price file (the scenario\'s model must be in it)')
    .option('--prices-as-of <YYYY-MM-DD>', "read the bundled table's dated prices as of this day")
    .option('--out <file>', 'write here (atomically) instead of stdout');
  command.action((scenario: string, flags: GenerateFlags) => {
    setExitCode(runGenerate(scenario, flags, (key) => command.getOptionValueSource(key) !== 'default', io));
  });
}
