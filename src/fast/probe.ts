/**
 * The look order of the closed forms' searches for the first call of a stretch before which a brake may
 * fire (a monotone predicate over calls x..y−1: false, then true). The first look is at the stretch's
 * last call (usually nothing fires). When a brake fires there, a plain bisection would look ~log2(y − x)
 * times, each look reading a record (two under a window) that is cold when the traces do not fit the
 * caches. The figures it compares (elapsed time, spend) grow at a roughly steady rate over a stretch, so
 * the next look is where the figure that fired crosses its limit at its mean rate over the stretch, then
 * looks step out from there (1, 2, 4, … calls: neighbouring records) until the answer is bracketed, and
 * the rest is bisected.
 *
 * Only the order of the looks changes: every look narrows [lo, hi) by the predicate's value, so the
 * search returns the same first call whatever the guess (test/fast/probe.test.ts holds it equal to a
 * plain bisection on random monotone predicates, and the replay property tests hold the figures).
 */

/** Searches that started from a guess (tests check that the path is taken). */
export const callSearchStats = { guesses: 0 };

const enum Phase {
  /** The look at the stretch's last call. */
  First,
  /** The look at the guessed crossing. */
  Guess,
  /** Stepping out from the guess, 1, 2, 4, … calls, in the direction its answer points. */
  StepOut,
  Bisect,
}

/**
 * One search at a time (module instances in the closed forms): after the first look fired, start and
 * crossing; then next after each look while `guessing`.
 */
export class CallSearch {
  private x = 0;
  private phase = Phase.First;
  /** The earliest crossing guessed at the first look (Infinity: none, bisect). */
  private guess = Infinity;
  /** Whether the predicate held at the guess: the direction of the steps out. */
  private guessFires = false;
  private step = 1;

  /** A new guess for a search over calls from x, after its first look fired. */
  start(x: number): void {
    this.x = x;
    this.phase = Phase.First;
    this.guess = Infinity;
  }

  /** Whether crossing() made a guess (else the search bisects). */
  get guessed(): boolean {
    if (this.guess === Infinity) return false;
    callSearchStats.guesses++;
    return true;
  }

  /** Whether next() still chooses the looks (false once it bisects: the caller bisects on its own). */
  get guessing(): boolean {
    return this.phase !== Phase.Bisect;
  }

  /**
   * At the first look, at call j: a figure summed over calls x..j−1 (`reached`, from 0 at x) reached
   * `limit` there. Guesses the call where it crosses the limit at its mean rate; the earliest guess wins.
   */
  crossing(j: number, reached: number, limit: number): void {
    if (!(reached > 0) || j <= this.x) return;
    const call = this.x + Math.ceil((limit * (j - this.x)) / reached);
    if (call < this.guess) this.guess = call;
  }

  /**
   * The same for a convex figure (full history's spend: each call's prompt holds the steps before it):
   * its per-call rate taken to grow linearly from `first` (the stretch's first call's) to what makes
   * `reached` over x..j−1, the guess is where that quadratic reaches `limit`.
   */
  convexCrossing(j: number, reached: number, first: number, limit: number): void {
    const n = j - this.x;
    if (!(reached > 0) || n <= 0) return;
    // reached = first·n + growth·n² (growth: half the rate's slope a call).
    const growth = (reached - first * n) / (n * n);
    if (!(growth > 0 && first >= 0)) return this.crossing(j, reached, limit);
    const calls = (Math.sqrt(first * first + 4 * growth * limit) - first) / (2 * growth);
    const call = this.x + Math.ceil(calls);
    if (call < this.guess) this.guess = call;
  }

  /** The next call to look at after a look at j that narrowed the search to [lo, hi) (lo when done). */
  next(j: number, fires: boolean, lo: number, hi: number): number {
    if (lo >= hi) return lo;
    const mid = (lo + hi) >>> 1;
    switch (this.phase) {
      case Phase.First:
        this.phase = Phase.Bisect;
        if (this.guess === Infinity) return mid;
        this.phase = Phase.Guess;
        return this.guess < lo ? lo : this.guess >= hi ? hi - 1 : this.guess;
      case Phase.Guess:
        this.guessFires = fires;
        this.step = 1;
        this.phase = Phase.StepOut;
        return this.stepOut(j, fires, lo, hi, mid);
      case Phase.StepOut:
        // The answer changed side: it lies between this look and the last, bisect there.
        if (fires !== this.guessFires) {
          this.phase = Phase.Bisect;
          return mid;
        }
        return this.stepOut(j, fires, lo, hi, mid);
      default:
        return mid;
    }
  }

  private stepOut(j: number, fires: boolean, lo: number, hi: number, mid: number): number {
    const call = fires ? j - this.step : j + this.step;
    this.step *= 2;
    if (call < lo || call >= hi) {
      this.phase = Phase.Bisect;
      return mid;
    }
    return call;
  }
}
