/**
 * A LiteLLM price table once read (litellm.ts reads and checks the file): entries by model name,
 * resolved by exact name, case-folded name, or a unique provider-prefixed name, each model resolved once.
 */
import { UserError } from '../errors.js';
import { buildTieredPrices, type KeyedPrice, type TokenPriceKey } from './cost.js';
import { unknownModelError } from './suggest.js';
import type { ModelPricing, PriceSource, PriceTable } from './types.js';

export interface Entry {
  key: string;
  provider?: string;
  keyed: Partial<Record<TokenPriceKey, KeyedPrice>>;
  contextWindow?: number;
}

export interface Unpriced {
  key: string;
  mode: string;
}

export class LiteLlmPriceTable implements PriceTable {
  readonly source: PriceSource;
  readonly file: string;
  /** Chat/completion entries without per-token prices (priced per character/second): resolving them fails. */
  readonly unpriced: readonly string[];
  private readonly entries = new Map<string, Entry>();
  private readonly unpricedEntries = new Map<string, Unpriced>();
  /** Lower-cased key → key, first occurrence wins. */
  private readonly folded = new Map<string, string>();
  /** Lower-cased last `/` segment of prefixed keys → those keys, file order (`gemini/x` under `x`). */
  private readonly bySuffix = new Map<string, string[]>();
  private readonly cache = new Map<string, ModelPricing>();

  constructor(file: string, source: PriceSource, entries: Entry[], unpriced: Unpriced[]) {
    this.file = file;
    this.source = source;
    for (const entry of entries) this.entries.set(entry.key, entry);
    for (const u of unpriced) this.unpricedEntries.set(u.key, u);
    for (const key of [...this.entries.keys(), ...this.unpricedEntries.keys()]) {
      const lower = key.toLowerCase();
      if (!this.folded.has(lower)) this.folded.set(lower, key);
    }
    for (const key of this.entries.keys()) {
      const slash = key.lastIndexOf('/');
      if (slash < 0) continue;
      const suffix = key.slice(slash + 1).toLowerCase();
      this.bySuffix.set(suffix, [...(this.bySuffix.get(suffix) ?? []), key]);
    }
    this.unpriced = unpriced.map((u) => u.key);
  }

  /**
   * Looks a model up by its exact key, then `provider/model` when a provider is given, then with leading
   * `prefix/` segments (or a `provider:` prefix) stripped one at a time; each case-sensitive first, then
   * case-insensitive. Last, a bare name matches a prefixed key (`x` → `gemini/x`) when exactly one key
   * ends in it, or exactly one of those belongs to the given provider. Cached per (model, provider).
   */
  resolve(model: string, provider?: string): ModelPricing {
    const found = this.tryResolve(model, provider);
    if (found === undefined) throw unknownModelError(model, this.modelNames(), { file: this.file });
    return found;
  }

  /** As `resolve`, but undefined when no key matches (an entry without per-token prices still throws). */
  tryResolve(model: string, provider?: string): ModelPricing | undefined {
    const cacheKey = `${provider ?? ''}\u0000${model}`;
    const hit = this.cache.get(cacheKey);
    if (hit) return hit;
    const key = this.findKey(model.trim(), provider?.trim() || undefined);
    if (key === undefined) return undefined;
    const entry = this.entries.get(key);
    if (!entry) {
      const unpriced = this.unpricedEntries.get(key);
      throw new UserError({
        file: this.file,
        field: key,
        code: 'unpriced_model',
        message: `model '${key}' (mode ${unpriced?.mode ?? 'unknown'}) has no per-token prices`,
        hint: 'add input_cost_per_token and output_cost_per_token (USD per token) to its entry, or pick another model',
      });
    }
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

  /** Token-priced model names, in file order. */
  modelNames(): string[] {
    return [...this.entries.keys()];
  }

  private findKey(name: string, provider: string | undefined): string | undefined {
    if (name.length === 0) return undefined;
    const candidates = [name];
    if (provider) candidates.push(`${provider}/${name}`);
    const colon = name.indexOf(':');
    const slash = name.indexOf('/');
    if (colon > 0 && (slash < 0 || colon < slash)) candidates.push(name.slice(colon + 1));
    for (let rest = name, at = rest.indexOf('/'); at >= 0; at = rest.indexOf('/')) {
      rest = rest.slice(at + 1);
      if (rest) candidates.push(rest);
    }
    for (const candidate of candidates) {
      if (this.entries.has(candidate) || this.unpricedEntries.has(candidate)) return candidate;
      const folded = this.folded.get(candidate.toLowerCase());
      if (folded !== undefined) return folded;
    }
    const bare = candidates[candidates.length - 1]!.toLowerCase();
    const prefixed = this.bySuffix.get(bare) ?? [];
    if (prefixed.length === 1) return prefixed[0];
    if (provider) {
      const wanted = provider.toLowerCase();
      const mine = prefixed.filter(
        (key) => key.toLowerCase().startsWith(`${wanted}/`) || this.entries.get(key)?.provider?.toLowerCase() === wanted,
      );
      if (mine.length === 1) return mine[0];
    }
    return undefined;
  }
}
