/**
 * What session trees spent past the tree's budget (`--max-cost`, binding the tree's totals): each tree's
 * overshoot by the kernel's rule (overshootPico) over its totals, and the summary's total and largest, told
 * in the words the flat replay's summary uses (overshootWords.ts), only when a budget brake is on.
 */
import type { BrakeConfig } from '../brakes/config.js';
import { overshootPico } from '../kernel/brakes.js';
import { picoToUsd } from '../money.js';
import type { TreeTotals } from '../tree/result.js';
import { OVERSHOOT_LABEL, overshootText } from './overshootWords.js';

/** A tree's spend past its budget, in picodollars: 0 within it, and without a budget brake. */
export function treeOvershootPico(totals: Pick<TreeTotals, 'costPico'>, brakes: Pick<BrakeConfig, 'maxCostPico'>): number {
  return brakes.maxCostPico === undefined ? 0 : overshootPico(totals.costPico, brakes.maxCostPico);
}

/** The summary's overshoot figures (as the flat replay's `totalOvershootUsd`, `maxOvershootUsd`). */
export interface TreesOvershoot {
  totalOvershootUsd: number;
  maxOvershootUsd: number;
}

/** Each tree's overshoot added up (exact, in picodollars) and the largest. */
export function treesOvershoot(overshootsPico: readonly number[]): TreesOvershoot {
  const total = overshootsPico.reduce((sum, pico) => sum + BigInt(pico), 0n);
  const max = overshootsPico.reduce((most, pico) => Math.max(most, pico), 0);
  return { totalOvershootUsd: picoToUsd(total), maxOvershootUsd: picoToUsd(max) };
}

/** `overshoot past the budget: total $0.4642, largest tree $0.4482`: the summary's, under a budget brake (its figures present); '' without one. */
export function treeOvershootLine(summary: Partial<TreesOvershoot>): string {
  const { totalOvershootUsd: total, maxOvershootUsd: max } = summary;
  if (total === undefined || max === undefined) return '';
  return `${OVERSHOOT_LABEL}: ${overshootText(total, max, 'tree')}\n`;
}
