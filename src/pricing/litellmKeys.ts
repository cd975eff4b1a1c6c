/**
 * Which keys of a LiteLLM price entry loopcost reads, which it knowingly ignores, and which look like a
 * price key misspelled. A file is refused when an entry holds a key that is a near miss of one loopcost
 * reads (`input_cost_per_tokens`), a price-like key LiteLLM does not define (`input_price_per_token`), or
 * no key loopcost understands at all — so a price is never dropped silently.
 */
import type { TokenPriceKey } from './cost.js';
import { editDistance, MAX_SUGGESTED_LENGTH } from './suggest.js';

/** Each TokenPrices field's LiteLLM per-token price field: the one map (reading, deriving and checking a file). */
export const LITELLM_PRICE_FIELD = {
  input: 'input_cost_per_token',
  cachedInput: 'cache_read_input_token_cost',
  cacheWrite: 'cache_creation_input_token_cost',
  cacheWrite1h: 'cache_creation_input_token_cost_above_1hr',
  output: 'output_cost_per_token',
  reasoning: 'output_cost_per_reasoning_token',
} as const satisfies Record<TokenPriceKey, string>;

/** LiteLLM per-token price fields loopcost reads (besides their `_above_<N>k_tokens` tiers), in TokenPrices order. */
export const PRICE_KEYS: readonly (typeof LITELLM_PRICE_FIELD)[TokenPriceKey][] = Object.values(LITELLM_PRICE_FIELD);

/** Other fields loopcost reads. */
const READ_KEYS = ['max_input_tokens', 'litellm_provider', 'mode'] as const;

export const TIER_KEY = new RegExp(`^(${PRICE_KEYS.join('|')})_above_(\\d+(?:\\.\\d+)?)(k|m)?_tokens$`);

/**
 * Prices LiteLLM defines that a token trace has no use for (per character, second, image, pixel,
 * request, query, session, storage; batch, priority and flex tiers; audio, video and vector units).
 */
const IGNORED_PRICE = /(_per_(character|second|image|pixel|request|query|session|gb|1k|video|audio|minute|hour|page|call|web_search)|_batch(es|_requests)?|_priority|_flex|audio|video|image|vector|search_context|computer_use|code_interpreter|file_search|_above_\d+(\.\d+)?(k|m)?_tokens)/;

/** Non-price fields LiteLLM defines (capabilities, limits, metadata). */
const IGNORED_OTHER = /^(supports_|max_|supported_|tool_use_|output_vector_size|source|deprecation_date|rpm|tpm|rules|metadata|comment|notes?$)/;

function squash(key: string): string {
  return key.toLowerCase().replace(/[^a-z0-9]/g, '');
}

/**
 * The key loopcost reads that `key` most likely meant, when it is a near miss; undefined otherwise, and
 * for a key longer than MAX_SUGGESTED_LENGTH. Each comparison stops once past the nearest so far.
 */
export function nearestReadKey(key: string): string | undefined {
  if (key.length > MAX_SUGGESTED_LENGTH) return undefined;
  const known = [...PRICE_KEYS, ...READ_KEYS];
  const sq = squash(key);
  const same = known.find((k) => squash(k) === sq);
  if (same) return same;
  const lower = key.toLowerCase();
  const most = Math.max(2, Math.floor(key.length / 8));
  let best: { key: string; distance: number } | undefined;
  for (const k of known) {
    const distance = editDistance(lower, k, best === undefined ? most : best.distance - 1);
    if (distance <= most && (best === undefined || distance < best.distance)) best = { key: k, distance };
  }
  return best?.key;
}

/** The price key nearest to `key` (the shorter on a tie); undefined for a key longer than MAX_SUGGESTED_LENGTH. */
function nearestPriceKey(key: string): string | undefined {
  if (key.length > MAX_SUGGESTED_LENGTH) return undefined;
  let best: { key: string; distance: number } | undefined;
  for (const k of PRICE_KEYS) {
    const distance = editDistance(key, k, best?.distance ?? Infinity);
    if (best === undefined || distance < best.distance || (distance === best.distance && k.length < best.key.length)) best = { key: k, distance };
  }
  return best?.key;
}

/**
 * `read`: loopcost uses it; `ignored`: a LiteLLM field loopcost has no use for; `unknown`: neither (not a
 * price); `misspelled` / `unknown_price`: a price key loopcost would have to guess at (`nearest`: the
 * known key to suggest; none for a key too long to suggest for).
 */
export type KeyVerdict =
  | { kind: 'read' }
  | { kind: 'ignored' }
  | { kind: 'unknown' }
  | { kind: 'misspelled'; nearest: string }
  | { kind: 'unknown_price'; nearest?: string };

/** What loopcost does with one key of a price entry. */
export function judgeKey(key: string): KeyVerdict {
  if ((PRICE_KEYS as readonly string[]).includes(key) || (READ_KEYS as readonly string[]).includes(key) || TIER_KEY.test(key)) return { kind: 'read' };
  const near = nearestReadKey(key);
  if (near !== undefined) return { kind: 'misspelled', nearest: near };
  if (IGNORED_OTHER.test(key)) return { kind: 'ignored' };
  if (/cost|price/i.test(key)) {
    if (IGNORED_PRICE.test(key) && /cost/.test(key)) return { kind: 'ignored' };
    const nearest = nearestPriceKey(key);
    return nearest === undefined ? { kind: 'unknown_price' } : { kind: 'unknown_price', nearest };
  }
  return LITELLM_OTHER_KEYS.has(key) ? { kind: 'ignored' } : { kind: 'unknown' };
}

/** Non-price LiteLLM fields that no pattern above covers. */
const LITELLM_OTHER_KEYS = new Set(['rules', 'litellm_params', 'model_info', 'tiered_pricing', 'provider_specific_entry', 'display_name', 'model_vendor', 'model_version']);

/**
 * Keys of an entry that loopcost neither reads nor knows as LiteLLM's, when it reads none of them: such
 * an entry is not in LiteLLM's format (`{"input": 2.5}`). Empty for a usable entry, or one that holds only
 * fields LiteLLM defines and loopcost has no use for (image models, routing rules).
 */
export function foreignKeys(keys: readonly string[]): string[] {
  const verdicts = keys.map((key) => [key, judgeKey(key).kind] as const);
  if (verdicts.some(([, kind]) => kind === 'read')) return [];
  return verdicts.filter(([, kind]) => kind === 'unknown').map(([key]) => key);
}
