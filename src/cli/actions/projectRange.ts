/**
 * The sizes `project` takes: `--runs-per-day` past the largest count held exactly is named as such (not
 * as "not a whole number"), and a projection whose totals would leave exact arithmetic is refused before
 * any simulated day. Every figure is summed exactly (BigInt picodollars), but the report gives dollars as
 * JSON numbers (doubles) and shows them to $0.0001: the rule that bounds one run at 2^53 − 1 picodollars
 * (kernel/cost.ts costOutOfRange, a double's exact integers) applied at $0.00001, a digit past the one
 * shown, bounds a total at $90,071,992,547.40991. Up to it a double's spacing and the rounding on the way
 * to the table stay under $0.00002, so the $0.0001 shown is the exact total's (past it, at $10^15, the
 * spacing is $0.125 and the last digits shown are noise).
 */
import { UserError } from '../../errors.js';
import { MAX_COUNT } from '../../io/limits.js';
import { formatUsd } from '../../report/money.js';
import { positiveInt, type NumberLimit } from '../../flags/numberFlags.js';

/** Picodollars in $0.00001, a digit past the report's smallest unit shown. */
const PICO_PER_UNIT = 10_000_000n;
/** The largest total the report shows exactly: 2^53 − 1 hundred-thousandths of a dollar. */
export const MAX_PROJECTED_PICO = BigInt(Number.MAX_SAFE_INTEGER) * PICO_PER_UNIT;

/** The most runs a day `--runs-per-day` takes: the largest count held exactly. */
const RUNS_PER_DAY_LIMIT: NumberLimit = { max: MAX_COUNT, text: `${MAX_COUNT} (2^53 − 1)`, why: 'the most runs a day a projection takes (the largest count held exactly)' };

/** `--runs-per-day N`: a whole number from 1 to 2^53 − 1; one past that is named as too large, with the limit (numberFlags.ts, one rule). */
export function runsPerDayFlag(value: string): number {
  return positiveInt('--runs-per-day', value, RUNS_PER_DAY_LIMIT);
}

export interface ProjectedSizes {
  runsPerDay: number;
  days: number;
  /** The dearest run of the population, picodollars. */
  largestRunPico: number;
  /** The most the brakes allow a run to cost, picodollars (null: unbounded). */
  worstRunPico: number | null;
  /** Where the runs a day came from: the flag, or the scenario files' `runsPerDay`. */
  place: { file: string; field: string };
}

/**
 * Refuses a period of more runs than a count holds exactly, or one whose largest total (every run the
 * dearest of the population, or the worst case the brakes allow) passes MAX_PROJECTED_PICO; the hint
 * names the most runs a day that fit.
 */
export function checkProjectedSizes(sizes: ProjectedSizes): void {
  const { runsPerDay, days, place } = sizes;
  const runs = BigInt(runsPerDay) * BigInt(days);
  const perRun = BigInt(Math.max(sizes.largestRunPico, sizes.worstRunPico ?? 0));
  const fitting = (most: bigint) => (most / BigInt(days) < 1n ? 'no number of runs a day fits: give fewer --days' : `give at most ${most / BigInt(days)} runs a day, or fewer --days`);
  if (runs > BigInt(MAX_COUNT)) {
    throw new UserError({
      ...place,
      code: 'too_large',
      message: `${runsPerDay} runs a day for ${days} days is ${runs} runs, past ${MAX_COUNT} (2^53 − 1), the most counted exactly`,
      hint: fitting(BigInt(MAX_COUNT)),
    });
  }
  if (perRun * runs <= MAX_PROJECTED_PICO) return;
  const worst = sizes.worstRunPico !== null && sizes.worstRunPico > sizes.largestRunPico;
  throw new UserError({
    ...place,
    code: 'cost_out_of_range',
    message:
      `${runsPerDay} runs a day for ${days} days may total ${formatUsd(perRun * runs)} (${formatUsd(perRun)} a run, ${worst ? 'the worst case the brakes allow' : 'the dearest of these runs'}), ` +
      `past ${formatUsd(MAX_PROJECTED_PICO)} (2^53 − 1 hundred-thousandths of a dollar), the most the report's dollar figures hold exactly to the $0.0001 they show`,
    hint: fitting(MAX_PROJECTED_PICO / (perRun === 0n ? 1n : perRun)),
  });
}
