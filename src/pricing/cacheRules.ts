/**
 * Minimum cacheable prefix per provider and model family: with `--cache on`, providers cache a prompt
 * only from a minimum size and serve hits in increments. The kernel meter applies the rule (cache `on`, and
 * a summary call billed at its estimate, a recorded read under a strategy that changed the prompt; the prompt as
 * sent stays as recorded) by the rule its one price
 * flattening takes (kernel/prices.ts flattenPrices: the rule a pricing states, else its provider's: cacheRuleOf,
 * below), so every engine and every caller of one ModelPricing meters by one rule, and a report reads its words
 * (cache notes) through cacheRuleOf too; withCacheRule fills it in only on the pricing the library's resolvers
 * return (resolveTracePricing, resolveScenarioPricing, resolveSummaryModel), for a caller that reads the rule
 * there (no figure depends on it). Sources, as read in 2026 (newer models may differ):
 *
 * - OpenAI: caching "works automatically for prompts containing 1024 tokens or more, with cache hits
 *   occurring in increments of 128 tokens" (openai-cookbook examples/Prompt_Caching_201.ipynb, for
 *   models before GPT-5.6; developers.openai.com/api/docs/guides/prompt-caching).
 * - Anthropic: minimum cacheable prompt length 4,096 tokens for Claude Opus 4.6, Opus 4.5 and Haiku 4.5;
 *   2,048 for Haiku 3.5 and Haiku 3; 1,024 for Sonnet 4.6, Sonnet 4.5, Opus 4.1, Opus 4, Sonnet 4,
 *   Sonnet 3.7 (the prompt-caching documentation as quoted in anthropics/anthropic-sdk-python#1194;
 *   that issue reports Sonnet 4.6 caching only from 2,048 in practice; we apply the documented 1,024).
 *   Older Claude 3 / 3.5 Sonnet and Opus: 1,024. Hits are whole prefixes (no increment).
 * - Google Gemini implicit caching (ai.google.dev/gemini-api/docs/caching, updated 2026-10): minimum
 *   2,048 tokens for Gemini 2.5 Flash and 2.5 Pro, 4,096 for Gemini 3 and newer. Earlier versions of the
 *   page said 1,024 (2.5 Flash) and 4,096 (2.5 Pro). Gemini before 2.5 has no implicit caching; we apply
 *   4,096 (the explicit-cache minimum) there.
 * - DeepSeek (api-docs.deepseek.com/guides/kv_cache, earlier version): the cache stores 64-token units;
 *   shorter content is not cached. The current page describes "cache prefix units" instead; we apply
 *   64-token units.
 * - Every other provider: no rule (every unchanged token can be served).
 */
import type { CacheRule, ModelPricing } from './types.js';
import { bareModelName } from './bareModelName.js';

interface RuleEntry extends CacheRule {
  /** Matched against the model name (lower case, without a `provider/` prefix). */
  model: RegExp;
}

const OPENAI: CacheRule = { minPrefixTokens: 1024, incrementTokens: 128, source: 'OpenAI: from 1,024 tokens, hits in 128-token increments' };
const ANTHROPIC: CacheRule = { minPrefixTokens: 1024, incrementTokens: 1, source: 'Anthropic: from 1,024 tokens (Sonnet, Opus 4/4.1, Claude 3)' };
const GEMINI_OLD: CacheRule = { minPrefixTokens: 4096, incrementTokens: 1, source: 'Gemini before 2.5: no implicit caching; the explicit-cache minimum, 4,096 tokens' };
const DEEPSEEK: CacheRule = { minPrefixTokens: 64, incrementTokens: 64, source: 'DeepSeek: 64-token cache units' };

/** First match wins. */
const RULES: RuleEntry[] = [
  { model: /claude.*(opus-4[.-]?[56]|haiku-4[.-]?5)/, minPrefixTokens: 4096, incrementTokens: 1, source: 'Anthropic: from 4,096 tokens (Opus 4.5/4.6, Haiku 4.5)' },
  { model: /claude-3[.-]5-haiku|claude-3-haiku|claude-haiku-3/, minPrefixTokens: 2048, incrementTokens: 1, source: 'Anthropic: from 2,048 tokens (Haiku 3/3.5)' },
  { model: /claude/, ...ANTHROPIC },
  { model: /gemini-2\.5/, minPrefixTokens: 2048, incrementTokens: 1, source: 'Gemini 2.5 implicit caching: from 2,048 tokens' },
  { model: /gemini-([3-9]|\d\d)/, minPrefixTokens: 4096, incrementTokens: 1, source: 'Gemini 3 and newer implicit caching: from 4,096 tokens' },
  { model: /gemini/, ...GEMINI_OLD },
  { model: /deepseek/, ...DEEPSEEK },
  { model: /(^|:)(gpt-|o[1-9]|chatgpt-|codex)/, ...OPENAI },
];

/** When the name says nothing: the provider's usual rule. */
const BY_PROVIDER: Record<string, CacheRule> = { openai: OPENAI, azure: OPENAI, anthropic: ANTHROPIC, deepseek: DEEPSEEK, google: GEMINI_OLD, gemini: GEMINI_OLD };

/** The rule for a model (by family name, then provider), or undefined when none applies. */
export function cacheRuleFor(model: string, provider?: string): CacheRule | undefined {
  const name = bareModelName(model);
  const entry = RULES.find((rule) => rule.model.test(name));
  const rule = entry ?? BY_PROVIDER[provider?.toLowerCase() ?? ''];
  return rule && { minPrefixTokens: rule.minPrefixTokens, incrementTokens: rule.incrementTokens, source: rule.source };
}

/**
 * No rule: every unchanged prompt token can be served (what a provider without a rule gets). A pricing that
 * states it (`{ ...prices.resolve('claude-sonnet-4'), cacheRule: NO_CACHE_RULE }`) keeps it: withCacheRule
 * fills in only a rule left out (`cacheRule` absent or undefined).
 */
export const NO_CACHE_RULE: Readonly<CacheRule> = Object.freeze({ minPrefixTokens: 0, incrementTokens: 1, source: 'no minimum cacheable prefix: every unchanged token can be served' });

const withRules = new WeakMap<ModelPricing, ModelPricing>();

/**
 * The pricing with its provider's cache rule filled in (the same object for the same pricing). A rule the
 * pricing states is kept (a price file's, the caller's own, or NO_CACHE_RULE for none); only one left out
 * (`cacheRule` absent or undefined) is filled in, by the model's name, else its provider (cacheRuleFor).
 */
export function withCacheRule(pricing: ModelPricing): ModelPricing {
  if (pricing.cacheRule !== undefined) return pricing;
  let filled = withRules.get(pricing);
  if (filled === undefined) {
    const rule = cacheRuleOf(pricing);
    filled = rule ? { ...pricing, cacheRule: rule } : pricing;
    withRules.set(pricing, filled);
  }
  return filled;
}

/**
 * The rule a pricing meters by: the one it states (a price file's, the caller's own, NO_CACHE_RULE), else its
 * provider's (cacheRuleFor, by the model's name, then its provider), undefined when none applies. The kernel's
 * one price flattening takes it (kernel/prices.ts flattenPrices), so every pricing of one model meters alike.
 */
export function cacheRuleOf(pricing: ModelPricing): CacheRule | undefined {
  if (pricing.cacheRule !== undefined) return pricing.cacheRule;
  return typeof pricing.model === 'string' ? cacheRuleFor(pricing.model, typeof pricing.provider === 'string' ? pricing.provider : undefined) : undefined;
}
