/**
 * The `expect:` block of a scenario file: what `loopcost check` holds the scenario's runs to. Per run
 * (every run, or the runs of one named behaviour): the stop reason, the steps, the cost. Per population:
 * the figures `populationMetrics` (src/metrics/population.ts) defines, with the same names. Each bound is
 * `{min?, max?}` (at least one; min ≤ max). See docs/check.md.
 */
import { z } from 'zod';
import { STOP_REASONS } from '../brakes/stopReasons.js';

/** A closed range over the values `value` allows: `{min?, max?}`, at least one, min ≤ max. */
function range(value: z.ZodNumber, what: string) {
  return z
    .strictObject({ min: value.optional(), max: value.optional() })
    .describe(`${what}: at least min, at most max (either or both)`)
    .refine((r) => r.min !== undefined || r.max !== undefined, { message: 'give min, max or both' })
    .refine((r) => r.min === undefined || r.max === undefined || r.min <= r.max, { path: ['max'], message: 'impossible range: max is below min' });
}

const usd = z.number().nonnegative();
const share = z.number().min(0).max(1);
const stopReason = z.enum(STOP_REASONS);

export const runExpectSchema = z.strictObject({
  stopReason: z.union([stopReason, z.array(stopReason).min(1)]).optional().describe('the stop reason every run must end with (one, or a list of allowed ones)'),
  steps: range(z.number().int().nonnegative(), 'steps of each run').optional(),
  costUsd: range(usd, 'cost of each run in USD').optional(),
});

export const populationExpectSchema = z.strictObject({
  completionRate: range(share, 'share of runs that complete').optional(),
  falseStopRate: range(share, 'share of the runs completing without brakes that a brake stops').optional(),
  costPerRunUsd: z
    .strictObject({
      mean: range(usd, 'mean cost per run').optional(),
      p50: range(usd, 'median cost per run (nearest rank)').optional(),
      p95: range(usd, '95th percentile cost per run (nearest rank)').optional(),
      max: range(usd, 'highest cost of a run').optional(),
    })
    .optional(),
  costPerCompletedUsd: range(usd, 'total spend over completed runs').optional(),
  wastedShare: range(share, 'share of spend on runs that do not complete').optional(),
});

export const expectSchema = z
  .strictObject({
    runs: runExpectSchema.optional().describe('every run of the scenario'),
    behaviours: z.record(z.string().min(1), runExpectSchema).optional().describe("the runs of one population entry, by its name (or its behaviour when it has no name)"),
    population: populationExpectSchema.optional().describe('figures over all runs of the scenario (src/metrics/population.ts)'),
  })
  .describe('expectations for `loopcost check` (docs/check.md)');

export type RunExpect = z.infer<typeof runExpectSchema>;
export type PopulationExpect = z.infer<typeof populationExpectSchema>;
export type ScenarioExpect = z.infer<typeof expectSchema>;
export interface Bound {
  min?: number;
  max?: number;
}
