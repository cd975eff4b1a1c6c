/**
 * `project`'s warning that runs were priced as of a past day at prices other than the table's latest
 * (population/projectPrices.ts): which models and days, how their prices differ, what the runs cost a run
 * at the latest prices against what the projection drew, and the flag that projects at them; when the runs
 * cost the same at the latest, one short line under its own code instead. Pure.
 */
import type { PastDayGap } from '../population/projectPrices.js';
import { describePricing, type TokenPricesDescription } from '../pricing/cost.js';
import type { Pico } from '../money.js';
import { counted } from '../plural.js';
import { formatUsd } from './money.js';
import { signedPercentText } from './percentText.js';
import type { ReportWarning } from './warnings.js';

/** The model and day entries the message names; the rest counted. */
const NAMED = 3;

const PRICE_NAMES: readonly [keyof TokenPricesDescription, string][] = [
  ['inputPerMTokUsd', 'input'],
  ['cachedInputPerMTokUsd', 'cached input'],
  ['cacheWritePerMTokUsd', 'cache write'],
  ['cacheWrite1hPerMTokUsd', 'cache write (1 h)'],
  ['outputPerMTokUsd', 'output'],
  ['reasoningPerMTokUsd', 'reasoning'],
];

const perMTok = (usd: number | null): string => (usd === null ? 'none' : `$${usd}`);

/** `input $10 → $2, output $40 → $8 per million tokens`, and the tiers or fees where they changed too. */
function changeWords(gap: PastDayGap): string {
  const then = describePricing(gap.then);
  const latest = describePricing(gap.latest);
  const tokens = PRICE_NAMES.filter(([key]) => then[key] !== latest[key]).map(([key, name]) => `${name} ${perMTok(then[key])} → ${perMTok(latest[key])}`);
  const others = [
    JSON.stringify(then.tiers) === JSON.stringify(latest.tiers) ? '' : 'its price tiers',
    gap.then.webSearchPico === gap.latest.webSearchPico ? '' : 'its fee per web search',
    gap.then.requestPico === gap.latest.requestPico ? '' : 'its fee per request',
  ].filter(Boolean);
  const words = [tokens.length === 0 ? '' : `${tokens.join(', ')} per million tokens`, others.length === 0 ? '' : `${others.join(' and ')} changed`].filter(Boolean);
  return `${gap.model} as of ${gap.day} (${counted(gap.runs, 'run')}): ${words.join('; ')}`;
}

/** What the runs cost a run as projected (their recording days' prices) and at the table's latest, under the same brakes. */
export interface PastPricesCost {
  meanPico: Pico | bigint;
  latestMeanPico: Pico | bigint;
  /** The runs projected from (one per tree with --tree) whose cost at the table's latest is not the one projected. */
  changedRuns: number;
}

/**
 * `prices_as_recorded`: runs priced as of a past day whose prices are not the table's latest (`latestDay`, its
 * release day), and some of the runs cost otherwise at the latest; when none does (a change of tiers or of a
 * price the runs do not pay), one short line instead, `prices_as_recorded_same_cost`: the projection is the
 * latest prices' already. None when there is no such run.
 */
export function pastPricesWarnings(gaps: readonly PastDayGap[], cost: PastPricesCost, latestDay: string): ReportWarning[] {
  if (gaps.length === 0) return [];
  const named = gaps.slice(0, NAMED).map(changeWords).join('; ');
  const more = gaps.length > NAMED ? `; and ${gaps.length - NAMED} more models or days` : '';
  const mean = BigInt(cost.meanPico);
  if (cost.changedRuns === 0) {
    return [{ code: 'prices_as_recorded_same_cost', message: `${named}${more}; at the table's latest (${latestDay}) the runs projected from cost the same, ${formatUsd(mean)} a run on average` }];
  }
  const runs = gaps.reduce((sum, gap) => sum + gap.runs, 0);
  const days = [...new Set(gaps.map((gap) => gap.day))].sort();
  return [
    {
      code: 'prices_as_recorded',
      message:
        `${counted(runs, 'run')} ${runs === 1 ? 'is' : 'are'} priced as of the day ${runs === 1 ? 'it was' : 'each was'} recorded (${days.length === 1 ? days[0] : `${days.length} days, ${days[0]} to ${days[days.length - 1]}`}), at prices that are not the table's latest (${latestDay}): ${named}${more}. ` +
        `A projection is of runs to come, billed at today's prices: ${costAtLatestWords(cost)}; ` +
        `to project at the latest prices, add --prices-as-of ${latestDay}`,
    },
  ];
}

/** What the runs cost a run at the table's latest against what the projection drew (some of them cost otherwise). */
function costAtLatestWords(cost: PastPricesCost): string {
  const mean = BigInt(cost.meanPico);
  const latest = BigInt(cost.latestMeanPico);
  if (latest === mean) return `at the table's latest, ${counted(cost.changedRuns, 'run')} of those projected from cost otherwise, though ${formatUsd(mean)} a run on average all the same`;
  const change = mean === 0n ? '' : ` (${signedPercentText(Number(latest - mean) / Number(mean))})`;
  return `at the table's latest, the runs projected from cost ${formatUsd(latest)} a run on average, not ${formatUsd(mean)}${change}, and the spend a day and a period move with them`;
}
