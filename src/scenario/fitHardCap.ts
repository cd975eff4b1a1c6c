/**
 * A fitted profile's hard cap. No synthetic run goes past `hardCapSteps` steps (default 500, settings.ts):
 * before each call a run that has taken that many ends there (synthetic/agent.ts), whatever its plan. A
 * recorded run longer than the default would so be cut at it, the profile's longest, costliest runs with it.
 * When the longest recorded run went past the default, `fit` writes a hardCapSteps one past it: the run's
 * last call is made with fewer steps behind it than its length, and a run cut off after its last step ends
 * so (cut off), not at the cap. The window group, whose steps are the cap (fitWindow.ts), works on as far.
 * A scenario's cap is at most MAX_HARD_CAP_STEPS: a longer recorded run is cut there, and the note says so.
 * Pure.
 */
import { MAX_HARD_CAP_STEPS } from '../io/limits.js';
import { DEFAULT_HARD_CAP_STEPS } from './settings.js';

/** The profile's hardCapSteps for recorded runs of `steps` steps: undefined (the default holds) unless the longest went past the default; never past the most a scenario may set. */
export function fittedHardCapSteps(steps: readonly number[]): number | undefined {
  const longest = steps.reduce((max, n) => Math.max(max, n), 0);
  return longest > DEFAULT_HARD_CAP_STEPS ? Math.min(longest + 1, MAX_HARD_CAP_STEPS) : undefined;
}

/** The profile's comment line of its hard cap ('' when it keeps the default). */
export function hardCapNote(hardCapSteps: number | undefined): string {
  if (hardCapSteps === undefined) return '';
  if (hardCapSteps === MAX_HARD_CAP_STEPS) {
    return (
      `Hard cap: a recorded run took ${(MAX_HARD_CAP_STEPS - 1).toLocaleString('en-US')} steps or more, past the default cap of ${DEFAULT_HARD_CAP_STEPS} (no synthetic run goes past the cap), ` +
      `so the profile writes hardCapSteps: ${hardCapSteps}, the most a scenario may set: a synthetic run drawn longer ends at the cap.`
    );
  }
  const longest = (hardCapSteps - 1).toLocaleString('en-US');
  return (
    `Hard cap: the longest recorded run took ${longest} steps, past the default cap of ${DEFAULT_HARD_CAP_STEPS} (no synthetic run goes past the cap), ` +
    `so the profile writes hardCapSteps: ${hardCapSteps}, one past it: every recorded length is drawn and ends as it ended, not at the cap.`
  );
}
