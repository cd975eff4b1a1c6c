/**
 * A virtual clock: time moves only when told (tests, trace-driven runs). It tells the date of a run on it
 * (Clock.dateOf), never the real day: given an epoch, the epoch plus its reading (a recording is then dated
 * and its dated prices read at that day); without one, no date (null: the recording is left undated and
 * replayed at the price table's current prices, as the run was most likely priced). Either way two identical
 * runs make two identical recordings.
 */
import { shown } from '../options/rules.js';
import type { Clock } from './types.js';
import { LoopValueError } from './valueCheck.js';

export class VirtualClock implements Clock {
  private ms: number;
  /** The date its reading 0 is, in ms since 1970 (UTC); undefined: it tells no date. */
  private readonly epochMs: number | undefined;
  /** The timers set (`timer`): each resolved once the clock reads past its `atMs`. */
  private readonly timers = new Set<{ atMs: number; resolve: () => void }>();
  /**
   * A clock reading `startMs` (default 0): a finite number of milliseconds, 0 or more, as a step of time
   * is; anything else (`'x'`, NaN) would start it at a reading no time has, refused as `advance` refuses a
   * step (a LoopValueError, field `new VirtualClock(startMs)`). `epoch`: the date it reads 0 at (left out:
   * the clock tells no date, and a recording of a run on it is undated), an ISO date text (`'2026-05-01'`, `'2026-05-01T09:00:00Z'`): a run
   * started at reading `ms` is recorded as of `epoch` + `ms` (give the day whose prices its recording is to be
   * replayed at); a text no date is read from is refused so too (field `new VirtualClock(startMs, epoch)`).
   */
  constructor(startMs = 0, epoch?: string) {
    if (!isTime(startMs)) {
      throw new LoopValueError('clock', 'new VirtualClock(startMs)', startMs, `new VirtualClock(${shown(startMs)}): a clock starts at a finite number of milliseconds, 0 or more (leave it out for 0)`);
    }
    const epochMs = epoch === undefined ? undefined : typeof epoch === 'string' ? Date.parse(epoch) : NaN;
    if (Number.isNaN(epochMs)) {
      throw new LoopValueError('clock', 'new VirtualClock(startMs, epoch)', epoch, `new VirtualClock(${startMs}, ${shown(epoch)}): the epoch is the date the clock reads 0 at, an ISO date text such as '2026-05-01' (leave it out for a clock that tells no date)`);
    }
    this.ms = startMs;
    this.epochMs = epochMs;
  }
  /** The date of reading `readingMs`: the epoch + `readingMs`, ISO (UTC); null without an epoch. */
  dateOf(readingMs: number): string | null {
    return this.epochMs === undefined ? null : new Date(this.epochMs + readingMs).toISOString();
  }
  now(): number {
    return this.ms;
  }
  /**
   * Moves the clock on by `ms`, a finite number of milliseconds, 0 or more: a negative or NaN step would turn
   * the clock back (or make every later reading NaN), which the loop refuses only later, far from the caller's
   * bug; it is refused here, a LoopValueError naming the call (source `clock`, field `VirtualClock.advance(ms)`).
   */
  advance(ms: number): void {
    if (!isTime(ms)) {
      throw new LoopValueError('clock', 'VirtualClock.advance(ms)', ms, `VirtualClock.advance(${shown(ms)}): a step of time is a finite number of milliseconds, 0 or more (the clock never goes back)`);
    }
    this.ms += ms;
    this.ring();
  }
  async sleep(ms: number, signal?: AbortSignal): Promise<void> {
    signal?.throwIfAborted();
    if (!(ms >= 0 && Number.isFinite(ms))) throw new RangeError(`VirtualClock.sleep(${ms}): a wait is a number of milliseconds, 0 or more (the clock never goes back)`);
    this.ms += ms;
    this.ring();
  }
  /** Resolves once advance or sleep takes the clock past `ms` from now (a clock moved on by exactly `ms` has not passed it); rejects with `signal`'s reason once it fires. */
  timer(ms: number, signal: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      if (signal.aborted) return reject(signal.reason);
      const timer = { atMs: this.ms + ms, resolve: () => (signal.removeEventListener('abort', cancel), resolve()) };
      const cancel = () => (this.timers.delete(timer), reject(signal.reason));
      signal.addEventListener('abort', cancel, { once: true });
      this.timers.add(timer);
    });
  }
  /** Resolves the timers the clock has passed. */
  private ring(): void {
    for (const timer of this.timers) {
      if (this.ms <= timer.atMs) continue;
      this.timers.delete(timer);
      timer.resolve();
    }
  }
}

/** Milliseconds a virtual clock reads or moves by: finite, 0 or more. */
function isTime(ms: unknown): ms is number {
  return typeof ms === 'number' && Number.isFinite(ms) && ms >= 0;
}
