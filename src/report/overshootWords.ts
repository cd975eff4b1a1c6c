/**
 * The words of the overshoot figure, one source for every summary that shows it (replay's, replay --tree's):
 * spend past the budget brake (`--max-cost`) — a check brake stops only after the call that crossed it, so a
 * run may end past its budget — summed over the runs (or trees), and the largest one run (tree) spent past it.
 * Shown only where a budget brake is on; JSON keeps `totalOvershootUsd` and `maxOvershootUsd`.
 */
import { formatUsdNumber } from './money.js';

/** The summary field's label. */
export const OVERSHOOT_LABEL = 'overshoot past the budget';

/** `total $0.4642, largest run $0.4482` (`each`: what one overshoot is of, `run` or `tree`). */
export function overshootText(totalUsd: number, maxUsd: number, each: 'run' | 'tree'): string {
  return `total ${formatUsdNumber(totalUsd)}, largest ${each} ${formatUsdNumber(maxUsd)}`;
}
