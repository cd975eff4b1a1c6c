/**
 * What a run with ground truth (a synthetic run, or a generated trace: its header's) costs with no brakes
 * up to the step its task is done at: what a per-run budget must allow for the run not to be a false stop
 * (groundTruth.ts: a brake stopping it before that step is one). A run that goes on past that step (an
 * asker that keeps asking) costs more with no brakes than its task needed; a cap chosen from its whole
 * cost would let the useless continuation through. `project --suggest-cap` chooses its cap from these.
 *
 * Read off each run made with no brakes with its steps kept (the same runs as the baselines: the same
 * context, cache, model, latency, and for synthetic runs the max_tokens sent). Pure: no node:*, no clock.
 */
import { NO_BRAKES } from '../brakes/config.js';
import type { StepRow } from '../loop/types.js';
import type { Pico } from '../money.js';
import type { PriceTable } from '../pricing/types.js';
import type { RunResult } from '../replay/replay.js';
import { unbrakedSending } from '../scenario/run.js';
import { configurationRuns, withBrakes, type PopulationConfig, type PopulationInputs } from './run.js';

/** The spend of a run's calls up to and including the call that makes step `step` (a summary or backtrack before it included); the whole run's when it made fewer. */
export function costThroughStepPico(rows: readonly StepRow[], step: number): Pico | undefined {
  const row = rows.find((r) => r.step >= step);
  return row === undefined ? rows[rows.length - 1]?.cumulativeCostPico : row.cumulativeCostPico;
}

/**
 * Per run of `recorded` then `synthetic` (the order sweepPairs and configurationRuns give): its no-brake
 * cost up to the step its task is done at, when it has ground truth and its task is done with no brakes;
 * undefined for the others (a recorded run: judged by outcome, its whole cost is what completing takes).
 */
export function taskDoneCostsPico(population: { recorded: PopulationInputs; synthetic: PopulationInputs }, config: PopulationConfig, prices: PriceTable): (Pico | undefined)[] {
  const traces = population.recorded.traces ?? [];
  const costs: (Pico | undefined)[] = traces.map(() => undefined);
  const judged = traces.flatMap((trace, i) => (trace.header.synthetic?.doneAtStep === undefined ? [] : [i]));
  if (judged.length > 0) {
    let next = 0;
    // Each trace's result is handed over in the order given: the k-th is judged[k]'s.
    const observe = (result: RunResult) => {
      const i = judged[next++]!;
      costs[i] = costThroughStepPico(result.rows, traces[i]!.header.synthetic!.doneAtStep!);
    };
    configurationRuns({ traces: judged.map((i) => traces[i]!) }, { ...config, brakes: NO_BRAKES }, prices, observe);
  }
  if ((population.synthetic.scenarios ?? []).length > 0) {
    const observe = (result: RunResult) => {
      const doneAtStep = result.synthetic?.doneAtStep;
      costs.push(doneAtStep === undefined ? undefined : costThroughStepPico(result.rows, doneAtStep));
    };
    configurationRuns(population.synthetic, withBrakes(config, unbrakedSending), prices, observe);
  }
  return costs;
}
