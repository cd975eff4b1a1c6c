/**
 * What a scenario file is told of `.inf`, `-.inf` or `.nan` where a number goes: YAML reads them as
 * numbers, so the schema's own words ("expected number, received number") would contradict themselves.
 */

/** What a count field counts, for the message (`runs: .inf` → "infinite is not a number of runs"). */
const COUNTS: Record<string, string> = { runs: 'runs', runsPerDay: 'runs a day', steps: 'steps', hardCapSteps: 'steps', seed: 'a seed' };

/** The issue for a non-finite number at `field`; undefined for any other value. */
export function nonFiniteIssue(field: PropertyKey | undefined, given: unknown): { code: string; message: string } | undefined {
  if (typeof given !== 'number' || Number.isFinite(given)) return undefined;
  if (Number.isNaN(given)) return { code: 'not_a_number', message: 'is .nan: not a number; give a number' };
  const written = given > 0 ? '.inf' : '-.inf';
  const counts = typeof field === 'string' ? COUNTS[field] : undefined;
  return { code: 'not_finite', message: `is ${written}: infinite is not ${counts === undefined ? 'a value loopcost can use here' : `a number of ${counts}`}; give a finite number` };
}
