/**
 * `project`'s warning that runs were priced as of a past day at prices other than the table's latest
 * (population/projectPrices.ts): which models and days, how their prices differ, what the runs cost a run
 * at the latest prices against what the projection drew, and the flag that projects at them. Pure.
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
}

/**
 * `prices_as_recorded`: runs priced as of a past day whose prices are not the table's latest (`latestDay`, its
 * release day); none when there is no such run.
 */
export function pastPricesWarnings(gaps: readonly PastDayGap[], cost: PastPricesCost, latestDay: string): ReportWarning[] {
  if (gaps.length === 0) return [];
  const runs = gaps.reduce((sum, gap) => sum + gap.runs, 0);
  const days = [...new Set(gaps.map((gap) => gap.day))].sort();
  const named = gaps.slice(0, NAMED).map(changeWords).join('; ');
  const more = gaps.length > NAMED ? `; and ${gaps.length - NAMED} more models or days` : '';
  const mean = BigInt(cost.meanPico);
  const latest = BigInt(cost.latestMeanPico);
  const change = mean === 0n ? '' : ` (${signedPercentText(Number(latest - mean) / Number(mean))})`;
  const atLatest =
    latest === mean
      ? `at the table's latest, the runs projected from cost the same, ${formatUsd(mean)} a run on average: what changed does not bear on them, though it may on runs to come`
      : `at the table's latest, the runs projected from cost ${formatUsd(latest)} a run on average, not ${formatUsd(mean)}${change}, and the spend a day and a period move with them`;
  return [
    {
      code: 'prices_as_recorded',
      message:
        `${counted(runs, 'run')} ${runs === 1 ? 'is' : 'are'} priced as of the day ${runs === 1 ? 'it was' : 'each was'} recorded (${days.length === 1 ? days[0] : `${days.length} days, ${days[0]} to ${days[days.length - 1]}`}), at prices that are not the table's latest (${latestDay}): ${named}${more}. ` +
        `A projection is of runs to come, billed at today's prices: ${atLatest}; ` +
        `to project at the latest prices, add --prices-as-of ${latestDay}`,
    },
  ];
}
