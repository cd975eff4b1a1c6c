/**
 * The build's copy of the genai-prices data is JSON Lines whose providers parse their fields other than
 * the matching ones on first read (src/pricing/genaiDataFile.ts). Read back, it is the package's data key
 * for key (same JSON text), matching over it finds what matching over the package's data finds (random
 * names and hints, fixed seed), and pricing one model parses only the providers matching settles on.
 */
import { waitForUpdate } from '@pydantic/genai-prices';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { genaiDataCopy } from '../../src/pricing/genaiData.js';
import { formatDataCopy, readDataCopy } from '../../src/pricing/genaiDataFile.js';
import { matchModel, providerByApiUrl, providerById } from '../../src/pricing/genaiMatch.js';

const providers = (await waitForUpdate()) ?? [];
const copy = await genaiDataCopy();
const text = formatDataCopy(copy);

function readBack() {
  const read = readDataCopy(Buffer.from(text, 'utf8'));
  if (read === undefined) throw new Error('the formatted copy did not read back');
  return read;
}

/** Whether a provider's deferred fields are still unparsed (its `models` still a getter). */
const unparsed = (provider: object): boolean => Object.getOwnPropertyDescriptor(provider, 'models')?.get !== undefined;

const described = (found: ReturnType<typeof matchModel>): string | undefined => (found ? `${found.provider.id}/${JSON.stringify(found.model)}` : undefined);

describe('genai-prices data copy layout', () => {
  it('reads back as the package data, key for key', () => {
    const read = readBack();
    expect(read.providers.every(unparsed)).toBe(true);
    expect(JSON.stringify(read)).toBe(JSON.stringify(copy));
    expect(read.providers.some(unparsed)).toBe(false);
    expect(JSON.stringify(read.providers)).toBe(JSON.stringify(providers));
    expect(read.providers).toEqual(providers);
  });

  it('parses only the provider a model name settles on', () => {
    const read = readBack();
    const found = matchModel(read.providers, 'gpt-4o');
    expect(found?.provider.id).toBe('openai');
    expect(read.providers.filter((p) => !unparsed(p)).map((p) => p.id)).toEqual(['openai']);
    expect(found?.model).toEqual(matchModel(providers, 'gpt-4o')?.model);
  });

  it('a write to a deferred field keeps the other deferred fields', () => {
    const read = readBack();
    const anthropic = read.providers.find((p) => p.id === 'anthropic')!;
    anthropic.models = [];
    expect(anthropic.models).toEqual([]);
    expect(anthropic.extractors).toEqual(providers.find((p) => p.id === 'anthropic')!.extractors);
  });

  it('matches as the package data does, for random names and hints (fixed seed)', () => {
    const ids = providers.flatMap((p) => p.models.map((m) => m.id));
    const providerIds = [...providers.map((p) => p.id), 'litellm', 'nosuchprovider'];
    const name = fc.oneof(
      fc.constantFrom(...ids),
      fc.tuple(fc.constantFrom(...providerIds), fc.constantFrom(...ids)).map(([p, m]) => `${p}/${m}`),
      fc.constantFrom(...ids).map((m) => m.toUpperCase()),
      fc.string({ maxLength: 12 }),
    );
    const lookup = fc.record({ name, hint: fc.option(fc.constantFrom(...providerIds), { nil: undefined }) });
    fc.assert(
      fc.property(fc.array(lookup, { minLength: 1, maxLength: 8 }), (lookups) => {
        const read = readBack(); // fresh, so each sequence starts with nothing parsed
        for (const { name: model, hint } of lookups) {
          expect(described(matchModel(read.providers, model, hint))).toBe(described(matchModel(providers, model, hint)));
          if (hint) expect(providerById(read.providers, hint)?.id).toBe(providerById(providers, hint)?.id);
        }
        expect(providerByApiUrl(read.providers, 'https://api.openai.com/v1')?.id).toBe(providerByApiUrl(providers, 'https://api.openai.com/v1')?.id);
        expect(JSON.stringify(read.providers)).toBe(JSON.stringify(providers));
      }),
      { seed: 20261203, numRuns: 60 },
    );
  });

  it('is not read from another layout or a cut file', () => {
    expect(readDataCopy(Buffer.from(JSON.stringify(copy)))).toBeUndefined(); // the earlier one-JSON copy
    expect(readDataCopy(Buffer.from(text.slice(0, text.length - 1)))).toBeUndefined();
    expect(readDataCopy(Buffer.from(text.slice(0, text.lastIndexOf('\n', text.length - 2) + 1)))).toBeUndefined();
    expect(readDataCopy(Buffer.from(`${text}{}\n`))).toBeUndefined();
  });
});
