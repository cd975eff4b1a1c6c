/** `loopcost generate SCENARIO --runs N --seed S --out F.jsonl`: synthetic runs as native traces. */
import { AtomicFileWriter } from '../../io/atomicWrite.js';
import { loadPriceTable } from '../../pricing/index.js';
import { generateTraces } from '../../scenario/generate.js';
import { loadScenarioFile } from '../../scenario/load.js';
import { scenarioOverridesFromFlags, type ScenarioFlagValues } from '../../scenario/overrides.js';
import { writeNativeTraces } from '../../trace/writeNative.js';
import type { CliIO } from '../io.js';
import { priceOptionsFromFlags, type PriceFlags } from '../parseFlags.js';
import type { GivenFlag } from './inputs.js';

export type GenerateFlags = ScenarioFlagValues & PriceFlags & { out?: string };

/** Writes each run as it unfolds (memory holds one run); --out is replaced only when every run was written. */
export function generateAction(scenarioPath: string, flags: GenerateFlags, io: CliIO, given: GivenFlag): number {
  const scenario = loadScenarioFile(scenarioPath);
  const prices = loadPriceTable(priceOptionsFromFlags(flags));
  const traces = generateTraces(scenario, { prices, overrides: scenarioOverridesFromFlags(flags, given) });
  if (flags.out === undefined) {
    for (const trace of traces) io.stdout(writeNativeTraces([trace]));
    return 0;
  }
  const writer = new AtomicFileWriter(flags.out);
  let runs = 0;
  try {
    for (const trace of traces) {
      writer.write(writeNativeTraces([trace]));
      runs += 1;
    }
    writer.commit();
  } catch (error) {
    writer.abort();
    throw error;
  }
  io.stderr(`${runs} synthetic run(s) of ${scenarioPath} written to ${flags.out}\n`);
  return 0;
}
