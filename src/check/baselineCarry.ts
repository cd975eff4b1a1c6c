/**
 * What a check that writes a baseline over an existing one (`--update-baseline` naming the file compared
 * with) carries over from it. A check of some of the scenarios (`check scenarios/one.yaml`) renews those and
 * keeps every other entry as it was: writing only the checked ones would drop the rest, and a later brake
 * regression there would pass as a new scenario. A scenario reported gone because its file is no more (a
 * file removed from a directory checked) is dropped: accepting is how a removal is accepted. Kept entries are
 * keyed for the file written (`keyOf` of their path from here) and bring the stored prices of their models. Pure.
 */
import { BASELINE_SCHEMA, type BaselineFile, type BaselineScenario } from './baselineFile.js';
import { rowKey, type PriceRow } from './modelPrices.js';
import type { ScenarioMatching } from './scenarioMatch.js';
import { counted } from '../plural.js';

/** The entries carried into the baseline written, and what was kept and dropped (paths from here). */
export interface BaselineCarry {
  entries: BaselineScenario[];
  /** The price rows to write: this check's, and the stored ones of the kept entries' models it did not price, in ResolvedPrices' order. */
  models: PriceRow[];
  kept: string[];
  dropped: string[];
}

export interface CarryArgs {
  /** This check's price rows (what the file written holds already). */
  models: readonly PriceRow[];
  /** Whether a scenario file is there (a path from here). */
  exists: (path: string) => boolean;
  /** A scenario file's key in the baseline written. */
  keyOf: (path: string) => string;
}

/**
 * The baseline's scenarios this check did not run (`matched.gone`, as the check's comparison with `baseline`
 * matched them: scenarioMatch.ts), each at its path from here (`matched.pathOf`): kept when their file is
 * there, dropped when it is gone.
 */
export function carriedScenarios(matched: Pick<ScenarioMatching, 'gone' | 'pathOf'>, baseline: BaselineFile, args: CarryArgs): BaselineCarry {
  const { gone, pathOf } = matched;
  const carry: BaselineCarry = { entries: [], models: [], kept: [], dropped: [] };
  for (const entry of gone) {
    const path = pathOf(entry);
    if (!args.exists(path)) {
      carry.dropped.push(path);
      continue;
    }
    carry.kept.push(path);
    carry.entries.push({ ...entry, source: args.keyOf(path) });
  }
  const stored = baseline.baseline === BASELINE_SCHEMA ? baseline.models : [];
  const used = new Set(carry.entries.flatMap((entry) => entry.models ?? []));
  const rows = new Map(args.models.map((row) => [rowKey(row), row]));
  for (const row of stored) if (used.has(row.model) && !rows.has(rowKey(row))) rows.set(rowKey(row), row);
  carry.models = [...rows.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, row]) => row);
  return carry;
}

/** `kept 4 scenarios not checked (…); dropped 1 gone (…)`: what a baseline written over its old self carried over; empty when nothing. */
export function carryText(carry: Pick<BaselineCarry, 'kept' | 'dropped'>): string {
  const kept = carry.kept.length === 0 ? [] : [`kept ${counted(carry.kept.length, 'scenario')} not checked (${carry.kept.length === 1 ? 'its entry' : 'their entries'} written back unchanged)`];
  const dropped = carry.dropped.length === 0 ? [] : [`dropped ${carry.dropped.length} gone (${carry.dropped.join(', ')}: no such file)`];
  return [...kept, ...dropped].join('; ');
}

/**
 * What the report (JSON `baselineWritten`) says of the baseline `--update-baseline` wrote: the entries kept and
 * dropped from the one it replaced, whether that one was compared with though no `--baseline` named it
 * (`replaced`: `compared`, or `not compared` when it could not be read as this check's baseline), and the
 * command-line overrides its settings were checked under (a CI check that does not pass them finds them removed).
 */
export interface BaselineWritten {
  file: string;
  kept: string[];
  dropped: string[];
  replaced?: 'compared' | 'not compared';
  overrides: string[];
}
