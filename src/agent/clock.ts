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
    this.ms += ms;
  }
}
