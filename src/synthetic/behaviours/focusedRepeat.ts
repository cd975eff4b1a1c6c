/**
 * Which earlier action a healthy agent's repeat re-runs when its entry sets `repeatFocus`: real runs bunch
 * their repeats on one action (mini-swe-agent re-runs its reproduction script after each edit: on the 28
 * completed shared runs the busiest command ran up to 7 times, and 72 of the 153 repeats went to each run's
 * busiest command) and never re-run the command they just ran (0 of 153). Without the field a repeat is an
 * earlier action weighted by use, the action just run included (healthy.ts), which spreads the repeats
 * thin: the busiest action of a fitted run reached 4 calls in 127 of 1,444 completed runs (the recordings:
 * 11 of 28). With it: a repeat is never the action just run (no action left: a new one), and with
 * probability repeatFocus it is the most-run of the others (ties drawn evenly), else one of them weighted
 * by use. Pure: every draw from the action's own stream.
 */
import type { Rng } from '../random.js';

/** The actions a run has taken, in order, with how often each ran. */
export class ActionTally {
  readonly order: unknown[] = [];
  readonly counts = new Map<unknown, number>();

  add(action: unknown): void {
    this.order.push(action);
    this.counts.set(action, (this.counts.get(action) ?? 0) + 1);
  }

  /** The earlier action a repeat re-runs, or undefined when every earlier action is the one just run. */
  pickRepeat(rng: Rng, focus: number): unknown {
    const last = this.order.at(-1);
    if (this.order.length === 0 || this.counts.get(last) === this.order.length) return undefined;
    if (rng.chance(focus)) return this.busiest(rng, last);
    // Weighted by use, the action just run left out: draw again until another comes (it never takes them all).
    for (;;) {
      const action = this.order[rng.int(0, this.order.length - 1)];
      if (action !== last) return action;
    }
  }

  /** The most-run action other than `last` (ties drawn evenly, in the order they first ran). */
  private busiest(rng: Rng, last: unknown): unknown {
    let most = 0;
    let tied: unknown[] = [];
    for (const [action, count] of this.counts) {
      if (action === last || count < most) continue;
      if (count > most) {
        most = count;
        tied = [];
      }
      tied.push(action);
    }
    return tied[rng.int(0, tied.length - 1)];
  }
}
