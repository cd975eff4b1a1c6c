/**
 * The line of each expectation in its scenario file, kept beside a ScenarioCheck (which stays plain data, as
 * its JSON shows it) for `check --junit`, whose testcases carry `file` and `line` so that PR annotations land
 * on the expectation. Pure.
 */
import { scenarioLineOf } from '../scenario/scenarioLines.js';

const SCENARIOS = new WeakMap<object, object>();

/** Keeps the scenario `check` was checked from (its `lineOf`, or the lines load.ts kept for it). */
export function keepExpectationLines(check: object, scenario: object): void {
  SCENARIOS.set(check, scenario);
}

/**
 * The path under `expect` of a result's name (evaluate.ts): `runs.steps`, `behaviours.<name>.<key>` (a
 * behaviour's name may hold dots: the key is the last part), `population.costPerRunUsd.p95`.
 */
function expectPath(expectation: string): string[] {
  const parts = expectation.split('.');
  if (parts[0] === 'behaviours' && parts.length > 3) return ['behaviours', parts.slice(1, -1).join('.'), parts[parts.length - 1]!];
  return parts;
}

/** The line of the expectation's entry, else of the deepest part of its path in the file (`expect:`'s); undefined when the scenario was built in memory. */
export function expectationLine(check: object, expectation: string): number | undefined {
  const scenario = SCENARIOS.get(check);
  return scenario === undefined ? undefined : scenarioLineOf(scenario, ['expect', ...expectPath(expectation)]);
}
