/**
 * A population entry's step count that draws nothing but 0 (`steps: 0`, `{ kind: uniform, min: 0, max: 0 }`):
 * a step count is held at 1 (synthetic/distributions.ts drawCount's floor), so the file would run 1 step
 * where it says 0, silently. Refused, naming the field and line. Fields held at 1 only: a forgetful entry's
 * `steps` and any `leadSteps` may be 0 (no work steps, no lead).
 */
import { UserError, type InputIssue } from '../errors.js';
import type { DistributionSpec } from '../synthetic/distributions.js';
import type { AnyScenarioFile } from './schema.js';

/** The step-count field of each behaviour whose draws are held at 1. */
const STEP_FIELD: Record<string, string> = { healthy: 'steps', backtracker: 'steps', sloppy: 'steps', asker: 'workSteps' };

/** Whether every draw of `spec` rounds to 0 (lognormal never does: its draws are positive and unbounded). */
export function drawsOnlyZero(spec: DistributionSpec): boolean {
  const zero = (value: number) => Math.round(value) < 1;
  if (typeof spec === 'number') return zero(spec);
  switch (spec.kind) {
    case 'fixed':
      return zero(spec.value);
    case 'uniform':
      return Math.floor(spec.max) < 1;
    case 'normal':
      return spec.sd === 0 && zero(spec.mean);
    case 'empirical':
      return spec.quantiles.every(zero);
    case 'lognormal':
      return false;
  }
}

/** Refuses every entry whose step count draws only 0 (see above); `lineAt`: a field's line. */
export function checkStepCounts(scenario: AnyScenarioFile, lineAt: (path: readonly PropertyKey[]) => number | undefined, file: string): void {
  const issues: InputIssue[] = [];
  (scenario.population ?? []).forEach((entry, i) => {
    const field = STEP_FIELD[entry.behaviour];
    const spec = field === undefined ? undefined : (entry as unknown as Record<string, DistributionSpec>)[field];
    if (spec === undefined || !drawsOnlyZero(spec)) return;
    const line = lineAt(['population', i, field!]);
    const given = typeof spec === 'number' ? `is ${spec}` : `draws only 0 (${spec.kind})`;
    issues.push({
      file,
      ...(line === undefined ? {} : { line }),
      field: `population[${i}].${field}`,
      code: 'no_steps',
      message: `${given}: a run takes at least 1 step (a ${entry.behaviour} entry's ${field} is held at 1), so it would run 1 step, not 0`,
      hint: `give ${field} 1 or more`,
    });
  });
  if (issues.length > 0) throw new UserError(issues);
}
