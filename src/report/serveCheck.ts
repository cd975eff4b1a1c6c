/**
 * What `serve --check` says it would answer from, as every report names its settings: the inputs and the
 * address, the model each recording or the scenario is answered and priced as, the settings it serves
 * under (no brakes: the agent under test runs its own; the context is the messages that agent sends; the
 * cache) and the price table (name, version, hash, dating), in the reports' own words; for a scenario, the
 * tools each population entry's agent calls (an agent served them sees those names, and its brakes count them).
 */
import { describePriceSource } from '../pricing/source.js';
import { toolsCalled, type ToolsOf } from '../synthetic/behaviours/toolNames.js';
import type { PriceSource } from '../pricing/types.js';
import { runsPerModelText } from './render.js';
import { SETTINGS_SEPARATOR, settingsText } from './settings.js';
import { printableText } from './text.js';
import { labelledLine } from './view.js';

/** serve applies no brakes (README, Serve: Spend): the client's loop stops itself. */
export const SERVE_BRAKES = 'none (the agent under test runs its own)';

/** The context is the client's: recorded runs are answered as recorded, synthetic ones see the messages sent. */
export const SERVE_CONTEXT = 'as the agent sends it';

export interface ServeCheck {
  /** `1 recorded run`, `synthetic runs of scenarios/x.yaml (seed 1)`. */
  what: string;
  host: string;
  port: number;
  /** The model each recording is priced as, one per recording; or the scenario's, once. */
  models: readonly string[];
  /** The cache as the settings line says it (`as recorded`, `on`, `off`). */
  cache: string;
  /**
   * The price table as the runs are priced: recordings each at its own day (the table's rule), a
   * scenario's synthetic runs, which have no recording day, as its model's resolved pricing names it.
   */
  priceSource: PriceSource;
  width: number;
  /** A scenario's population entries: one `tools:` line each (synthetic/behaviours/toolNames.ts). */
  population?: readonly (ToolsOf & { name?: string | undefined })[];
}

/** The lines `serve --check` prints (each wrapped to `width`). */
export function serveCheckText(check: ServeCheck): string {
  const models = check.models.length > 0 && new Set(check.models).size === 1 ? `model: ${check.models[0]}` : `models: ${runsPerModelText(check.models)}`;
  return (
    labelledLine(printableText(`loopcost serve --check: would answer from ${check.what} on ${check.host}:${check.port}`), check.width) +
    labelledLine(printableText(models), check.width) +
    labelledLine(`settings: ${settingsText({ brakes: SERVE_BRAKES, context: SERVE_CONTEXT, cache: check.cache })}`, check.width, SETTINGS_SEPARATOR) +
    labelledLine(printableText(`prices: ${describePriceSource(check.priceSource)}`), check.width) +
    toolLines(check.population ?? []).map((line) => labelledLine(printableText(line), check.width)).join('')
  );
}

/** `tools: perfectionist: web_search, judge_sources`, `tools: healthy (completes): run`: one line per entry, none twice. */
function toolLines(population: NonNullable<ServeCheck['population']>): string[] {
  const lines = population.map((entry) => {
    const who = entry.name === undefined ? entry.behaviour : `${entry.behaviour} (${entry.name})`;
    return `tools: ${who}: ${toolsCalled(entry).join(', ')}`;
  });
  return [...new Set(lines)];
}
