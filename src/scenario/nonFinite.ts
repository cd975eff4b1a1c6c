/**
 * What a scenario file is told of `.inf`, `-.inf` or `.nan` where a number goes: YAML reads them as
 * numbers, so the schema's own words ("expected number, received number") would contradict themselves.
 * A numeral too large for a number (`1e400`, past 1.8e308) is read as infinite too: it is quoted as the
 * file writes it, and said to be too large, not called `.inf`.
 */

/** What a count field counts, for the message (`runs: .inf` → "infinite is not a number of runs"). */
const COUNTS: Record<string, string> = { runs: 'runs', runsPerDay: 'runs a day', steps: 'steps', hardCapSteps: 'steps', seed: 'a seed' };

/** YAML's names of infinity (the core schema's): anything else read as infinite is a numeral past the largest number. */
const INFINITY = /^[-+]?\.(inf|Inf|INF)$/;

/** The issue for a non-finite number at `field`; undefined for any other value. `written`: the scalar as the file writes it, when known. */
export function nonFiniteIssue(field: PropertyKey | undefined, given: unknown, written?: string): { code: string; message: string } | undefined {
  if (typeof given !== 'number' || Number.isFinite(given)) return undefined;
  if (Number.isNaN(given)) return { code: 'not_a_number', message: 'is .nan: not a number; give a number' };
  const counts = typeof field === 'string' ? COUNTS[field] : undefined;
  const what = counts === undefined ? 'a value loopcost can use here' : `a number of ${counts}`;
  if (written !== undefined && !INFINITY.test(written.trim())) {
    return { code: 'number_too_large', message: `is ${written.trim()}: beyond the largest number a file can give (±1.8e308), so it reads as infinite, which is not ${what}; give a finite number` };
  }
  return { code: 'not_finite', message: `is ${given > 0 ? '.inf' : '-.inf'}: infinite is not ${what}; give a finite number` };
}
