/** `loopcost generate SCENARIO --runs N --seed S --out F.jsonl`: synthetic runs as native traces. */
import { UserError } from '../../errors.js';
import { OutputWriter } from '../../io/outputWriter.js';
import { callRuleViolations } from '../../trace/rules.js';
import { loadPriceTable } from '../../pricing/index.js';
import { generateTracesAsCommand } from '../../scenario/generate.js';
import { loadScenarioFile } from '../../scenario/load.js';
import { refuseTraceAsScenario } from '../../scenario/inputs.js';
import { scenarioOverridesFromFlags, type ScenarioFlagValues } from '../../scenario/overrides.js';
import type { Trace } from '../../trace/types.js';
import { writeNativeTraces } from '../../trace/writeNative.js';
import type { CliIO } from '../io.js';
import { priceOptionsFromFlags, type PriceFlags } from '../parseFlags.js';
import type { GivenFlag } from './inputs.js';
import { announceWritten, checkNativeJsonlOut, checkOutputs, pricedInputs } from './output.js';
import { counted } from '../../plural.js';
import { letYoungGenerationGrow } from '../youngGeneration.js';
import { warningLines } from '../../report/warnings.js';
import { scenarioWarnings } from './scenarioWarnings.js';

export type GenerateFlags = ScenarioFlagValues & PriceFlags & { out?: string };

/** How long generate works between turns of the event loop (where SIGINT, SIGTERM and SIGHUP are handled). */
export const GENERATE_SLICE_MS = 25;

/** A turn of the event loop: a signal that came meanwhile is handled (src/io/temporaries.ts removes the temporary and ends the process as the signal would). */
const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** Where the latency model came from, for messages: the flag, or the scenario file's `latency`. */
interface LatencySource {
  file: string;
  field: string;
}

/**
 * A run its own reader would refuse (src/trace/rules.ts: a modelled latency past 2^53 ms, from absurd token
 * sizes at a latency model's per-token parts) is refused, naming the run and call, before it is written.
 */
function checkReadable(trace: Trace, run: number, source: LatencySource): void {
  trace.calls.forEach((call, k) => {
    const [broken] = callRuleViolations(call);
    if (broken === undefined) return;
    const what = /latencyMs$/.test(broken.field) ? `a modelled latency of ${broken.message}, the most a trace holds` : `${broken.field}: ${broken.message}`;
    throw new UserError({
      ...source,
      code: broken.code,
      message: `run ${run}, call ${k + 1}: ${what}`,
      hint: `lower the per-token parts of the latency model (${source.field}), or the scenario's token sizes`,
    });
  });
}

/** Each run's JSONL to `write`, one run at a time, the event loop let in every GENERATE_SLICE_MS. Returns how many runs were written. */
async function writeRuns(traces: Iterable<Trace>, write: (text: string) => void, source: LatencySource): Promise<number> {
  let runs = 0;
  let since = performance.now();
  for (const trace of traces) {
    checkReadable(trace, runs + 1, source);
    write(writeNativeTraces([trace]));
    runs += 1;
    if (performance.now() - since >= GENERATE_SLICE_MS) {
      await turn();
      since = performance.now();
    }
  }
  return runs;
}

/**
 * The runs to stdout, or into a temporary file that replaces `out` only when every run was written (removed
 * on a failure or a signal); a device or a pipe `out` (/dev/stdout) gets them as they come; `.gz`: gzip.
 */
async function writeGenerated(traces: Iterable<Trace>, args: { out: string | undefined; io: CliIO; source: LatencySource }): Promise<number> {
  const { out, io, source } = args;
  if (out === undefined) return writeRuns(traces, io.stdout, source);
  const writer = new OutputWriter(out);
  try {
    const runs = await writeRuns(traces, (text) => writer.write(text), source);
    writer.commit();
    return runs;
  } catch (error) {
    writer.abort();
    throw error;
  }
}

/**
 * Writes each run as it unfolds (memory holds one run); --out is replaced only when every run was
 * written. Yields to the event loop as it goes, so SIGINT, SIGTERM and SIGHUP stop it at once, as they
 * stop the other commands: its temporary removed, no --out, the process ended by the signal. What other
 * commands warn about the scenario is said on stderr (scenarioWarnings.ts).
 */
export async function generateAction(scenarioPath: string, flags: GenerateFlags, io: CliIO, given: GivenFlag): Promise<number> {
  letYoungGenerationGrow();
  checkOutputs([['--out', flags.out]], pricedInputs([scenarioPath], flags), io);
  checkNativeJsonlOut(flags.out, 'generate');
  refuseTraceAsScenario(scenarioPath, 'generate');
  const scenario = loadScenarioFile(scenarioPath);
  const prices = loadPriceTable(priceOptionsFromFlags(flags));
  const overrides = scenarioOverridesFromFlags(flags, given);
  const source = overrides.latency === undefined ? { file: scenarioPath, field: 'latency' } : { file: '<command line>', field: '--latency-model' };
  const traces = generateTracesAsCommand(scenario, { prices, overrides });
  const runs = await writeGenerated(traces, { out: flags.out, io, source });
  // On stderr (stdout is the runs), after them, before the file written is said (last, as emitReport does).
  const warnings = warningLines(scenarioWarnings(scenario, { prices, overrides, path: scenarioPath }));
  if (warnings !== '') io.stderr(warnings);
  if (flags.out !== undefined) announceWritten({ what: `${counted(runs, 'synthetic run')} of ${scenarioPath}`, file: flags.out }, io);
  return 0;
}
