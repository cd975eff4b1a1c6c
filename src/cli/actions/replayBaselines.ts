/**
 * What replay needs to count false stops (report/replayFalseStops.ts) beside each run it replays: the run's
 * no-brake run, made by the builders sweep and check make it with (population/run.ts recordedBaseline,
 * syntheticBaselineRunner) — a recorded run replayed with NO_BRAKES under the same context, model and latency;
 * a synthetic run the same agent (seed, run index) with no brakes, sending the same max_tokens — and only where
 * the brakes acted on the run.
 */
import type { BrakeConfig } from '../../brakes/config.js';
import { holdsBrake, recordedBaseline, syntheticBaselineRunner } from '../../population/run.js';
import type { ReplayOptions, RunResult } from '../../replay/replay.js';
import { falseStopMark, type FalseStopMark } from '../../report/replayFalseStops.js';
import type { ScenarioInput } from '../../scenario/replayScenarios.js';
import type { PreparedScenario } from '../../scenario/run.js';
import type { Trace } from '../../trace/types.js';

/** A recorded run's mark: `options` are those it was replayed under (with its pricing); its no-brake run replayed only if the brakes acted. */
export function recordedMark(trace: Trace, result: RunResult, options: ReplayOptions): FalseStopMark {
  // A trace `loopcost generate` wrote carries its ground truth (as recordedBaseline reads it).
  return falseStopMark(result, { truth: trace.header.synthetic }, () => recordedBaseline(trace, options));
}

/**
 * Each of a scenario file's runs (`runs`: runScenarioInput's, in order, `prepared` the scenario as it prepared
 * them) marked, judged by ground truth; its no-brake runs made only where the brakes acted.
 */
export function syntheticMarks(prepared: PreparedScenario & { firstRun: number }, runs: readonly RunResult[]): FalseStopMark[] {
  let baselineOf: ReturnType<typeof syntheticBaselineRunner> | undefined;
  return runs.map((run, i) => falseStopMark(run, { truth: run.synthetic, ownDone: run.synthetic?.taskDone }, () => (baselineOf ??= syntheticBaselineRunner(prepared))(prepared.firstRun + i)));
}

/**
 * Whether a brake bound any run (flags, each run's recorded limits, a scenario file's): only then does the
 * summary count false stops. `--max-output-tokens` alone is none (population/run.ts holdsBrake).
 */
export function anyBrakeOn(command: { brakes: BrakeConfig; brakesFor?: unknown; scenarios: readonly ScenarioInput[] }): boolean {
  return holdsBrake(command.brakes) || command.brakesFor !== undefined || command.scenarios.some((input) => holdsBrake(input.settings.brakes));
}

/** `replay --tree`'s: the flags' brakes, per-agent limits, or each tree's recorded limits (`--preset recorded`). */
export function anyTreeBrakeOn(command: { brakes: BrakeConfig; subagent?: unknown; recorded?: unknown }): boolean {
  return holdsBrake(command.brakes) || command.subagent !== undefined || command.recorded !== undefined;
}
