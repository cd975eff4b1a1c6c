/**
 * A sum of picodollars kept in a Number while it stays a safe integer, carried into a BigInt when it
 * would not: exact, with no BigInt made per run (a sweep adds millions of runs).
 */
export class PicoSum {
  private big = 0n;
  private small = 0;
  add(pico: number): void {
    const sum = this.small + pico;
    if (sum <= Number.MAX_SAFE_INTEGER) this.small = sum;
    else {
      this.big += BigInt(this.small);
      this.small = pico;
    }
  }
  /** Back to `value` (a value read earlier). */
  reset(value: bigint): void {
    this.big = value;
    this.small = 0;
  }
  get value(): bigint {
    return this.big + BigInt(this.small);
  }
}
