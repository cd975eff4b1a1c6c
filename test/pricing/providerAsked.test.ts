/**
 * resolve(model, provider) prices the provider asked for when the table prices the model for it, listed
 * under an owner's prefix too (Groq's `openai/gpt-oss-120b` for `gpt-oss-120b` under `groq`: it took
 * OpenAI's own, 3.2× less on the Groq cassette); when the table does not, the price another provider's
 * entry gives is taken as the CLI always took it for a trace's `header.provider`, and the pricing says so
 * (`providerFallback`), in the library's and in `replay --format json`'s `prices.models`.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { callCostPico } from '../../src/pricing/cost.js';
import { GenaiPriceTable, loadPriceTable } from '../../src/pricing/index.js';
import { cli, tempDir } from '../cli/run.js';

const io = { cached: 0, cacheWrite: 0, cacheWrite1h: 0, reasoning: 0 };
const call = { ...io, input: 1_000, output: 100 };

describe('resolve(model, provider)', () => {
  it("gpt-oss-120b under groq is Groq's entry (openai/gpt-oss-120b, $0.15/$0.60), as the prefixed name under groq is; no fallback said", () => {
    const table = loadPriceTable();
    const groq = table.resolve('gpt-oss-120b', 'groq');
    expect([groq.provider, groq.model, groq.requested, groq.providerFallback]).toEqual(['groq', 'openai/gpt-oss-120b', 'gpt-oss-120b', undefined]);
    expect(callCostPico(groq, call)).toBe(210_000_000); // 1,000 × $0.15 + 100 × $0.60 per million
    expect(callCostPico(groq, call)).toBe(callCostPico(table.resolve('openai/gpt-oss-120b', 'groq'), call));
    expect(table.resolve('GPT-OSS-120B', 'Groq').provider).toBe('groq');
    expect(table.resolve('gpt-oss-120b', 'openrouter').provider).toBe('openrouter');
    // A provider that prices the model, or none asked: no fallback on the pricing.
    const fresh = new GenaiPriceTable();
    for (const [model, provider] of [['gpt-oss-120b', 'openai'], ['gpt-oss-120b', undefined], ['openai/gpt-oss-120b', undefined], ['gpt-4o', 'azure'], ['anthropic.claude-sonnet-4-20250514-v1:0', 'bedrock']] as const) {
      expect(fresh.resolve(model, provider).providerFallback, `${model} ${provider}`).toBeUndefined();
    }
  });

  it("a provider the table does not price the model for: another provider's price, the fallback said with the option that gives one's own", () => {
    const anthropic = loadPriceTable().resolve('gpt-oss-120b', 'anthropic');
    expect(anthropic.provider).toBe('openai');
    expect(anthropic.providerFallback).toEqual({
      asked: 'anthropic',
      detail:
        "the price table has no price of 'gpt-oss-120b' for provider anthropic (Anthropic): priced at openai (OpenAI)'s price of gpt-oss-120b instead; " +
        "if anthropic bills you another price, give it with overridesFile (an entry for 'anthropic/gpt-oss-120b' with input_cost_per_token and output_cost_per_token)",
    });
    const unknown = loadPriceTable().resolve('gpt-oss-120b', 'my-proxy');
    expect(unknown.providerFallback?.detail).toMatch(/^the price table knows no provider 'my-proxy': priced at openai \(OpenAI\)'s price of gpt-oss-120b instead; .*'my-proxy\/gpt-oss-120b'/);
    // The override entry the hint names prices it (the way out works), and nothing falls back then.
    const dir = tempDir();
    const overrides = join(dir, 'anthropic-oss.json');
    writeFileSync(overrides, JSON.stringify({ 'anthropic/gpt-oss-120b': { input_cost_per_token: 1e-6, output_cost_per_token: 2e-6 } }));
    const priced = loadPriceTable({ overridesFile: overrides }).resolve('gpt-oss-120b', 'anthropic');
    expect([callCostPico(priced, call), priced.providerFallback]).toEqual([1_200_000_000, undefined]);
    // An entry for the model that gives only a window leaves the prices another provider's: still said.
    const windowOnly = join(dir, 'anthropic-oss-window.json');
    writeFileSync(windowOnly, JSON.stringify({ 'gpt-oss-120b': { max_input_tokens: 100_000 } }));
    const windowed = loadPriceTable({ overridesFile: windowOnly }).resolve('gpt-oss-120b', 'anthropic');
    expect([windowed.contextWindow, windowed.providerFallback?.asked]).toEqual([100_000, 'anthropic']);
  });

  it("the hinted entry (input and output prices) clears the fallback where the table's model has a cache price it leaves to the table; the provider is the one asked; one price alone does not", () => {
    const dir = tempDir();
    const hinted = join(dir, 'nosuch-mini.json');
    writeFileSync(hinted, JSON.stringify({ 'nosuch/gpt-4o-mini': { input_cost_per_token: 1e-6, output_cost_per_token: 2e-6 } }));
    const priced = loadPriceTable({ overridesFile: hinted }).resolve('gpt-4o-mini', 'nosuch');
    expect([callCostPico(priced, call), priced.provider, priced.providerFallback]).toEqual([1_200_000_000, 'nosuch', undefined]);
    expect(priced.base.cachedInput).toBe(loadPriceTable().resolve('gpt-4o-mini').base.cachedInput); // the cache read left to the table's
    const inputOnly = join(dir, 'nosuch-mini-input.json');
    writeFileSync(inputOnly, JSON.stringify({ 'nosuch/gpt-4o-mini': { input_cost_per_token: 1e-6 } }));
    const half = loadPriceTable({ overridesFile: inputOnly }).resolve('gpt-4o-mini', 'nosuch');
    expect([half.provider, half.providerFallback?.asked]).toEqual(['openai', 'nosuch']);
  });
});

describe("a trace's header.provider through the CLI (the same rule)", () => {
  const dir = tempDir();
  const traceOf = (provider: string): string => {
    const path = join(dir, `${provider}.jsonl`);
    const lines = [{ type: 'header', schema: 'loopcost.trace/1', model: 'gpt-oss-120b', provider, systemTokens: 100, goalTokens: 10 }, { type: 'call', inputTokens: 1_000, outputTokens: 100 }, { type: 'end', outcome: 'completed' }];
    writeFileSync(path, lines.map((line) => JSON.stringify(line)).join('\n') + '\n');
    return path;
  };

  it("groq: Groq's price ($0.000210, was OpenAI's $0.0000570)", async () => {
    const json = JSON.parse((await cli('replay', traceOf('groq'), '--format', 'json')).stdout);
    expect(json.summary.totalCostUsd).toBe(0.00021);
    expect(json.prices.models[0]).toMatchObject({ provider: 'groq', model: 'openai/gpt-oss-120b', inputPerMTokUsd: 0.15, outputPerMTokUsd: 0.6 });
    expect(json.prices.models[0].providerFallback).toBeUndefined();
  });

  it("anthropic: OpenAI's price, prices.models saying the fallback in the CLI's words", async () => {
    const json = JSON.parse((await cli('replay', traceOf('anthropic'), '--format', 'json')).stdout);
    expect(json.prices.models[0]).toMatchObject({ provider: 'openai', model: 'gpt-oss-120b', providerFallback: { asked: 'anthropic' } });
    expect(json.prices.models[0].providerFallback.detail).toContain("give it with --prices-override (an entry for 'anthropic/gpt-oss-120b'");
  });

  it('the text report warns of the fallback (priced_at_other_provider: provider asked, whose price, runs, the hint); none once the hinted entry prices it, none for groq', async () => {
    const trace = traceOf('anthropic');
    const second = join(dir, 'anthropic-2.jsonl');
    writeFileSync(second, readFileSync(trace, 'utf8'));
    const text = (await cli('replay', trace, second)).stdout.replace(/\s+/g, ' ');
    expect(text).toContain(
      "warning: 2 runs for provider 'anthropic': the price table has no price of 'gpt-oss-120b' for provider anthropic (Anthropic): priced at openai (OpenAI)'s price of gpt-oss-120b instead; " +
        "if anthropic bills you another price, give it with --prices-override (an entry for 'anthropic/gpt-oss-120b' with input_cost_per_token and output_cost_per_token)",
    );
    const json = JSON.parse((await cli('replay', trace, '--format', 'json')).stdout);
    expect(json.warnings.filter((w: { code: string }) => w.code === 'priced_at_other_provider')).toHaveLength(1);
    const whatif = JSON.parse((await cli('whatif', trace, '--try', 'max-steps=5', '--format', 'json')).stdout);
    expect(whatif.warnings.map((w: { code: string }) => w.code)).toContain('priced_at_other_provider');
    // project and sweep say it too, with the runs counted; a sweep pricing every run as another model (--grid model=) does not.
    const fellBack = (report: { warnings: { code: string; message: string }[] }) => report.warnings.filter((w) => w.code === 'priced_at_other_provider').map((w) => w.message.slice(0, 33));
    expect(fellBack(JSON.parse((await cli('project', trace, second, '--runs-per-day', '10', '--format', 'json')).stdout))).toEqual(["2 runs for provider 'anthropic': "]);
    expect(fellBack(JSON.parse((await cli('sweep', trace, second, '--grid', 'max-steps=5,10', '--format', 'json')).stdout))).toEqual(["2 runs for provider 'anthropic': "]);
    expect(fellBack(JSON.parse((await cli('sweep', trace, second, '--grid', 'model=gpt-4o,gpt-4o-mini', '--format', 'json')).stdout))).toEqual([]);
    const overrides = join(dir, 'anthropic-oss-cli.json');
    writeFileSync(overrides, JSON.stringify({ 'anthropic/gpt-oss-120b': { input_cost_per_token: 1e-6, output_cost_per_token: 2e-6 } }));
    const overridden = JSON.parse((await cli('replay', trace, '--prices-override', overrides, '--format', 'json')).stdout);
    expect(overridden.prices.models[0]).toMatchObject({ provider: 'anthropic', model: 'anthropic/gpt-oss-120b' });
    expect(overridden.prices.models[0].providerFallback).toBeUndefined();
    expect(overridden.warnings.map((w: { code: string }) => w.code)).not.toContain('priced_at_other_provider');
    expect((await cli('replay', traceOf('groq'))).stdout).not.toContain('priced_at_other_provider');
    expect((await cli('replay', traceOf('groq'))).stdout).not.toContain('for provider');
  });
});
