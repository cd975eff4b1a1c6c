/**
 * What a sweep's `saved` is measured against: each configuration's runs with no brakes (its `baselineCostUsd`),
 * which differ by the settings that are not brakes — the context strategy, tool-result cap, cache, model and
 * (synthetic runs) the max_tokens sent. A grid over the context gave two rows of the same spend different savings (under mask a long run is no longer
 * refused at the window, so with no brakes it costs more), and the notes gave only the least and the most
 * baseline: now they give each context's (each combination of the swept settings that are not brakes), and
 * the legend says `saved` is not comparable across contexts. Pure.
 */
import { gridValuesOf, type GridAxis } from '../population/grid.js';
import { formatUsdNumber as usd } from './money.js';

/** The table's legend of `saved`. */
export const SAVED_LEGEND = "saved: spend avoided on those, against the same context's runs with no brakes (the row's own context, cache, model and max_tokens); not comparable across contexts.";

/**
 * Grid keys whose values change what the runs cost with no brakes (grid.ts CONTEXT_GRID_KEYS, the model, and the
 * max_tokens sent: a synthetic run's baseline sends it too, population/run.ts syntheticBaselineKey).
 */
const BASELINE_KEYS: ReadonlySet<string> = new Set(['context', 'tool-result-cap', 'cache', 'model', 'max-output-tokens']);

/** Most baselines the note lists one by one; past it, the least and the most. */
const MOST_LISTED = 12;

/**
 * Each combination of the swept settings that are not brakes (`context=mask:5`) with its runs' cost with no
 * brakes, in grid order; undefined when no such setting is swept, or rows sharing one combination differ.
 */
function baselinesBySetting(rows: readonly { settings: string; baselineCostUsd: number }[], axes: readonly GridAxis[], grid: readonly GridAxis[]): [string, number][] | undefined {
  if (axes.length === 0) return undefined;
  const baselines = new Map<string, number>();
  for (const row of rows) {
    const values = gridValuesOf(row.settings, grid);
    const key = axes.map((axis) => `${axis.key}=${values.get(axis.key) ?? ''}`).join(',');
    const known = baselines.get(key);
    if (known !== undefined && known !== row.baselineCostUsd) return undefined;
    baselines.set(key, row.baselineCostUsd);
  }
  return [...baselines];
}

/**
 * What the runs cost with no brakes, in all (each row's `baselineCostUsd`): one figure; or, when the grid
 * sweeps a setting that is not a brake, each of its values' (what that value's rows' `saved` is against);
 * else the least and the most. Empty without rows.
 */
export function baselineCostText(rows: readonly { settings: string; baselineCostUsd: number }[], grid: readonly GridAxis[] = []): string {
  if (rows.length === 0) return '';
  let least = rows[0]!.baselineCostUsd;
  let most = least;
  for (const row of rows) {
    least = Math.min(least, row.baselineCostUsd);
    most = Math.max(most, row.baselineCostUsd);
  }
  if (least === most) return `With no brakes these runs cost ${usd(least)} in all: what "saved" is measured against.`;
  const axes = grid.filter((axis) => BASELINE_KEYS.has(axis.key));
  const each = baselinesBySetting(rows, axes, grid);
  if (each !== undefined && each.length <= MOST_LISTED) {
    const listed = each.map(([setting, cost]) => `${usd(cost)} under ${setting}`);
    const keys = axes.map((axis) => axis.key).join(' and ');
    return `With no brakes these runs cost ${andList(listed)}, in all (baselineCostUsd in the JSON report): each row's "saved" is measured against the cost under its own ${keys}, so "saved" is not comparable across ${axes.length === 1 ? (keys.endsWith('s') ? `${keys} values` : `${keys}s`) : 'them'}.`;
  }
  return `With no brakes these runs cost from ${usd(least)} to ${usd(most)} in all, by configuration (baselineCostUsd in the JSON report): what "saved" is measured against.`;
}

const andList = (items: readonly string[]): string => (items.length <= 2 ? items.join(' and ') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`);
