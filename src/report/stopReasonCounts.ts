/**
 * Stop counts as scripts read them: every stop reason the kernel knows, in its order (STOP_REASONS), 0
 * where no run stopped so — as replay's summary lists them. A sweep's CSV header and a sweep's or a
 * what-if's JSON keys then never change with the data (a grid of 3 steps and one of 300 steps give the
 * same columns).
 */
import { STOP_REASONS, type StopReason } from '../brakes/stopReasons.js';

/** `counts` with every stop reason present, in STOP_REASONS order (0 where absent). */
export function everyStopReason(counts: Partial<Record<string, number>>): Record<StopReason, number> {
  const all = {} as Record<StopReason, number>;
  for (const reason of STOP_REASONS) all[reason] = counts[reason] ?? 0;
  return all;
}
