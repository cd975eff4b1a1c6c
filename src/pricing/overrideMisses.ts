/**
 * A `--prices-override` entry that matched no model the table was asked for: its prices were never used,
 * while the report says the file overrides the table "for the models it names" — most often a misspelt
 * name (`gpt4o`; an entry whose name the table prices too is spelt right, and is said unused). Said once per such entry, after the work (a table learns its models as runs ask for
 * them). Pure: the CLI says the lines (cli/overrideMisses.ts).
 */
import { shownName } from '../shownName.js';
import type { OverriddenPriceTable } from './overrides.js';
import type { PriceTable } from './types.js';

/** Models a line names before `…`. */
const MODELS_SHOWN = 5;

/**
 * One line per entry of the table's override file that no model asked for matched (`asker`: whose models
 * they were, `run's model`); none when the table overrides nothing or was asked for no model (nothing to tell).
 */
export function overrideMisses(table: PriceTable, asker = "run's model"): string[] {
  // Told by what it can say, not by its class: the CLI's start-up loads no price table's code (main.ts says these).
  if (!('unmatched' in table)) return [];
  const { file, entries, asked, knownToTable } = (table as OverriddenPriceTable).unmatched();
  if (asked.length === 0) return [];
  const models = [...asked.slice(0, MODELS_SHOWN).map(shownName), ...(asked.length > MODELS_SHOWN ? ['…'] : [])].join(', ');
  // A name the table prices too is spelt as a model is: only no run here is of it.
  const what = (entry: string) => (knownToTable.includes(entry) ? 'its prices go unused here' : 'check its spelling');
  return entries.map((entry) => `${file}: entry ${JSON.stringify(shownName(entry))} matches no ${asker} (models here: ${models}): ${what(entry)}`);
}
