/**
 * projectSpend as the library gives it: `loopcost project` on loaded runs. Every run replayed under the brakes
 * given (recorded runs open loop, as the command replays them: population/run.ts), their costs then drawn into
 * seeded simulated days and periods (population/project.ts, the engine the command runs). Arguments checked
 * first, refusals naming `<projectSpend options>`, never a flag.
 */
import { filledBrakeConfig, type BrakeSettings } from '../brakes/config.js';
import { UserError } from '../errors.js';
import { maxOf } from '../metrics/extremes.js';
import { optionPlace } from '../options/given.js';
import { brakeIssues, countFromZeroIssue, countIssue, validateOptions } from '../options/rules.js';
import { projectSpend as projectCosts, type Projection } from '../population/project.js';
import { tooManySimulatedDays } from '../population/projectDays.js';
import { configurationRuns, type PopulationConfig } from '../population/run.js';
import { freezePopulationInputs } from '../population/populationArguments.js';
import { checkProjectedSizes } from '../cli/actions/projectRange.js';
import type { Trace } from '../trace/types.js';
import { inOwnWords, pricedTraces, RUN_SHAPE_KEYS, runShapeIssues, type RunShapeOptions } from './entry.js';
import type { ModelPricing } from '../pricing/types.js';
import type { RunResult } from '../replay/replay.js';
import type { ReportWarning } from '../report/warnings.js';
import { projectWarnings } from './warnings.js';
import type { ObservedRuns } from '../cli/actions/projectParts.js';
import { projectRunWarnings, stoppedRunOf } from '../cli/actions/projectStops.js';

const ENTRY = 'projectSpend';

export interface ProjectOptions extends RunShapeOptions {
  /** The brakes every run replays under (`--max-steps`…, `--preset`); default none. */
  brakes?: BrakeSettings;
  /** Runs a day (`--runs-per-day`; default 100). */
  runsPerDay?: number;
  /** Days a period (`--days`; default 30). */
  days?: number;
  /** Simulated periods (`--trials`; default 1000). */
  trials?: number;
  /** The draws' seed (`--seed`; default 1). */
  seed?: number;
}

const KEYS = [...RUN_SHAPE_KEYS, 'brakes', 'runsPerDay', 'days', 'trials', 'seed'] as const;

function checkOptions(options: ProjectOptions): void {
  validateOptions(ENTRY, options, KEYS, (issue, o) => {
    runShapeIssues(issue, o);
    brakeIssues(issue, o.brakes);
    for (const key of ['runsPerDay', 'days', 'trials'] as const) countIssue(issue, key, o[key], 'leave it out for the default');
    countFromZeroIssue(issue, 'seed', o.seed, 'leave it out for 1');
    const days = (o.days as number | undefined) ?? 30;
    const trials = (o.trials as number | undefined) ?? 1000;
    const tooMany = Number.isSafeInteger(days) && Number.isSafeInteger(trials) ? tooManySimulatedDays(days, trials) : undefined;
    if (tooMany !== undefined) issue('days', 'too_large', tooMany, 'give fewer days or fewer trials');
  });
}

/**
 * projectSpend's result: the Projection with its USD figures named as the command's JSON names them
 * (`perDayUsd`, `perPeriodUsd`, `perRunUsd`), and the command's `warnings`.
 */
export interface ProjectSpendResult extends Omit<Projection, 'perDay' | 'perPeriod'> {
  /** Spend per simulated day, USD: mean, p50, p95, p99. */
  perDayUsd: Projection['perDay'];
  /** Spend per simulated period (`days` days), USD: mean, p50, p95, p99. */
  perPeriodUsd: Projection['perPeriod'];
  /** What could make a figure mislead, as `loopcost project --format json`'s `warnings` (none: nothing). */
  warnings: ReportWarning[];
}

/**
 * `loopcost project TRACES --runs-per-day N --days D` on `traces`: per day and per period spend (mean, p50,
 * p95, p99 in USD), per run, and the 95% intervals on the mean and p95 per run. Figures equal the command's
 * JSON (`perDayUsd`, `perPeriodUsd`, `perRunUsd`, `confidence`) for the same runs and settings.
 */
export function projectSpend(traces: readonly Trace[], options: ProjectOptions): ProjectSpendResult {
  checkOptions(options);
  pricedTraces(ENTRY, traces, options);
  if (traces.length === 0) throw new UserError({ file: `<${ENTRY} arguments>`, field: 'traces', code: 'no_runs', message: 'is empty: no run to project from', hint: 'readTraces(paths) reads the runs of files, directories and globs' });
  const config: PopulationConfig = {
    brakes: filledBrakeConfig(options.brakes),
    strategy: options.strategy ?? { kind: 'full' },
    strategyPlace: optionPlace(ENTRY, 'strategy'),
    modelPlace: optionPlace(ENTRY, 'model'),
    maxOutputTokensPlace: optionPlace(ENTRY, 'brakes.maxOutputTokens'),
    ...(options.model === undefined ? {} : { model: options.model }),
    ...(options.latency === undefined ? {} : { latency: options.latency }),
  };
  const inputs = { traces: [...traces] };
  freezePopulationInputs(inputs);
  // Each run's prompts (rows) and pricing, for the prompts past a window the command warns of; its pricing and stop, for a brake's early stops and past prices (projectStops.ts).
  const results: { rows: RunResult['rows']; pricing: ModelPricing }[] = [];
  const observed: ObservedRuns = { pricings: [], stopped: [] };
  const observe = (result: RunResult, pricing: ModelPricing) => {
    results.push({ rows: result.rows, pricing });
    observed.pricings.push(pricing);
    observed.stopped.push(stoppedRunOf(result));
  };
  const pairs = inOwnWords(ENTRY, () => configurationRuns(inputs, config, options.prices, observe));
  const runs = pairs.map((pair) => pair.run);
  const costsPico = runs.map((run) => run.costPico);
  const runsPerDay = options.runsPerDay ?? 100;
  const days = options.days ?? 30;
  inOwnWords(ENTRY, () => checkProjectedSizes({ runsPerDay, days, largestRunPico: maxOf(costsPico), worstRunPico: null, place: optionPlace(ENTRY, 'runsPerDay') }));
  const { perDay, perPeriod, ...projection } = projectCosts(costsPico, { runsPerDay, days, seed: options.seed ?? 1, trials: options.trials ?? 1000 });
  return { ...projection, perDayUsd: perDay, perPeriodUsd: perPeriod, warnings: [...projectWarnings(inputs.traces, config, { prices: options.prices, results, runs }), ...projectRunWarnings(observed, { prices: options.prices, config, pairs, recordedTraces: inputs.traces })] };
}
