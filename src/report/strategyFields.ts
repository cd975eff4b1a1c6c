/**
 * The figures of the context strategies and the skip guard (summary calls and their cost, cache hits
 * lost to the strategy, skipped actions) as labelled fields, each only when present: one wording for
 * the replay summary, the what-if totals and the check report.
 */
import { formatUsdNumber } from './money.js';
import { counted } from '../plural.js';

/** The strategy figures a report carries (absent where 0). */
export interface StrategyFigureRecord {
  summaryCalls?: number;
  summaryCostUsd?: number;
  strategyCacheLostTokens?: number;
  skippedActions?: number;
}

export function strategyFields(s: StrategyFigureRecord): [string, string][] {
  const fields: [string, string][] = [];
  if (s.summaryCalls !== undefined) fields.push(['context summaries', `${counted(s.summaryCalls, 'call')} (not steps), ${formatUsdNumber(s.summaryCostUsd ?? 0)} of the total`]);
  if (s.strategyCacheLostTokens !== undefined) fields.push(['cache hits lost to strategy', `${s.strategyCacheLostTokens.toLocaleString('en-US')} prompt tokens re-sent outside the cached prefix`]);
  if (s.skippedActions !== undefined) fields.push(['repeated actions skipped', String(s.skippedActions)]);
  return fields;
}

/** The fields on one line (`label: value; …`), '' when there are none. */
export function strategyFieldsText(s: StrategyFigureRecord): string {
  return strategyFields(s).map(([label, value]) => `${label}: ${value}`).join('; ');
}
