/** What a replay says of a recorded run that ended without completing: what its end record says. */
import type { TraceEnd } from './types.js';

/**
 * The trace_end detail of a run whose recording ended without completing: its recorded status as written
 * (a real loop's end record holds its own stop detail — `model call failed: …; gave up after 3 retries`,
 * `stopped by its AbortSignal after 2 steps` — so its replay says what the run said), else its outcome;
 * '' when the end record says nothing more (outcome `unknown`, no status), for the plain detail.
 */
export function recordedEndDetail(end: TraceEnd): string {
  if (end.status !== undefined && end.status.trim() !== '') return end.status;
  return end.outcome === 'unknown' || end.outcome === 'completed' ? '' : `recorded trace ended without completing (outcome ${end.outcome})`;
}
