/**
 * A share (0 to 1) in a scenario file: one schema and one message for every share field (`cacheHitShare`,
 * `repeatShare`, `expect.population.completionRate`, …), so `100` meant as 100% is answered with what to
 * write instead (src/scenario/load.ts puts the given value in front).
 */
import { z } from 'zod/mini';

export const SHARE_MESSAGE = 'a share from 0 to 1: write 0.9 for 90%';
export const BELOW_ONE_SHARE_MESSAGE = 'a share from 0 to below 1: write 0.3 for 30% (at 1 the agent never gets anywhere)';

/** True for the messages of the share schemas below. */
export function isShareMessage(message: string): boolean {
  return message === SHARE_MESSAGE || message === BELOW_ONE_SHARE_MESSAGE;
}

export const share = z.number().check(z.minimum(0, SHARE_MESSAGE), z.maximum(1, SHARE_MESSAGE));
/** A share that must stay below 1 (a backtracking or unparseable share of 1 never ends). */
export const belowOneShare = z.number().check(z.minimum(0, BELOW_ONE_SHARE_MESSAGE), z.lt(1, BELOW_ONE_SHARE_MESSAGE));
