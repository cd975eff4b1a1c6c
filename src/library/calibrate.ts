/**
 * calibrate as the library gives it: `loopcost calibrate` on loaded runs. Each configuration of the loop
 * detectors judged on the runs, as the command's sweep runs them (population/calibrate.ts calibrationsOf):
 * on runs with ground truth (traces `loopcost generate` or generateTraces wrote) precision and recall of
 * catching stuck runs and false stops by it, on recorded runs false stops by outcome. Arguments checked
 * first, refusals naming `<calibrate options>`, never a flag.
 */
import { filledBrakeConfig, type BrakeSettings } from '../brakes/config.js';
import { UserError } from '../errors.js';
import { optionPlace } from '../options/given.js';
import { brakeIssues, validateOptions } from '../options/rules.js';
import { calibrationsOf, type CalibrationFigures } from '../population/calibrate.js';
import { freezePopulationInputs } from '../population/populationArguments.js';
import type { PopulationConfig } from '../population/run.js';
import { SweepPopulation } from '../population/sweep.js';
import type { Trace } from '../trace/types.js';
import { brakeListIssue, inOwnWords, pricedTraces, RUN_SHAPE_KEYS, runShapeIssues, type RunShapeOptions } from './entry.js';
import type { ReportWarning } from '../report/warnings.js';
import { calibrateWarnings } from './warnings.js';
import { configurationSummaryWarnings } from '../report/summaryCallWarning.js';

const ENTRY = 'calibrate';

export interface CalibrateOptions extends RunShapeOptions {
  /**
   * The settings to judge, each a whole set of brakes (as a `--grid` configuration: the flags' brakes with the
   * grid's values on top), e.g. `[{ maxRepeat: 2 }, { maxRepeat: 3 }, { maxRepeat: 3, repeatMode: 'consecutive' }]`.
   */
  configurations: readonly BrakeSettings[];
}

const KEYS = [...RUN_SHAPE_KEYS, 'configurations'] as const;

export interface CalibrateResult {
  /** One CalibrationFigures per configuration, in their order. */
  configurations: CalibrationFigures[];
  /** What could make a figure mislead (`no_ground_truth` among them), as the command's JSON `warnings`. */
  warnings: ReportWarning[];
}

/**
 * Each of `options.configurations` judged on `traces`, equal to the `configurations` (figures) and `warnings`
 * of `loopcost calibrate --format json` for the same runs and grid.
 */
export function calibrate(traces: readonly Trace[], options: CalibrateOptions): CalibrateResult {
  validateOptions(ENTRY, options, KEYS, (issue, o) => {
    runShapeIssues(issue, o);
    if (brakeListIssue(issue, 'configurations', o.configurations)) o.configurations.forEach((brakes, i) => (brakes === undefined ? issue(`configurations[${i}]`, 'missing_field', 'is missing', 'brake settings, e.g. { maxRepeat: 3 }') : brakeIssues(issue, brakes, `configurations[${i}]`)));
  });
  pricedTraces(ENTRY, traces, options);
  if (traces.length === 0) throw new UserError({ file: `<${ENTRY} arguments>`, field: 'traces', code: 'no_runs', message: 'is empty: no run to calibrate on', hint: 'generateTraces(scenario) makes runs with ground truth; readTraces(paths) reads recorded ones' });
  const configs = options.configurations.map((brakes, i): PopulationConfig => ({
    brakes: filledBrakeConfig(brakes),
    strategy: options.strategy ?? { kind: 'full' },
    strategyPlace: optionPlace(ENTRY, 'strategy'),
    modelPlace: optionPlace(ENTRY, 'model'),
    maxOutputTokensPlace: optionPlace(ENTRY, `configurations[${i}].maxOutputTokens`),
    ...(options.model === undefined ? {} : { model: options.model }),
    ...(options.latency === undefined ? {} : { latency: options.latency }),
  }));
  const runs = [...traces];
  freezePopulationInputs({ traces: runs });
  const configurations = inOwnWords(ENTRY, () => calibrationsOf(new SweepPopulation(runs, []), configs, options.prices));
  // What each summary strategy's summaries did, read off each configuration's totals as the command reads them (summaryCallWarning.ts).
  const summaries = configurationSummaryWarnings(configs.map((config, i) => ({ strategy: config.strategy, runs: runs.length, summaryCalls: configurations[i]!.summaryCalls })));
  return { configurations, warnings: [...calibrateWarnings(runs, configs, options.prices), ...summaries] };
}
