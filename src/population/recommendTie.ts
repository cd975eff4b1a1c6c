/**
 * Which of two configurations a sweep recommends when their figures tie (the same cost per completed run
 * and the same spend: recommend.ts, and each resample of recommendBootstrap.ts): the one with the tighter
 * brakes, then the first in grid order. Tighter: the configuration's grid values read as brake limits and
 * compared limit by limit in TIGHTNESS_ORDER — the budget, the token cap, the step cap, the timeout, the
 * backtracks, the same-error limit, the repeat action (stop before skip), the repeat limit, the skips, the
 * context window (a number before `model`), the max_tokens sent, the sub-agent budget and step cap, then
 * the budget mode (predict before check) — the first that differs decides; a limit left unset is looser
 * than any. The limits that bound a run's cost come first: of two settings the runs cannot tell apart, the
 * recommendation is the one whose worst case is lower, not the looser one the grid happened to list first.
 *
 * Only grid values count (every configuration shares the flags given), each read by its flag's parser
 * (a preset as its limits). A total order read off each configuration's settings and the grid alone, so a
 * sweep, its shards and their merge break ties alike. Pure.
 */
import { UserError } from '../errors.js';
import { brakesFromFlags, maxCostPico, type BrakeFlags } from '../flags/settingsFlags.js';
import { positiveInt } from '../flags/numberFlags.js';
import type { BrakeConfig } from '../brakes/config.js';
import { BRAKE_GRID_KEYS, gridValuesOf, type GridAxis } from './grid.js';

/** Negative when configuration `a` (a grid index) is recommended over `b` on a tie, positive when `b` is; never 0 for a ≠ b. */
export type TieOrder = (a: number, b: number) => number;

/** Ties to the first in grid order (no grid known: a library caller's rows). */
export const GRID_ORDER: TieOrder = (a, b) => a - b;

/** The limits compared, in order, as their names in words (the README and the recommendation say them). */
export const TIGHTNESS_ORDER = [
  'budget', 'token cap', 'step cap', 'timeout', 'backtracks', 'same-error limit', 'repeat action (stop before skip)', 'repeat limit', 'skips',
  'context window', 'max_tokens sent', 'sub-agent budget', 'sub-agent step cap', 'budget mode (predict before check)',
] as const;

/** Most tied configurations the tie names; the rest counted. */
const MOST_TIED = 3;

/**
 * The tie as the recommendation says it, once (the how-sure line refers to it: recommendSureness.ts): `It ties
 * on these runs with max-steps=80 (the same completions and spend): of tied configurations the one with the
 * tighter brakes is recommended (the lower budget, then token cap, step cap, timeout and the other limits; else
 * the first in the grid).` `tiedWith`: the settings of the configurations the recommendation ties with (not empty).
 */
export function tieSentence(tiedWith: readonly string[]): string {
  const named = tiedWith.slice(0, MOST_TIED).join(', ') + (tiedWith.length > MOST_TIED ? ` and ${tiedWith.length - MOST_TIED} more` : '');
  const [first, ...then] = TIGHTNESS_ORDER;
  const order = `the lower ${first}, then ${then.slice(0, 3).join(', ')} and the other limits; else the first in the grid`;
  return `It ties on these runs with ${named} (the same completions and spend): of tied configurations the one with the tighter brakes is recommended (${order}).`;
}

const loose = (value: number | undefined): number => value ?? Infinity;

/** A configuration's limits in TIGHTNESS_ORDER (smaller: tighter). */
function limitsOf(brakes: BrakeConfig, subagent: { costPico?: number; steps?: number }): number[] {
  const window = brakes.contextWindow === 'model' ? Number.MAX_VALUE : brakes.contextWindow;
  return [
    loose(brakes.maxCostPico), loose(brakes.maxTokens), loose(brakes.maxSteps), loose(brakes.timeoutMs), loose(brakes.maxBacktracks), loose(brakes.maxSameError),
    brakes.repeatAction === 'skip' ? 1 : 0, loose(brakes.maxRepeat), loose(brakes.maxSkips), loose(window), loose(brakes.maxOutputTokens),
    loose(subagent.costPico), loose(subagent.steps), brakes.budgetMode === 'predict' ? 0 : 1,
  ];
}

/** A configuration whose grid values cannot be read (a tampered shard's): looser than any, so grid order decides among such. */
const UNREAD: readonly number[] = TIGHTNESS_ORDER.map(() => Infinity);

/** The limits a configuration's grid values set (`settings`, as a sweep row's). */
function gridLimits(settings: string, grid: readonly GridAxis[]): number[] {
  const values = gridValuesOf(settings, grid);
  const flags: BrakeFlags = {};
  for (const [key, flag] of Object.entries(BRAKE_GRID_KEYS)) {
    const value = values.get(key);
    if (value !== undefined) flags[flag] = value;
  }
  try {
    const steps = values.get('subagent-max-steps');
    const cost = values.get('subagent-max-cost');
    const subagent = { ...(steps === undefined ? {} : { steps: positiveInt('--subagent-max-steps', steps) }), ...(cost === undefined ? {} : { costPico: maxCostPico('--subagent-max-cost', cost) }) };
    return limitsOf(brakesFromFlags(flags), subagent);
  } catch (error) {
    if (error instanceof UserError) return [...UNREAD];
    throw error;
  }
}

/**
 * The tie order of a grid's configurations (`settingsOf(i)`: configuration i's grid values, as its row's
 * `settings`): tighter brakes first, then grid order. Each configuration's limits read once, when first compared.
 */
export function tieOrderOf(settingsOf: (index: number) => string, grid: readonly GridAxis[]): TieOrder {
  const read = new Map<number, number[]>();
  const limits = (index: number): number[] => {
    let found = read.get(index);
    if (found === undefined) read.set(index, (found = gridLimits(settingsOf(index), grid)));
    return found;
  };
  return (a, b) => {
    if (a === b) return 0;
    const [la, lb] = [limits(a), limits(b)];
    for (let k = 0; k < la.length; k++) if (la[k] !== lb[k]) return la[k]! < lb[k]! ? -1 : 1;
    return a - b;
  };
}
