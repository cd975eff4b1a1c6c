/**
 * A run past exact picodollars found inside a batch: the engine's refusal (kernel/cost.ts costOutOfRange)
 * knows no run, and a batch sweeps many. Whether a run overflows depends on the configuration (brakes and
 * context decide how far it gets), so it is found only when a batch throws: the batch's runs are swept
 * again one at a time, one configuration at a time, and the first that throws is named (file#run, the
 * configuration) as replay names it (replay/runContext.ts). The hot path pays nothing: this runs only
 * after a throw. A session tree (`sweep --tree`) needs no search: the tree engine names the agent's run
 * that passed it (tree/engine.ts), and underConfiguration adds the configuration. Pure: no node:*, no clock.
 */
import { contextSpecOf } from '../context/strategy.js';
import { UserError } from '../errors.js';
import { brakeSpec } from '../report/settings.js';
import { inRunContext, namesOneCallPastExact } from '../replay/runContext.js';
import type { Trace } from '../trace/types.js';
import type { PriceTable } from '../pricing/types.js';
import type { CellVisitor, RunVisitor } from './sweepCells.js';
import type { PopulationConfig, PopulationInputs } from './run.js';
import { recordedRuns, type RecordedRunsOptions } from './sweepRecorded.js';

/** Whether `error` is the engine's refusal of a run past exact picodollars: not yet placed in a file (`placed` false), or placed (blamingRun named its run). */
function isCostOverflow(error: unknown, placed: boolean): error is UserError {
  return error instanceof UserError && error.issues.length > 0 && error.issues.every((issue) => issue.code === 'cost_out_of_range' && (issue.file !== undefined) === placed);
}

/** Whether `error` is the engine's refusal of a run past exact picodollars, not yet placed in a file. */
export function isUnplacedCostOverflow(error: unknown): error is UserError {
  return isCostOverflow(error, false);
}

/** The run (`file#k`, or the file of its only run) a refusal of a run past exact picodollars was placed at by blamingRun; undefined for any other error. */
export function overflowPlace(error: unknown): string | undefined {
  return isCostOverflow(error, true) ? error.issues[0]!.file : undefined;
}

/** A configuration in a few words, as a report's settings say it: what decides how far a run gets (its brakes, context and model). */
export function configurationWords(config: PopulationConfig): string {
  const words = [`brakes ${brakeSpec(config.brakes)}`];
  if (config.strategy.kind !== 'full') words.push(`context ${contextSpecOf(config.strategy)}`);
  if (config.model !== undefined) words.push(`model ${config.model}`);
  return words.join(', ');
}

/**
 * `work` under `config`; a run past exact picodollars it throws, placed at its run (by inRunContext, or the
 * tree engine at the agent's run), is thrown naming the configuration too. Anything else is thrown on.
 */
export function underConfiguration<T>(config: PopulationConfig, work: () => T): T {
  try {
    return work();
  } catch (error) {
    if (!isCostOverflow(error, true)) throw error;
    // (A call past them on its own is past them under any configuration: replay/runContext.ts.)
    throw new UserError(error.issues.map((issue) => (namesOneCallPastExact(issue) ? issue : { ...issue, message: `${issue.message}, under configuration ${configurationWords(config)}` })));
  }
}

/**
 * `work` over `traces`; when it throws an unplaced cost overflow, `sweepOne` (one trace under one
 * configuration) is run on each (trace, configuration) in order, inside the run's context, so the first
 * that overflows is thrown naming its file, run and configuration. Anything else is thrown on as it was.
 */
export function blamingRun<T>(args: { traces: readonly Trace[]; configs: readonly PopulationConfig[]; work: () => T; sweepOne: (trace: Trace, config: PopulationConfig) => void }): T {
  try {
    return args.work();
  } catch (error) {
    if (!isUnplacedCostOverflow(error)) throw error;
    for (const trace of args.traces) {
      for (const config of args.configs) {
        try {
          args.sweepOne(trace, config);
        } catch (one) {
          if (!isUnplacedCostOverflow(one)) throw one;
          underConfiguration(config, () =>
            inRunContext(trace, () => {
              throw one;
            }),
          );
        }
      }
    }
    throw error;
  }
}

/** recordedRuns (sweepRecorded.ts), a run past exact picodollars named by its file, run and configuration. */
export function recordedRunsNamed(recorded: PopulationInputs, configs: readonly PopulationConfig[], prices: PriceTable, visitors: { visit: RunVisitor; visitCell: CellVisitor }, options: RecordedRunsOptions = {}): void {
  const ignore = () => undefined;
  blamingRun({
    traces: recorded.traces ?? [],
    configs,
    work: () => recordedRuns(recorded, configs, prices, visitors, options),
    // One run under one configuration, its figures dropped: what throws if that run overflows.
    sweepOne: (trace, config) => recordedRuns({ traces: [trace] }, [config], prices, { visit: ignore, visitCell: ignore }),
  });
}
