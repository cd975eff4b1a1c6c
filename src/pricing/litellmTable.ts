/**
 * A LiteLLM price table once read (litellm.ts reads and checks the file): entries by model name,
 * resolved by exact name, case-folded name, or a unique provider-prefixed name, each model resolved once.
 * An entry without per-token input and output prices is no priced model: asking for it says what its
 * entry lacks. (Read as `--prices-override`, an entry may give some fields only: overrides.ts merges it.)
 */
import { UserError, type InputIssue } from '../errors.js';
import { buildTieredPrices, type KeyedPrice, type TokenPriceKey } from './cost.js';
import { shownName } from '../shownName.js';
import type { PriceOptionNames } from './optionNames.js';
import { unknownModelError } from './suggest.js';
import type { ModelPricing, PriceSource, PriceTable } from './types.js';
import { requireResolveArguments } from './tableArguments.js';

export interface Entry {
  key: string;
  provider?: string;
  keyed: Partial<Record<TokenPriceKey, KeyedPrice>>;
  contextWindow?: number;
  /** The fields loopcost reads that the entry gives (prices, max_input_tokens), in file order: for messages. */
  given: string[];
}

/** An entry that prices no token: `lacks` says what it does not give, as a message words it. */
export interface Unpriced {
  key: string;
  mode?: string;
  lacks: string;
  /** What to do about it (default: add the per-token prices). */
  hint?: string;
}

/** Whether an entry gives both per-token prices a call needs (a partial one overrides a table's fields). */
export function isComplete(entry: Entry): boolean {
  return entry.keyed.input?.base !== undefined && entry.keyed.output?.base !== undefined;
}

const UNPRICED_HINT = 'add input_cost_per_token and output_cost_per_token (USD per token) to its entry, or pick another model';

export class LiteLlmPriceTable implements PriceTable {
  readonly source: PriceSource;
  readonly file: string;
  /** Chat/completion entries without per-token prices (priced per character/second): resolving them fails. */
  readonly unpriced: readonly string[];
  private readonly entries = new Map<string, Entry>();
  private readonly unpricedEntries = new Map<string, Unpriced>();
  /** Entries, then chat entries without prices; a bare name finds a prefixed key of an entry only. */
  private readonly names = new NameIndex();
  /**
   * Other entries without per-token prices (images, audio, a window alone): found only when no other key
   * matches a name (as before they were read), so that asking for one says what its entry lacks.
   */
  private readonly lastResort = new Map<string, Unpriced>();
  private readonly lastNames = new NameIndex();
  private readonly cache = new Map<string, ModelPricing>();

  private readonly optionNames: PriceOptionNames | undefined;
  private readonly placeIssue: ((issue: InputIssue, key: string) => InputIssue) | undefined;

  /**
   * `unpriced`: chat/completion entries without per-token prices; `others`: every other such entry; `optionNames`: whose words an unknown model's hint is in (default: the CLI's);
   * `placeIssue`: an entry's problem with its line in the file (litellmLines.ts withEntryLine), when the table was read from text.
   */
  constructor(file: string, source: PriceSource, entries: Entry[], more: { unpriced: Unpriced[]; others?: Unpriced[]; optionNames?: PriceOptionNames; placeIssue?: (issue: InputIssue, key: string) => InputIssue }) {
    const { unpriced, others = [] } = more;
    this.file = file;
    this.source = source;
    this.optionNames = more.optionNames;
    this.placeIssue = more.placeIssue;
    for (const entry of entries) {
      this.entries.set(entry.key, entry);
      this.names.add(entry.key, true);
    }
    for (const u of unpriced) {
      this.unpricedEntries.set(u.key, u);
      this.names.add(u.key, false);
    }
    for (const u of others) {
      this.lastResort.set(u.key, u);
      this.lastNames.add(u.key, true);
    }
    this.unpriced = unpriced.map((u) => u.key);
  }

  /**
   * Looks a model up by its exact key, then `provider/model` when a provider is given, then with leading
   * `prefix/` segments (or a `provider:` prefix) stripped one at a time; each case-sensitive first, then
   * case-insensitive. Last, a bare name matches a prefixed key (`x` → `gemini/x`) when exactly one key
   * ends in it, or exactly one of those belongs to the given provider. Cached per (model, provider).
   */
  /** `issue`, found when the entry `key` was priced (an impossible price order, an entry too incomplete to price alone, one of several), with the entry's line in the file. */
  placed(issue: InputIssue, key: string): InputIssue {
    return this.placeIssue?.(issue, key) ?? issue;
  }

  resolve(model: string, provider?: string, recordedAt?: string): ModelPricing {
    requireResolveArguments(model, provider, recordedAt); // A price file's prices are undated: recordedAt is only checked.
    const found = this.tryResolve(model, provider);
    if (found === undefined) throw unknownModelError(model, this.modelNames(), { file: this.file, ...(this.optionNames === undefined ? {} : { optionNames: this.optionNames }) });
    return found;
  }

  /** As `resolve`, but undefined when no key matches (an entry without per-token prices still throws). */
  tryResolve(model: string, provider?: string): ModelPricing | undefined {
    const cacheKey = `${provider ?? ''}\u0000${model}`;
    const hit = this.cache.get(cacheKey);
    if (hit) return hit;
    const entry = this.entryFor(model, provider);
    if (entry === undefined) return undefined;
    if (!isComplete(entry)) throw this.unpricedError({ key: entry.key, lacks: lackedPrices(entry) });
    const { base, tiers } = buildTieredPrices(entry.keyed);
    const pricing: ModelPricing = {
      requested: model,
      model: entry.key,
      base: Object.freeze(base),
      tiers: tiers.map((t) => Object.freeze({ aboveInputTokens: t.aboveInputTokens, prices: Object.freeze(t.prices) })),
      source: this.source,
    };
    if (entry.provider !== undefined) pricing.provider = entry.provider;
    if (entry.contextWindow !== undefined) pricing.contextWindow = entry.contextWindow;
    Object.freeze(pricing);
    this.cache.set(cacheKey, pricing);
    return pricing;
  }

  /**
   * The entry a name finds, looked up as `resolve` does; undefined when no key matches. Throws, naming
   * what the entry lacks, when the key found is an entry without per-token prices.
   */
  entryFor(model: string, provider?: string): Entry | undefined {
    const key = this.findKey(model.trim(), provider?.trim() || undefined);
    if (key === undefined) return undefined;
    const entry = this.entries.get(key);
    if (entry) return entry;
    throw this.unpricedError(this.unpricedEntries.get(key) ?? this.lastResort.get(key)!);
  }

  private unpricedError(unpriced: Unpriced): UserError {
    const model = shownName(unpriced.key);
    return new UserError({
      file: this.file,
      field: model,
      code: 'unpriced_model',
      message: `model '${model}' is not priced: its entry${unpriced.mode === undefined ? '' : ` (mode ${shownName(unpriced.mode)})`} gives no ${unpriced.lacks}`,
      hint: unpriced.hint ?? UNPRICED_HINT,
    });
  }

  /** Model names of entries that give prices (in a `--prices-override` file, some fields), in file order. */
  modelNames(): string[] {
    return [...this.entries.keys()];
  }

  /**
   * The provider-prefixed keys a name matches by its bare name when more than one does and `provider`
   * picks none of them (entryFor then finds none): what a caller disambiguates, or names in a refusal.
   */
  ambiguousKeys(model: string, provider?: string): string[] {
    const name = model.trim();
    const hint = provider?.trim() || undefined;
    if (name.length === 0 || this.findKey(name, hint) !== undefined) return [];
    const candidates = this.candidates(name, hint);
    const prefixed = this.names.prefixed(candidates[candidates.length - 1]!);
    return prefixed.length > 1 ? [...prefixed] : [];
  }

  /** The names a lookup tries, in order: the name, provider/name, after a `provider:` prefix, after each `/`. */
  private candidates(name: string, provider: string | undefined): string[] {
    const candidates = [name];
    if (provider) candidates.push(`${provider}/${name}`);
    const colon = name.indexOf(':');
    const slash = name.indexOf('/');
    if (colon > 0 && (slash < 0 || colon < slash)) candidates.push(name.slice(colon + 1));
    for (let rest = name, at = rest.indexOf('/'); at >= 0; at = rest.indexOf('/')) {
      rest = rest.slice(at + 1);
      if (rest) candidates.push(rest);
    }
    return candidates;
  }

  private findKey(name: string, provider: string | undefined): string | undefined {
    if (name.length === 0) return undefined;
    const candidates = this.candidates(name, provider);
    const key = this.names.find(candidates);
    if (key !== undefined) return key;
    const bare = candidates[candidates.length - 1]!;
    const prefixed = this.names.prefixed(bare);
    if (prefixed.length === 1) return prefixed[0];
    if (provider) {
      const wanted = provider.toLowerCase();
      const mine = prefixed.filter(
        (key) => key.toLowerCase().startsWith(`${wanted}/`) || this.entries.get(key)?.provider?.toLowerCase() === wanted,
      );
      if (mine.length === 1) return mine[0];
    }
    const last = this.lastNames.find(candidates);
    if (last !== undefined) return last;
    const lastPrefixed = this.lastNames.prefixed(bare);
    return lastPrefixed.length === 1 ? lastPrefixed[0] : undefined;
  }
}

/** Keys found by name: exactly, else case-folded (the first key added wins), or by the bare name of a prefixed key (`x` → `gemini/x`). */
class NameIndex {
  private readonly keys = new Set<string>();
  private readonly folded = new Map<string, string>();
  /** Lower-cased last `/` segment of prefixed keys → those keys, in the order added. */
  private readonly bySuffix = new Map<string, string[]>();

  /** `bySuffix`: a bare name finds the key when it is prefixed. */
  add(key: string, bySuffix: boolean): void {
    this.keys.add(key);
    const lower = key.toLowerCase();
    if (!this.folded.has(lower)) this.folded.set(lower, key);
    const slash = key.lastIndexOf('/');
    if (!bySuffix || slash < 0) return;
    const suffix = key.slice(slash + 1).toLowerCase();
    this.bySuffix.set(suffix, [...(this.bySuffix.get(suffix) ?? []), key]);
  }

  /** The key the first candidate that matches one names: exactly, else case-folded. */
  find(candidates: readonly string[]): string | undefined {
    for (const candidate of candidates) {
      if (this.keys.has(candidate)) return candidate;
      const folded = this.folded.get(candidate.toLowerCase());
      if (folded !== undefined) return folded;
    }
    return undefined;
  }

  /** The prefixed keys whose last segment is `bare` (case-folded). */
  prefixed(bare: string): readonly string[] {
    return this.bySuffix.get(bare.toLowerCase()) ?? [];
  }
}

/** The per-token prices an entry lacks, as a message says them: `prices (only max_input_tokens)`, `output_cost_per_token (only …)`. */
export function lackedPrices(entry: Pick<Entry, 'keyed' | 'given'>): string {
  const only = entry.given.length === 0 ? '' : ` (only ${entry.given.map(shownName).join(', ')})`;
  if (Object.keys(entry.keyed).length === 0) return `prices${only}`;
  const missing = (['input', 'output'] as const).filter((key) => entry.keyed[key]?.base === undefined);
  return `${missing.map((key) => `${key}_cost_per_token`).join(' or ')}${only}`;
}
