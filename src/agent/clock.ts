/** A virtual clock: time moves only when told (tests, trace-driven runs). */
import type { Clock } from './types.js';

export class VirtualClock implements Clock {
  private ms = 0;
  now(): number {
    return this.ms;
  }
  advance(ms: number): void {
    this.ms += ms;
  }
  async sleep(ms: number, signal?: AbortSignal): Promise<void> {
    signal?.throwIfAborted();
    if (!(ms >= 0 && Number.isFinite(ms))) throw new RangeError(`VirtualClock.sleep(${ms}): a wait is a number of milliseconds, 0 or more (the clock never goes back)`);
    this.ms += ms;
  }
}
