/** `loopcost generate SCENARIO --runs N --seed S --out F.jsonl`: synthetic runs as native traces. */
import { loadPriceTable } from '../../pricing/index.js';
import { generateTraces } from '../../scenario/generate.js';
import { loadScenarioFile } from '../../scenario/load.js';
import { scenarioOverridesFromFlags, type ScenarioFlagValues } from '../../scenario/overrides.js';
import type { CliIO } from '../io.js';
import { priceOptionsFromFlags, type PriceFlags } from '../parseFlags.js';
import type { GivenFlag } from './inputs.js';
import { writeNativeRuns } from './nativeOut.js';
import { checkOut } from './output.js';
import { counted } from '../../plural.js';
import { letYoungGenerationGrow } from '../youngGeneration.js';

export type GenerateFlags = ScenarioFlagValues & PriceFlags & { out?: string };

/** Writes each run as it unfolds (memory holds one run); --out is replaced only when every run was written. */
export function generateAction(scenarioPath: string, flags: GenerateFlags, io: CliIO, given: GivenFlag): number {
  letYoungGenerationGrow();
  checkOut(flags.out);
  const scenario = loadScenarioFile(scenarioPath);
  const prices = loadPriceTable(priceOptionsFromFlags(flags));
  const traces = generateTraces(scenario, { prices, overrides: scenarioOverridesFromFlags(flags, given) });
  const runs = writeNativeRuns(traces, flags.out, io);
  if (flags.out !== undefined) io.stderr(`${counted(runs, 'synthetic run')} of ${scenarioPath} written to ${flags.out}\n`);
  return 0;
}
