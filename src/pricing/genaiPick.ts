/** Which of a genai-prices model's dated and time-of-day prices a run is priced at. */
import type { ConditionalPrice, ModelPrice } from '@pydantic/genai-prices';

/**
 * Picks one price set from a model's prices, deterministically (never by the clock):
 * 1. Date level: among start-date entries, the latest start date wins (with `asOf`: the latest not after
 *    it); when none applies, the first unconstrained entry (the original price).
 * 2. Time of day: genai-prices lets daily windows override the date-level price during those hours
 *    (DeepSeek peak/off-peak). We take the price that applies for most of the day: a window price only
 *    when its windows cover more of the 24 hours than the rest of the day does. So `deepseek-chat`
 *    (standard 00:30–16:30 UTC, 16 h, unconstrained entry = off-peak) prices at the standard rate, and
 *    `deepseek-v4-flash` (peak 7 h a day) at its date-level off-peak rate.
 */
export function pickModelPrice(prices: ConditionalPrice[] | ModelPrice, asOf?: Date): ModelPrice {
  if (!Array.isArray(prices)) return prices;
  let best: { date: string; prices: ModelPrice } | undefined;
  for (const entry of prices) {
    const constraint = entry.constraint;
    if (constraint?.type !== 'start_date') continue;
    if (asOf !== undefined && new Date(`${constraint.start_date}T00:00:00Z`) > asOf) continue;
    if (!best || constraint.start_date > best.date) best = { date: constraint.start_date, prices: entry.prices };
  }
  const unconstrained = prices.find((entry) => entry.constraint === undefined);
  const dateLevel = best?.prices ?? unconstrained?.prices ?? prices[0]?.prices;
  if (!dateLevel) throw new Error('genai-prices: model with an empty price list');

  // Seconds of the day each distinct window price covers.
  const windows = new Map<string, { prices: ModelPrice; seconds: number }>();
  let windowed = 0;
  for (const entry of prices) {
    const constraint = entry.constraint;
    if (constraint?.type !== 'time_of_date') continue;
    const seconds = windowSeconds(constraint.start_time, constraint.end_time);
    const id = JSON.stringify(entry.prices);
    const group = windows.get(id) ?? { prices: entry.prices, seconds: 0 };
    group.seconds += seconds;
    windows.set(id, group);
    windowed += seconds;
  }
  const rest = Math.max(0, DAY_SECONDS - windowed);
  let pick: { prices: ModelPrice; seconds: number } | undefined;
  for (const group of windows.values()) if (group.seconds > (pick?.seconds ?? rest)) pick = group;
  return pick?.prices ?? dateLevel;
}

const DAY_SECONDS = 86_400;

/** Length in seconds of a daily window `HH:MM:SS[.f](Z|±HH:MM)` → same, wrapping past midnight. */
function windowSeconds(start: string, end: string): number {
  const toSeconds = (time: string): number => {
    const m = /^(\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(Z|([+-])(\d{2}):(\d{2}))$/.exec(time);
    if (!m) throw new Error(`genai-prices: invalid time-of-day constraint ${time}`);
    const local = Number(m[1]) * 3600 + Number(m[2]) * 60 + Number(m[3]);
    const offset = m[4] === 'Z' ? 0 : (m[5] === '-' ? -1 : 1) * (Number(m[6]) * 3600 + Number(m[7]) * 60);
    return (((local - offset) % DAY_SECONDS) + DAY_SECONDS) % DAY_SECONDS;
  };
  return (((toSeconds(end) - toSeconds(start)) % DAY_SECONDS) + DAY_SECONDS) % DAY_SECONDS;
}
