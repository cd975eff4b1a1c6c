/**
 * What `project` says of the stops of its own brakes, by replay's rules and no copy of them: the false stops
 * (runs a brake stopped that complete with no brakes: each run beside its no-brake run, counted by replay's
 * FalseStopTally, report/replayFalseStops.ts — ground truth where the runs carry it, the recording's end
 * where not; a session tree beside its no-brake tree, as replay --tree counts it) and the open-loop caveat
 * of a brake that stopped recorded runs early (`open_loop_brakes`, runNotes.ts brakeOpenLoopWarnings). Before,
 * project said neither: the reference brakes stopped 33 of the 156 production-mix runs that complete, a $2
 * tree budget every session, and the projection read as if they cost nothing.
 */
import type { RunPair } from '../../metrics/population.js';
import { holdsBrake, type PopulationConfig } from '../../population/run.js';
import { sentMaxTokens } from '../../population/modelWindow.js';
import { pastPricesWarningsOf, type PricedRuns } from '../../population/projectPrices.js';
import { FalseStopTally, pairMark, type FalseStopFigures } from '../../report/replayFalseStops.js';
import type { ReportWarning } from '../../report/warnings.js';
import { recordedCallsMade } from '../../report/cacheIdleWarning.js';
import { OutputOverCapTally, runOverCaps } from '../../report/outputOverCap.js';
import type { RunResult } from '../../replay/replay.js';
import { recordedStrategyOf } from '../../replay/recordedStrategy.js';
import type { Trace } from '../../trace/types.js';
import type { TreePopulation } from '../../population/treeSweep.js';
import { brakeOpenLoopWarnings, type StoppedRun } from './runNotes.js';
import type { ObservedRuns, RunsPart } from './projectParts.js';

/** A run as it was made, as replay's rules read it: its stop against its recording (runNotes.ts StoppedRun), and its summary calls (the calls of its recording it made: recordedCallsMade). */
export type MadeRun = StoppedRun & Pick<RunResult, 'summaryCalls'>;

/** What replay's open-loop and output-cap rules read of a run as it was made. */
export function stoppedRunOf(result: MadeRun): MadeRun {
  return {
    stopReason: result.stopReason,
    modelCalls: result.modelCalls,
    recordedCalls: result.recordedCalls,
    ...(result.summaryCalls === undefined ? {} : { summaryCalls: result.summaryCalls }),
    ...(result.synthetic === undefined ? {} : { synthetic: result.synthetic }),
  };
}

/** Whether a brake bound any run (the flags', a scenario file's own, per-agent limits): only then are false stops counted, as replay counts them (replayBaselines.ts anyBrakeOn). */
export function projectBrakesOn(parts: readonly RunsPart[], config: PopulationConfig): boolean {
  return config.subagent !== undefined || parts.some((part) => holdsBrake(part.config.brakes));
}

/** The runs' false stops (`pairs`: each run beside its no-brake run, a closed-loop run with its own ground truth), as replay's summary gives them. */
export function projectFalseStops(pairs: readonly RunPair[]): FalseStopFigures {
  const tally = new FalseStopTally();
  for (const pair of pairs) tally.add(pairMark(pair.run, pair.baseline, pair.truth?.taskDone));
  return tally.figures();
}

/**
 * `open_loop_brakes` where a brake stopped recorded runs before their recording's end: each recorded run as it
 * was replayed (`observed`, replay's reading); with --tree, each tree against its no-brake tree, which replays
 * it to its recordings' end (as whatif reads a run against its baseline: whatifOpenLoop.ts).
 */
export function projectOpenLoopWarnings(observed: ObservedRuns, run: { pairs: readonly RunPair[]; trees: boolean }): ReportWarning[] {
  const stopped: readonly StoppedRun[] = run.trees ? run.pairs.map((pair) => ({ stopReason: pair.run.stopReason, modelCalls: pair.run.steps, recordedCalls: pair.baseline.steps })) : observed.stopped;
  return brakeOpenLoopWarnings(stopped);
}

/**
 * `recorded_output_over_cap` (report/outputOverCap.ts) where recorded runs' outputs pass the max_tokens the brakes
 * send, as replay counts them: each recorded run (`recordedTraces`, made first and in order: `observed.stopped`)
 * over the calls its replay made; with --tree, each run of the trees over its whole recording (no run's own
 * replay kept), as replay --tree and sweep --tree count them.
 */
export function projectOverCapWarnings(observed: ObservedRuns, run: { config: PopulationConfig; recordedTraces: readonly Trace[]; trees?: Pick<TreePopulation, 'trees'> }): ReportWarning[] {
  const caps = sentMaxTokens([run.config.brakes]);
  const tally = new OutputOverCapTally();
  const traces = run.trees === undefined ? run.recordedTraces : run.trees.trees.flatMap((tree) => tree.agents.flatMap((agent) => agent.runs));
  traces.forEach((trace, i) => {
    const made = run.trees === undefined ? observed.stopped[i] : undefined;
    const callsMade = made === undefined ? undefined : recordedCallsMade(made, recordedStrategyOf(trace, run.config.strategy) !== undefined);
    tally.add(runOverCaps(trace, caps, callsMade), callsMade === undefined);
  });
  return tally.warnings();
}

/**
 * What the runs as made warn of beyond the projection's warning list (report/warningLists.ts), in this order:
 * a brake's early stops of recorded runs (`open_loop_brakes`), recorded outputs past the max_tokens sent
 * (`recorded_output_over_cap`), as replay orders them, then runs priced as of a past day at other prices than the
 * table's latest (`prices_as_recorded`, population/projectPrices.ts). The command's and the library's (library/project.ts).
 */
export function projectRunWarnings(observed: ObservedRuns, run: Omit<PricedRuns, 'pricings'>): ReportWarning[] {
  const trees = run.trees !== undefined;
  return [
    ...projectOpenLoopWarnings(observed, { pairs: run.pairs, trees }),
    ...projectOverCapWarnings(observed, run),
    ...pastPricesWarningsOf({ ...run, pricings: observed.pricings }),
  ];
}
