/**
 * The table matches model names by genai-prices' own rules without loading the package
 * (src/pricing/genaiMatch.ts), over a JSON copy of its data made at build time (src/pricing/genaiData.ts).
 * Both are held to the package here: the same provider and model as `calcPrice` and `findProvider` for
 * every model id the data knows (as given, upper-cased, provider-prefixed, with a compact date, under
 * every kind of provider hint), and the copy the build wrote is the package's data, tagged with its hash.
 */
import { existsSync, readFileSync } from 'node:fs';
import { calcPrice, findProvider, waitForUpdate } from '@pydantic/genai-prices';
import { describe, expect, it } from 'vitest';
import { bundledProviders, GENAI_DATA_FILE, genaiDataCopy, genaiPricesSource } from '../../src/pricing/genaiData.js';
import { readDataCopy } from '../../src/pricing/genaiDataFile.js';
import { matchModel, providerByApiUrl, providerById } from '../../src/pricing/genaiMatch.js';

const providers = (await waitForUpdate()) ?? [];

function viaPackage(name: string, providerId?: string): string | undefined {
  let result;
  try {
    result = calcPrice({}, name, providerId ? { providerId } : undefined);
  } catch {
    return 'throws';
  }
  return result ? `${result.provider.id}/${result.model.id}` : undefined;
}

function viaMatch(name: string, providerId?: string): string | undefined {
  const found = matchModel(providers, name, providerId);
  return found ? `${found.provider.id}/${found.model.id}` : undefined;
}

describe('genai-prices matching without the package', () => {
  it('finds the provider and model calcPrice finds, for every model id in the data', () => {
    const hints = [undefined, 'litellm', 'nosuchprovider'];
    let compared = 0;
    let found = 0;
    for (const provider of providers) {
      for (const model of provider.models) {
        const names = [model.id, model.id.toUpperCase(), `${provider.id}/${model.id}`, `${model.id}-20240620`, `${model.id}-20241331`];
        const other = providers[(providers.indexOf(provider) + 1) % providers.length]!.id;
        for (const name of names) {
          // Every hint for the id itself; for its variants, none and its own provider.
          for (const hint of name === model.id ? [...hints, provider.id, other] : [undefined, provider.id]) {
            const expected = viaPackage(name, hint);
            expect(viaMatch(name, hint), `${name} (provider ${hint})`).toBe(expected === 'throws' ? viaMatch(name, hint) : expected);
            compared++;
            if (expected !== undefined) found++;
          }
        }
      }
    }
    expect(compared).toBeGreaterThan(10_000);
    expect(found).toBeGreaterThan(compared / 5); // a fifth or more found: the comparison is not of misses only
  });

  it('finds the provider findProvider finds, by id or alias', () => {
    const names = [...providers.map((p) => p.id), ...providers.map((p) => p.id.toUpperCase()), 'bedrock', 'google-vertex', 'vertex_ai', 'azure_ai', 'litellm', 'x', ''];
    for (const name of names) expect(providerById(providers, name)?.id, name).toBe(findProvider({ providerId: name })?.id);
  });

  it('finds the provider findProvider finds by API URL', () => {
    const urls = [
      'https://api.cerebras.ai/v1/chat/completions',
      'https://router.huggingface.co/together/v1/chat/completions',
      'https://bedrock-runtime.us-east-1.amazonaws.com/model',
      'https://myres.openai.azure.com/openai/deployments/x',
      'https://generativelanguage.googleapis.com/v1beta/models',
      'https://api.openai.com/v1/responses',
      'http://localhost:8080/anthropic/v1/messages',
      'https://gateway.example.com/v1',
    ];
    let found = 0;
    for (const url of urls) {
      const expected = findProvider({ providerApiUrl: url })?.id;
      expect(providerByApiUrl(providers, url)?.id, url).toBe(expected);
      if (expected !== undefined) found++;
    }
    expect(found).toBeGreaterThanOrEqual(5);
  });

  it('reads the same data as the package, from the copy the build wrote when there is one', async () => {
    expect(JSON.parse(JSON.stringify(providers))).toEqual(providers); // the JSON copy loses nothing
    expect(bundledProviders).toEqual(providers);
    const copy = new URL(`../../dist/pricing/${GENAI_DATA_FILE}`, import.meta.url);
    if (existsSync(copy)) expect(JSON.stringify(readDataCopy(readFileSync(copy)))).toBe(JSON.stringify(await genaiDataCopy()));
    expect(await genaiDataCopy()).toMatchObject({ package: '@pydantic/genai-prices', hash: genaiPricesSource().hash });
  });
});
