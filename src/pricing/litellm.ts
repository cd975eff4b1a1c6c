/**
 * A user price table in LiteLLM's `model_prices_and_context_window.json` format: one object keyed by
 * model name, prices in USD per token. Loaded only from a path the user gives (`--prices FILE`).
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { MAX_REPORTED_ISSUES, UserError, type InputIssue } from '../errors.js';
import { usdPerTokenToPico } from '../money.js';
import { buildTieredPrices, type KeyedPrice, type TokenPriceKey } from './cost.js';
import { foreignKeys, judgeKey, PRICE_KEYS, TIER_KEY } from './litellmKeys.js';
import { unknownModelError } from './suggest.js';
import type { ModelPricing, PriceSource, PriceTable } from './types.js';

/** LiteLLM per-token price fields → TokenPrices fields. */
const BASE_FIELDS: Record<string, TokenPriceKey> = {
  input_cost_per_token: 'input',
  cache_read_input_token_cost: 'cachedInput',
  cache_creation_input_token_cost: 'cacheWrite',
  cache_creation_input_token_cost_above_1hr: 'cacheWrite1h',
  output_cost_per_token: 'output',
  output_cost_per_reasoning_token: 'reasoning',
};

/** `<base field>_above_<N>k_tokens` (or `m`): the base price for calls whose prompt exceeds N·1000 tokens. */
const TIER_FIELD = TIER_KEY;

/** Modes whose entries are token-priced chat/completion models; other modes without token prices are skipped. */
const CHAT_MODES = new Set(['chat', 'completion', 'responses']);

const FORMAT_HINT =
  "a price file (--prices, --prices-override) must be LiteLLM's model_prices_and_context_window.json format: one JSON object keyed by model name, prices in USD per token";

interface Entry {
  key: string;
  provider?: string;
  keyed: Partial<Record<TokenPriceKey, KeyedPrice>>;
  contextWindow?: number;
}

interface Unpriced {
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

/** Reads and validates a LiteLLM price file. Every problem with the file is a UserError naming it. */
export function loadLiteLlmTable(file: string, flag = '--prices'): LiteLlmPriceTable {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new UserError({
      file,
      code: code === 'ENOENT' ? 'file_not_found' : 'unreadable_file',
      message: `cannot read price file: ${(error as Error).message}`,
      hint: `check the path given to ${flag}`,
    });
  }
  return parseLiteLlmTable(bytes, file);
}

/** Parses LiteLLM price JSON (`file` names it in errors and becomes the source name). */
export function parseLiteLlmTable(bytes: Buffer | string, file: string): LiteLlmPriceTable {
  const buffer = typeof bytes === 'string' ? Buffer.from(bytes, 'utf8') : bytes;
  const source: PriceSource = Object.freeze({
    name: file,
    version: 'file',
    hash: createHash('sha256').update(buffer).digest('hex').slice(0, 16),
  });
  const text = buffer.toString('utf8').replace(/^\uFEFF/, '');
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    const message = (error as Error).message;
    const position = /at position (\d+)/.exec(message);
    const line = position ? text.slice(0, Number(position[1])).split('\n').length : undefined;
    throw new UserError({
      file,
      ...(line !== undefined ? { line } : {}),
      code: 'invalid_json',
      message: `price file is not valid JSON: ${message}`,
      hint: FORMAT_HINT,
    });
  }
  if (!isPlainObject(data)) {
    throw new UserError({
      file,
      code: 'invalid_type',
      message: `price file must be a JSON object keyed by model name, got ${describeType(data)}`,
      hint: FORMAT_HINT,
    });
  }

  const issues: InputIssue[] = [];
  const entries: Entry[] = [];
  const unpriced: Unpriced[] = [];
  const report = (issue: InputIssue): void => {
    if (issues.length < MAX_REPORTED_ISSUES) issues.push(issue);
  };

  for (const [key, value] of Object.entries(data)) {
    if (key === 'sample_spec') continue;
    if (!isPlainObject(value)) {
      report({
        file,
        field: key,
        code: 'invalid_type',
        message: `entry for model '${key}' must be an object of prices, got ${describeType(value)}`,
        hint: FORMAT_HINT,
      });
      continue;
    }
    const keyed: Partial<Record<TokenPriceKey, KeyedPrice>> = {};
    let valid = true;
    const foreign = foreignKeys(Object.keys(value));
    if (foreign.length > 0) {
      report({
        file,
        field: key,
        code: 'no_known_fields',
        message: `entry for model '${key}' has no field loopcost reads (${foreign.slice(0, 5).join(', ')} ${foreign.length === 1 ? 'is' : 'are'} not LiteLLM price fields)`,
        hint: `give its prices in USD per token: ${PRICE_KEYS.join(', ')}`,
      });
      continue;
    }
    for (const [field, raw] of Object.entries(value)) {
      const verdict = judgeKey(field);
      if (verdict.kind === 'misspelled' || verdict.kind === 'unknown_price') {
        report({
          file,
          field: `${key}.${field}`,
          code: 'unknown_price_key',
          message: verdict.kind === 'misspelled' ? `unknown key '${field}'` : `unknown price key '${field}' (loopcost reads prices in USD per token)`,
          hint: `did you mean ${verdict.nearest}?`,
        });
        valid = false;
        continue;
      }
      const baseKey = BASE_FIELDS[field];
      const tier = baseKey === undefined ? TIER_FIELD.exec(field) : null;
      if (baseKey === undefined && !tier) continue;
      if (raw === null || raw === undefined) continue;
      const price = checkPrice(raw, file, `${key}.${field}`);
      if (typeof price !== 'number') {
        report(price);
        valid = false;
        continue;
      }
      const pico = usdPerTokenToPico(price);
      if (baseKey !== undefined) {
        const slot = (keyed[baseKey] ??= { tiers: [] });
        slot.base = pico;
      } else if (tier) {
        const target = BASE_FIELDS[tier[1]!]!;
        const threshold = Math.round(Number(tier[2]) * (tier[3] === 'm' ? 1_000_000 : tier[3] === 'k' ? 1_000 : 1));
        const slot = (keyed[target] ??= { tiers: [] });
        slot.tiers.push({ aboveInputTokens: threshold, price: pico });
      }
    }
    if (!valid) continue;
    const mode = typeof value.mode === 'string' ? value.mode : undefined;
    if (keyed.input?.base === undefined || keyed.output?.base === undefined) {
      // Image/audio/embedding/rerank entries (or entries without a mode) are not chat models: skip them.
      if (mode !== undefined && CHAT_MODES.has(mode)) unpriced.push({ key, mode });
      continue;
    }
    const entry: Entry = { key, keyed };
    if (typeof value.litellm_provider === 'string') entry.provider = value.litellm_provider;
    const maxInput = value.max_input_tokens;
    if (typeof maxInput === 'number' && Number.isSafeInteger(maxInput) && maxInput > 0) entry.contextWindow = maxInput;
    entries.push(entry);
  }
  if (issues.length > 0) throw new UserError(issues);
  return new LiteLlmPriceTable(file, source, entries, unpriced);
}

function checkPrice(raw: unknown, file: string, field: string): number | InputIssue {
  if (typeof raw !== 'number' || !Number.isFinite(raw)) {
    return {
      file,
      field,
      code: 'invalid_number',
      message: `price must be a finite number of USD per token, got ${JSON.stringify(raw)}`,
      hint: 'write prices as JSON numbers, e.g. 2.5e-6 for $2.50 per million tokens',
    };
  }
  if (raw < 0) {
    return {
      file,
      field,
      code: 'negative_number',
      message: `price must not be negative, got ${raw}`,
      hint: 'fix the price in the file (USD per token, e.g. 2.5e-6 for $2.50 per million tokens)',
    };
  }
  return raw;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `a ${typeof value}`;
}
