/**
 * A price table with some models overridden (`--prices-override FILE`): a model the LiteLLM file names
 * takes the fields its entry gives (prices, tiers, `max_input_tokens`), merged field by field over the
 * base table's (the bundled data, or a `--prices` file): what the entry leaves out keeps the table's
 * (merge.ts). Every other model is priced by the base table. An entry for a model the table lacks must
 * give per-token input and output prices; one that does not is refused when the file is read, with
 * every other such entry. This is how negotiated or current rates (e.g. from `loopcost prices derive`),
 * or a window the table lacks, join the bundled table.
 */
import { UserError, type InputIssue } from '../errors.js';
import { shownName } from '../shownName.js';
import { utcDay } from './genaiPrices.js';
import type { LiteLlmPriceTable } from './litellm.js';
import { isComplete, lackedPrices, type Entry } from './litellmTable.js';
import { checkPriceOrder, mergedPricing } from './merge.js';
import { suggestNames } from './suggest.js';
import type { ModelPricing, PriceSource, PriceTable } from './types.js';
import { requireResolveArguments } from './tableArguments.js';

export class OverriddenPriceTable implements PriceTable {
  readonly source: PriceSource;
  /** Overridden models by name asked for, provider and day (the base table prices a model per day): merged, or the file's alone. */
  private readonly priced = new Map<string, ModelPricing>();
  /** Every model asked for (the runs' models, a `--model`, a summary model), and the file's entries that matched one: for overrideMisses. */
  private readonly asked = new Set<string>();
  private readonly matched = new Set<string>();

  constructor(
    private readonly base: PriceTable,
    private readonly overrides: LiteLlmPriceTable,
  ) {
    this.source = Object.freeze({ ...base.source, overrides: { name: overrides.source.name, hash: overrides.source.hash } });
  }

  resolve(model: string, provider?: string, recordedAt?: string): ModelPricing {
    requireResolveArguments(model, provider, recordedAt);
    const key = `${provider ?? ''}\u0000${model}\u0000${utcDay(recordedAt) ?? ''}`;
    const known = this.priced.get(key);
    if (known !== undefined) return known;
    this.asked.add(model);
    const entry = this.entryOf(model, provider, recordedAt);
    if (entry === undefined) return this.base.resolve(model, provider, recordedAt);
    this.matched.add(entry.key);
    const pricing = this.entryPricing(entry, { model, provider, recordedAt });
    this.priced.set(key, pricing);
    return pricing;
  }

  /** `entry`'s pricing of the model asked for: merged over the table's, or the file's alone; its problems (an impossible price order, an entry too incomplete to price alone) at the entry's line. */
  private entryPricing(entry: Entry, asked: { model: string; provider: string | undefined; recordedAt: string | undefined }): ModelPricing {
    const { model, provider, recordedAt } = asked;
    try {
      const table = this.tablePricing(entry, model, provider, recordedAt);
      const pricing = table === undefined ? this.overrides.resolve(model, provider) : mergedPricing(model, entry, table, { file: this.overrides.source, overrides: this.source.overrides! });
      if (table === undefined) checkPriceOrder(pricing, entry, this.overrides.file);
      return pricing;
    } catch (error) {
      if (!(error instanceof UserError)) throw error;
      throw new UserError(error.issues.map((issue) => (issue.file === this.overrides.file ? this.overrides.placed(issue, entry.key) : issue)));
    }
  }

  /** The file's entries no model asked for matched so far, and the models asked for (in the order asked). */
  unmatched(): { file: string; entries: string[]; asked: string[]; knownToTable: string[] } {
    const entries = this.overrides.modelNames().filter((key) => !this.matched.has(key));
    return { file: this.overrides.file, entries, asked: [...this.asked], knownToTable: entries.filter((key) => tryResolve(this.base, key) !== undefined) };
  }

  modelNames(): string[] {
    return [...new Set([...this.overrides.modelNames(), ...this.base.modelNames()])];
  }

  /**
   * The file's entry for a model, found as the file's own table finds it; when the name matches several
   * provider-prefixed keys (`openai/gpt-4o`, `azure/gpt-4o`) and no provider is asked for, the one of the
   * provider the base table prices the model as. Refused when that picks none: applying none silently
   * would leave the table's prices under a report that says the file overrides them.
   */
  private entryOf(model: string, provider: string | undefined, recordedAt: string | undefined): Entry | undefined {
    const entry = this.overrides.entryFor(model, provider);
    if (entry !== undefined) return entry;
    const keys = this.overrides.ambiguousKeys(model, provider);
    if (keys.length === 0) return undefined;
    const tableProvider = this.baseProvider(model, provider, recordedAt);
    const picked = tableProvider === undefined ? undefined : this.overrides.entryFor(model, tableProvider);
    if (picked !== undefined) return picked;
    const named = keys.map((key) => `'${shownName(key)}'`).join(', ');
    const { line } = this.overrides.placed({ file: this.overrides.file, field: shownName(keys[0]!), code: 'ambiguous_override', message: '' }, keys[0]!);
    throw new UserError({
      file: this.overrides.file,
      ...(line === undefined ? {} : { line }),
      field: shownName(model),
      code: 'ambiguous_override',
      message: `entries ${named} all name model '${shownName(model)}', and ${tableProvider === undefined ? 'the price table it overrides does not price it to say which provider is meant' : `none is for ${shownName(tableProvider)}, the provider the price table prices it as`}`,
      hint: `keep one entry for the model (the provider's you are billed by) and remove the others, or give the model with its provider prefix (e.g. ${shownName(keys[0]!)})`,
    });
  }

  /** The provider the base table prices a model as; undefined when it does not price it (or names none). */
  private baseProvider(model: string, provider: string | undefined, recordedAt: string | undefined): string | undefined {
    return tryResolve(this.base, model, provider, recordedAt)?.provider;
  }

  /**
   * The base table's pricing of an overridden model: under the name asked for, else the entry's key.
   * Undefined when the table prices neither and the entry is complete (the file prices it alone).
   */
  private tablePricing(entry: Entry, model: string, provider: string | undefined, recordedAt: string | undefined): ModelPricing | undefined {
    const table = tryResolve(this.base, model, provider, recordedAt) ?? tryResolve(this.base, entry.key, entry.provider, recordedAt);
    if (table !== undefined || isComplete(entry)) return table;
    throw new UserError(incompleteEntryIssue(entry, this.base, this.overrides.file));
  }
}

/**
 * The check `--prices-override` reads its file with (litellm.ts `overriding`): an entry that does not
 * give both per-token prices must name a model the base table prices, which gives the rest.
 */
export function completedBy(base: PriceTable, file: string): (entry: Entry) => InputIssue | undefined {
  return (entry) => {
    if (isComplete(entry)) return undefined;
    const priced = tryResolve(base, entry.key) ?? (entry.provider === undefined ? undefined : tryResolve(base, entry.key, entry.provider));
    return priced === undefined ? incompleteEntryIssue(entry, base, file) : undefined;
  };
}

/** The table's pricing of a model; undefined when it refuses the name (a UserError: unknown, ambiguous, unpriced). */
function tryResolve(table: PriceTable, model: string, provider?: string, recordedAt?: string): ModelPricing | undefined {
  try {
    return table.resolve(model, provider, recordedAt);
  } catch (error) {
    if (!(error instanceof UserError)) throw error;
    return undefined;
  }
}

function incompleteEntryIssue(entry: Entry, base: PriceTable, file: string): InputIssue {
  const model = shownName(entry.key);
  const near = suggestNames(entry.key, base.modelNames());
  const windowOnly = Object.keys(entry.keyed).length === 0;
  return {
    file,
    field: model,
    code: 'incomplete_override',
    message: `entry for model '${model}' gives no ${lackedPrices(entry)}, and the price table it overrides (${shownName(base.source.name)}) does not price a model '${model}' to take the rest from`,
    hint: [
      'an entry for a model the table lacks must give input_cost_per_token and output_cost_per_token (USD per token): add them',
      ...(near.length > 0 ? [`or name the model as the table does (did you mean ${near.join(', ')}?)`] : []),
      ...(windowOnly ? ['or give the window alone with --context-window N'] : []),
    ].join(', '),
  };
}
