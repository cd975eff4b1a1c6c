import { userErrorOf } from '../helpers.js';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ConditionalPrice } from '@pydantic/genai-prices';
import { priceCorrectionsSource } from '../../src/pricing/priceCorrections.js';
import {
  BUNDLED_RELEASE,
  bundledPriceTable,
  GenaiPriceTable,
  loadPriceTable,
  pickModelPrice,
  suggestNames,
} from '../../src/pricing/index.js';

const table = bundledPriceTable();


describe('bundled genai-prices table', () => {
  it('names its source: package, version from package.json, sha256 of the bundled data file', () => {
    const root = new URL('../../node_modules/@pydantic/genai-prices/', import.meta.url);
    const pkg = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as { version: string };
    const hash = createHash('sha256').update(readFileSync(new URL('dist/index.js', root))).digest('hex').slice(0, 16);
    expect(table.source).toEqual({ name: '@pydantic/genai-prices', version: pkg.version, hash, releasedOn: BUNDLED_RELEASE.day, corrections: priceCorrectionsSource() });
    expect(loadPriceTable().source).toEqual(table.source);
  });

  it("knows the pinned version's release day (update BUNDLED_RELEASE with the package)", () => {
    const pinned = (JSON.parse(readFileSync('package.json', 'utf8')) as { dependencies: Record<string, string> }).dependencies['@pydantic/genai-prices'];
    expect(BUNDLED_RELEASE.version).toBe(pinned);
    expect(BUNDLED_RELEASE.day).toBe('2026-09-23'); // npm view @pydantic/genai-prices time: 0.1.8 published 2026-09-23
  });

  it('resolves each (model, provider) once and returns the cached pricing', () => {
    const fresh = new GenaiPriceTable();
    const a = fresh.resolve('gpt-4o');
    expect(fresh.resolve('gpt-4o')).toBe(a);
    expect(a.requested).toBe('gpt-4o');
    expect(a.model).toBe('gpt-4o');
    expect(a.contextWindow).toBe(128_000);
    expect(fresh.resolve('gpt-4o', 'azure')).not.toBe(a);
  });

  it('strips a provider prefix and uses it as the provider', () => {
    for (const name of ['openai/gpt-4o', 'openai:gpt-4o', 'OpenAI/GPT-4o']) {
      const pricing = table.resolve(name);
      expect(pricing.model, name).toBe('gpt-4o');
      expect(pricing.provider, name).toBe('openai');
      expect(pricing.requested, name).toBe(name);
    }
    const deepseek = table.resolve('deepseek/deepseek-chat');
    expect(deepseek.model).toBe('deepseek-chat');
    expect(deepseek.provider).toBe('deepseek');
    const claude = table.resolve('anthropic/claude-sonnet-4-5');
    expect(claude.model).toBe('claude-sonnet-4-5');
    expect(claude.provider).toBe('anthropic');
  });

  it('takes the provider hint when given, and ignores unknown providers', () => {
    expect(table.resolve('gpt-4o', 'azure').provider).toBe('azure');
    expect(table.resolve('openai/gpt-4o', 'openrouter').provider).toBe('openrouter');
    expect(table.resolve('gpt-4o', 'no-such-provider').provider).toBe('openai');
  });

  it('resolves model ids that the package match rules do not cover, by exact id', () => {
    const pricing = table.resolve('regional.anthropic.claude-opus-4-6-v1:0');
    expect(pricing.provider).toBe('aws');
    expect(pricing.model).toBe('regional.anthropic.claude-opus-4-6-v1:0');
  });

  it('lists the distinct model ids of all providers, sorted', () => {
    const names = table.modelNames();
    expect(names.length).toBeGreaterThan(1_000);
    expect(new Set(names).size).toBe(names.length);
    expect([...names].sort()).toEqual(names);
    for (const id of ['gpt-4o', 'gpt-4o-mini', 'claude-sonnet-4-5', 'gemini-2.5-pro', 'deepseek-chat', 'openai/gpt-4o']) {
      expect(names).toContain(id);
    }
    expect(table.modelEntries()).toContainEqual({ provider: 'anthropic', model: 'claude-sonnet-4-5' });
  });

  it('prices free models at zero', () => {
    const pricing = table.resolve('openai/gpt-oss-20b:free', 'openrouter');
    expect(pricing.base).toEqual({ input: 0, output: 0 });
  });

  it('rejects an unknown model with near-name suggestions', () => {
    const error = userErrorOf(() => table.resolve('gpt4o'));
    expect(error.issues).toHaveLength(1);
    const [issue] = error.issues;
    expect(issue).toMatchObject({ field: 'model', code: 'unknown_model', message: "unknown model 'gpt4o'" });
    expect(issue!.file).toBeUndefined();
    expect(issue!.hint).toBe(
      "did you mean gpt-4o, gpt-4o-mini, gpt-4o-mini-tts? Run 'loopcost prices' to list models, pass --prices FILE, or write a price file for it with 'loopcost prices derive'",
    );
    expect(error.message).toContain("unknown model 'gpt4o'");
  });

  it('rejects a model priced only per audio hour / message', () => {
    const error = userErrorOf(() => table.resolve('grok-voice-latest', 'x-ai'));
    expect(error.issues[0]).toMatchObject({ field: 'model', code: 'unpriced_model' });
  });
});

describe('pickModelPrice', () => {
  const p = (input: number) => ({ input_mtok: input, output_mtok: input * 4 });

  it('uses the latest start date, or the latest not after asOf', () => {
    const prices: ConditionalPrice[] = [
      { prices: p(1) },
      { constraint: { type: 'start_date', start_date: '2025-06-01' }, prices: p(2) },
      { constraint: { type: 'start_date', start_date: '2027-01-01' }, prices: p(3) },
    ];
    expect(pickModelPrice(prices)).toEqual(p(3));
    expect(pickModelPrice(prices, new Date('2026-12-02T00:00:00Z'))).toEqual(p(2));
    expect(pickModelPrice(prices, new Date('2025-01-01T00:00:00Z'))).toEqual(p(1));
  });

  it('takes the time-of-day price only when it covers most of the day', () => {
    const peakMostOfDay: ConditionalPrice[] = [
      { prices: p(1) },
      { constraint: { type: 'time_of_date', start_time: '00:30:00Z', end_time: '16:30:00Z' }, prices: p(2) },
    ];
    expect(pickModelPrice(peakMostOfDay)).toEqual(p(2));
    const shortPeaks: ConditionalPrice[] = [
      { prices: p(1) },
      { constraint: { type: 'start_date', start_date: '2026-08-17' }, prices: p(2) },
      { constraint: { type: 'time_of_date', start_time: '01:00:00Z', end_time: '04:00:00Z' }, prices: p(3) },
      { constraint: { type: 'time_of_date', start_time: '06:00:00Z', end_time: '10:00:00Z' }, prices: p(3) },
    ];
    expect(pickModelPrice(shortPeaks)).toEqual(p(2));
    const wrapping: ConditionalPrice[] = [
      { prices: p(1) },
      { constraint: { type: 'time_of_date', start_time: '20:00:00Z', end_time: '10:00:00Z' }, prices: p(5) },
    ];
    expect(pickModelPrice(wrapping)).toEqual(p(5));
  });

  it('prices deepseek-chat at its standard (16 h a day) rate', () => {
    // (Before 2025-09-06: from then on loopcost's corrections give DeepSeek's later, flat prices.)
    const pricing = table.resolve('deepseek-chat', undefined, '2025-08-01T00:00:00Z');
    expect(pricing.base).toEqual({ input: 270_000, cachedInput: 70_000, output: 1_100_000 });
  });
});

describe('suggestNames', () => {
  it('ranks same-name-up-to-punctuation, then prefixes, then edit distance', () => {
    const names = ['gpt-4o', 'gpt-4o-mini', 'gpt-4', 'claude-sonnet-4-5', 'openai/gpt-4o', 'o1'];
    expect(suggestNames('gpt4o', names).slice(0, 2)).toEqual(['gpt-4o', 'gpt-4o-mini']);
    // A transposition is one edit.
    expect(suggestNames('gtp-4o', names)[0]).toBe('gpt-4o');
    expect(suggestNames('claude-sonet-4-5', names)).toEqual(['claude-sonnet-4-5']);
    expect(suggestNames('zzz', names)).toEqual([]);
  });
});
