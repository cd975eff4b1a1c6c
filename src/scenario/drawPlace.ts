/**
 * Where in its scenario file a draw past the largest count came from: a synthetic run's sizes and steps
 * are drawn as it runs (src/synthetic/distributions.ts refuses a draw past 2^53 − 1 with a DrawOutOfRange),
 * and the runner, which alone knows the file and the population entry, names them here. Every command that
 * runs a scenario goes through src/scenario/run.ts, so every one gives the same message.
 */
import { placeIssues, UserError } from '../errors.js';
import { DrawOutOfRange, type DistributionSpec } from '../synthetic/distributions.js';
import type { Scenario } from './load.js';
import type { PopulationEntry } from './schema.js';

/** The key of `holder` whose value is the very distribution `spec` (an object: a bare number never overflows alone). */
function keyHolding(holder: object, spec: DistributionSpec): string | undefined {
  if (typeof spec !== 'object') return undefined;
  return Object.entries(holder).find(([, value]) => value === spec)?.[0];
}

/** The field a draw names in the file: the entry's (`population[1].outputTokens`) or the scenario's own (`systemTokens`). */
function fieldOf(error: DrawOutOfRange, scenario: Scenario, entry: PopulationEntry): string {
  const index = scenario.population.indexOf(entry);
  const inEntry = `population[${index}]`;
  if (error.field !== undefined) return `${inEntry}.${error.field}`;
  const own = keyHolding(entry, error.spec);
  if (own !== undefined) return `${inEntry}.${own}`;
  return keyHolding(scenario, error.spec) ?? inEntry;
}

/**
 * `fn` (a run's draws and calls); a DrawOutOfRange becomes a UserError naming the file, the field and the
 * run, and an engine refusal that knows no file (a run's cost past exact picodollars) names the file, the
 * run and its population entry.
 */
export function atDrawPlace<T>(scenario: Scenario, entry: PopulationEntry, run: number, seed: number, fn: () => T): T {
  try {
    return fn();
  } catch (error) {
    if (error instanceof DrawOutOfRange) {
      const [issue] = error.issues;
      throw new UserError({ ...issue!, file: scenario.source, field: fieldOf(error, scenario, entry), message: `run ${run + 1} (seed ${seed}) ${issue!.message}` });
    }
    const field = `population[${scenario.population.indexOf(entry)}]`;
    const run1 = `run ${run + 1} (seed ${seed}, ${entry.name ?? entry.behaviour})`;
    throw placeIssues(error, (issue) => ({ ...issue, file: scenario.source, field: issue.field ?? field, message: `${run1}: ${issue.message}` }));
  }
}
