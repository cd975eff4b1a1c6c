/**
 * Least squares solved exactly: the normal equations AᵀA·x = Aᵀb formed in BigInt (token counts times
 * token counts overflow 2^53 after a few thousand calls) and solved over the rationals, so the answer
 * has no rounding error at all, however ill-conditioned the columns are. Prompt-token columns are close
 * to collinear in agent runs (96–99% of a prompt is a cache hit after the first call), which in floating
 * point squares into a condition number that loses most digits; exact arithmetic sidesteps that, and
 * with at most six unknowns it costs nothing. A column that adds no rank (all zero, or a combination of
 * the columns before it) is reported as not identifiable instead of being given an arbitrary value.
 */

/** A rational number num/den with den > 0, in lowest terms. */
export interface Rational {
  num: bigint;
  den: bigint;
}

const abs = (n: bigint): bigint => (n < 0n ? -n : n);

function gcd(a: bigint, b: bigint): bigint {
  a = abs(a);
  b = abs(b);
  while (b !== 0n) [a, b] = [b, a % b];
  return a;
}

export function rational(num: bigint, den = 1n): Rational {
  if (den === 0n) throw new Error('rational: zero denominator');
  if (den < 0n) [num, den] = [-num, -den];
  const g = gcd(num, den);
  return g > 1n ? { num: num / g, den: den / g } : { num, den };
}

const sub = (a: Rational, b: Rational): Rational => rational(a.num * b.den - b.num * a.den, a.den * b.den);
const mul = (a: Rational, b: Rational): Rational => rational(a.num * b.num, a.den * b.den);
const div = (a: Rational, b: Rational): Rational => rational(a.num * b.den, a.den * b.num);

/** The nearest integer (halves away from zero). */
export function roundRational(x: Rational): bigint {
  const twice = (2n * abs(x.num) + x.den) / (2n * x.den);
  return x.num < 0n ? -twice : twice;
}

export function rationalToNumber(x: Rational): number {
  return Number(x.num) / Number(x.den);
}

/** Accumulates AᵀA and Aᵀb row by row (BigInt), so rows need not be held in memory. */
export class NormalEquations {
  readonly gram: bigint[][];
  readonly moment: bigint[];
  rows = 0;

  constructor(readonly columns: number) {
    this.gram = Array.from({ length: columns }, () => new Array<bigint>(columns).fill(0n));
    this.moment = new Array<bigint>(columns).fill(0n);
  }

  add(row: readonly number[], target: bigint): void {
    this.rows += 1;
    for (let i = 0; i < this.columns; i++) {
      const a = row[i]!;
      if (a === 0) continue;
      const ai = BigInt(a);
      this.moment[i]! += ai * target;
      for (let j = i; j < this.columns; j++) {
        if (row[j] === 0) continue;
        this.gram[i]![j]! += ai * BigInt(row[j]!);
      }
    }
  }

  /**
   * The exact least-squares solution over the columns that add rank, taken in index order (so put the
   * columns that matter most first). `solution[j]` is undefined for a column left out.
   */
  solve(): { solution: (Rational | undefined)[]; dependent: number[] } {
    const n = this.columns;
    const full = (i: number, j: number): bigint => (i <= j ? this.gram[i]![j]! : this.gram[j]![i]!);
    const kept: number[] = [];
    const dependent: number[] = [];
    for (let j = 0; j < n; j++) {
      if (full(j, j) !== 0n && independent([...kept, j], full)) kept.push(j);
      else dependent.push(j);
    }
    const m = kept.length;
    const a: Rational[][] = kept.map((i) => [...kept.map((j) => rational(full(i, j))), rational(this.moment[i]!)]);
    for (let col = 0; col < m; col++) {
      const pivot = a.findIndex((row, r) => r >= col && row[col]!.num !== 0n);
      [a[col], a[pivot]] = [a[pivot]!, a[col]!];
      for (let r = 0; r < m; r++) {
        if (r === col || a[r]![col]!.num === 0n) continue;
        const factor = div(a[r]![col]!, a[col]![col]!);
        for (let c = col; c <= m; c++) a[r]![c] = sub(a[r]![c]!, mul(factor, a[col]![c]!));
      }
    }
    const solution: (Rational | undefined)[] = new Array(n).fill(undefined);
    kept.forEach((column, i) => (solution[column] = div(a[i]![m]!, a[i]![i]!)));
    return { solution, dependent };
  }
}

/** Whether the Gram sub-matrix on `columns` is non-singular (exact fraction-free elimination, Bareiss). */
function independent(columns: readonly number[], full: (i: number, j: number) => bigint): boolean {
  const m = columns.length;
  const a = columns.map((i) => columns.map((j) => full(i, j)));
  let previous = 1n;
  for (let k = 0; k < m; k++) {
    let pivot = k;
    while (pivot < m && a[pivot]![k] === 0n) pivot++;
    if (pivot === m) return false;
    [a[k], a[pivot]] = [a[pivot]!, a[k]!];
    for (let i = k + 1; i < m; i++) {
      for (let j = k + 1; j < m; j++) a[i]![j] = (a[i]![j]! * a[k]![k]! - a[i]![k]! * a[k]![j]!) / previous;
      a[i]![k] = 0n;
    }
    previous = a[k]![k]!;
  }
  return true;
}
