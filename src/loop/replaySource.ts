import type { Trace } from '../trace/types.js';
import type { StepSource } from './types.js';

/** Replays a trace's calls in order, whatever the prompt holds (an open-loop source). */
export class ReplaySource implements StepSource {
  /** A recording is replayed as recorded, whatever the loop's state. */
  readonly readsToolState = false;
  private index = 0;
  constructor(private readonly trace: Trace) {}
  next() {
    return this.trace.calls[this.index++] ?? null;
  }
  exhaustedReason() {
    return this.trace.end.outcome === 'completed' ? ('completed' as const) : ('trace_end' as const);
  }
}
