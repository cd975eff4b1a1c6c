/**
 * The `expect:` block of a scenario file: what `loopcost check` holds the scenario's runs to. Per run
 * (every run, or the runs of one named behaviour): the stop reason, the steps, the cost. Per population:
 * the figures `populationMetrics` (src/metrics/population.ts) defines, with the same names. Each bound is
 * `{min?, max?}` (at least one; min ≤ max). See docs/check.md.
 */
import { z } from 'zod/mini';
import { STOP_REASONS } from '../brakes/stopReasons.js';
import { MAX_USD } from '../io/limits.js';
import { MAX_RUN_COST_TEXT } from '../money.js';
import { share } from './share.js';
import { described } from './zodMini.js';

/** A closed range over the values `value` allows: `{min?, max?}`, at least one, min ≤ max. */
function closedRange(value: z.ZodMiniNumber) {
  return z.strictObject({ min: z.optional(value), max: z.optional(value) }).check(
    z.refine((r) => r.min !== undefined || r.max !== undefined, { message: 'give min, max or both' }),
    z.refine((r) => r.min === undefined || r.max === undefined || r.min <= r.max, { path: ['max'], message: 'impossible range: max is below min' }),
  );
}

/** The range of each kind of value, built once (a start builds the schema): each use is a described copy. */
const ranges = new Map<z.ZodMiniNumber, ReturnType<typeof closedRange>>();

/** A range over `value` for `what`. */
function range(value: z.ZodMiniNumber, what: string) {
  let base = ranges.get(value);
  if (base === undefined) ranges.set(value, (base = closedRange(value)));
  return described(base, `${what}: at least min, at most max (either or both)`);
}

// A bound past what loopcost counts is refused, not read as "no bound": one run costs at most $9,007.199254740991
// (2^53 − 1 picodollars; kernel/cost.ts costOutOfRange), and a bound is compared in picodollars.
const usd = z.number().check(z.nonnegative(), z.maximum(MAX_USD, `must be at most ${MAX_RUN_COST_TEXT} (2^53 − 1 picodollars), the most one run can cost`));
const count = z.number().check(z.int(), z.nonnegative(), z.maximum(Number.MAX_SAFE_INTEGER, 'must be at most 9007199254740991 (2^53 − 1), the largest count held exactly'));
const stopReason = z.enum(STOP_REASONS);

export const runExpectSchema = z.strictObject({
  stopReason: described(z.optional(z.union([stopReason, z.array(stopReason).check(z.minLength(1))])), 'the stop reason every run must end with (one, or a list of allowed ones)'),
  steps: z.optional(range(count, 'steps of each run')),
  costUsd: z.optional(range(usd, 'cost of each run in USD')),
});

/** What a per-run expectation may bound (`runs.<key>`, `behaviours.<name>.<key>`), as results name them. */
export const RUN_EXPECTATION_KEYS = Object.keys(runExpectSchema.shape) as readonly (keyof typeof runExpectSchema.shape)[];

export const populationExpectSchema = z.strictObject({
  completionRate: z.optional(range(share, 'share of runs that complete')),
  falseStopRate: z.optional(range(share, 'share of the runs completing without brakes that a brake stops (synthetic runs and generated traces, by ground truth: of the runs whose task is done without brakes, those a brake stops before the step it is done at)')),
  costPerRunUsd: z.optional(
    z.strictObject({
      mean: z.optional(range(usd, 'mean cost per run')),
      p50: z.optional(range(usd, 'median cost per run (nearest rank)')),
      p95: z.optional(range(usd, '95th percentile cost per run (nearest rank)')),
      max: z.optional(range(usd, 'highest cost of a run')),
    }),
  ),
  costPerCompletedUsd: z.optional(range(usd, 'total spend over completed runs')),
  wastedShare: z.optional(range(share, 'share of spend on runs that do not complete')),
  tasksDoneRate: z.optional(range(share, 'share of runs whose task is done, by ground truth (replay and sweep: tasksDone.doneRate; synthetic runs and generated traces only: recordings use completionRate)')),
  costPerTaskDoneUsd: z.optional(range(usd, 'total spend over runs whose task is done (replay and sweep: tasksDone.costPerDoneUsd; recordings use costPerCompletedUsd)')),
});

export const expectSchema = described(
  z.strictObject({
    runs: described(z.optional(runExpectSchema), 'every run of the scenario'),
    behaviours: described(z.optional(z.record(z.string().check(z.minLength(1)), runExpectSchema)), 'the runs of one population entry, by its name (or its behaviour when it has no name)'),
    population: described(z.optional(populationExpectSchema), 'figures over all runs of the scenario (src/metrics/population.ts)'),
  }),
  'expectations for `loopcost check` (docs/check.md)',
);

export type RunExpect = z.infer<typeof runExpectSchema>;
export type PopulationExpect = z.infer<typeof populationExpectSchema>;
export type ScenarioExpect = z.infer<typeof expectSchema>;
export interface Bound {
  min?: number;
  max?: number;
}
