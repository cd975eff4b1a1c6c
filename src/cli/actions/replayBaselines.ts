/**
 * What replay needs to count false stops (report/replayFalseStops.ts) beside each run it replays: the run's
 * no-brake run, made as sweep and check make it (population/run.ts configurationBaselines) — a recorded run
 * replayed with NO_BRAKES under the same context, model and latency; a synthetic run the same agent (seed, run
 * index) with no brakes, sending the same max_tokens — and only where the brakes acted on the run.
 */
import { NO_BRAKES, type BrakeConfig } from '../../brakes/config.js';
import type { PriceTable } from '../../pricing/types.js';
import { replayTrace, type ReplayOptions, type RunResult } from '../../replay/replay.js';
import { falseStopMark, type FalseStopMark } from '../../report/replayFalseStops.js';
import { hasBrakes } from '../../report/settings.js';
import { scenarioRunOptions, type ScenarioInput } from '../../scenario/replayScenarios.js';
import { prepareScenario, runSynthetic, unbrakedSending } from '../../scenario/run.js';
import type { Trace } from '../../trace/types.js';

/** A recorded run's mark: `options` are those it was replayed under (with its pricing); its no-brake run replayed only if the brakes acted. */
export function recordedMark(trace: Trace, result: RunResult, options: ReplayOptions): FalseStopMark {
  // A trace `loopcost generate` wrote carries its ground truth (as configurationBaselines reads it).
  const truth = trace.header.synthetic;
  return falseStopMark(result, { truth }, () => {
    const unbraked = replayTrace(trace, { ...options, brakes: NO_BRAKES, keepSteps: false });
    return { stopReason: unbraked.stopReason, steps: unbraked.steps, truth };
  });
}

/** Each of a scenario file's runs (`runs`: runScenarioInput's, in order) marked, judged by ground truth; its no-brake runs made only where the brakes acted. */
export function syntheticMarks(input: ScenarioInput, runs: readonly RunResult[], options: { prices: PriceTable; model?: string }): FalseStopMark[] {
  let unbraked: ReturnType<typeof prepareScenario> | undefined;
  return runs.map((run, i) =>
    falseStopMark(run, { truth: run.synthetic, ownDone: run.synthetic?.taskDone }, () => {
      if (unbraked === undefined) {
        const prepared = prepareScenario(input.scenario, scenarioRunOptions(input, { ...options, keepSteps: false }));
        unbraked = { ...prepared, brakes: unbrakedSending(input.settings.brakes) };
      }
      const { result, truth } = runSynthetic(unbraked, unbraked.firstRun + i);
      return { stopReason: result.stopReason, steps: result.steps, truth };
    }),
  );
}

/** Whether a brake bound any run (flags, each run's recorded limits, a scenario file's): only then does the summary count false stops. */
export function anyBrakeOn(command: { brakes: BrakeConfig; brakesFor?: unknown; scenarios: readonly ScenarioInput[] }): boolean {
  return hasBrakes(command.brakes) || command.brakesFor !== undefined || command.scenarios.some((input) => hasBrakes(input.settings.brakes));
}
