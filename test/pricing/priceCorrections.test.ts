/**
 * loopcost's corrections overlay on the bundled table (src/pricing/corrections.ts), each held to the
 * pricing audit's figures in exact picodollars, on the days it applies and not outside them; and the
 * overlay named wherever the table is (text, JSON, CSV, `loopcost prices`).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PRICE_CORRECTIONS, PRICE_CORRECTIONS_VERSION } from '../../src/pricing/corrections.js';
import { callCostPico } from '../../src/pricing/cost.js';
import { GenaiPriceTable, loadPriceTable } from '../../src/pricing/index.js';
import { priceCorrectionsSource } from '../../src/pricing/priceCorrections.js';
import { describePriceSource, priceSourceColumns } from '../../src/pricing/source.js';
import type { CallUsage } from '../../src/pricing/types.js';
import { cli, tempDir } from '../cli/run.js';

const table = new GenaiPriceTable();
const usage = (u: Partial<CallUsage> & { input: number; output: number }): CallUsage => ({ cached: 0, cacheWrite: 0, cacheWrite1h: 0, reasoning: 0, ...u });
const cost = (model: string, day: string, u: Parameters<typeof usage>[0]) => callCostPico(table.resolve(model, undefined, `${day}T12:00:00Z`), usage(u));

describe('loopcost corrections to the bundled table', () => {
  it('Claude Sonnet 4 above 200,000 prompt tokens: the whole call at $6 / $0.60 / $7.50 / $22.50 per million (Anthropic and Vertex ids)', () => {
    const past = { input: 250_000, cached: 200_000, cacheWrite: 40_000, output: 4_000 };
    // 10k × 6 + 200k × 0.6 + 40k × 7.5 + 4k × 22.5 = $0.570 (the table alone: $0.300)
    expect(cost('claude-sonnet-4-20250514', '2025-11-15', past)).toBe(570_000_000_000);
    expect(cost('vertex_ai/claude-sonnet-4@20250514', '2025-11-15', past)).toBe(570_000_000_000);
    // Exactly 200,000 is the base rate: 5k × 3 + 190k × 0.3 + 5k × 3.75 + 1k × 15
    expect(cost('claude-sonnet-4-20250514', '2025-11-15', { input: 200_000, cached: 190_000, cacheWrite: 5_000, output: 1_000 })).toBe(105_750_000_000);
    // An hour's write above 200k: $12
    expect(cost('claude-sonnet-4-0', '2025-11-15', { input: 210_000, cacheWrite1h: 10_000, output: 0 })).toBe(200_000 * 6_000_000 + 10_000 * 12_000_000);
    // Before the 1M-context beta (2025-08-12) no call passed 200k: no tier then.
    expect(table.resolve('claude-sonnet-4-0', undefined, '2025-08-11T00:00:00Z').tiers).toEqual([]);
  });

  it('o3 before its 2025-06-10 cut: cached input $2.50, not $0.50; after it the table as it is', () => {
    // 4k × 10 + 96k × 2.5 + 3k × 40 = $0.400 (the table alone: $0.208)
    expect(cost('o3', '2025-05-20', { input: 100_000, cached: 96_000, output: 3_000 })).toBe(400_000_000_000);
    expect(table.resolve('o3', undefined, '2025-06-10T00:00:00Z').base).toMatchObject({ input: 2_000_000, cachedInput: 500_000, output: 8_000_000 });
    expect(table.resolve('o3', undefined, '2025-06-10T00:00:00Z').corrected).toBeUndefined();
  });

  it('gpt-4o before 2024-10-02 meant gpt-4o-2024-05-13 ($5 / $15); a dated snapshot is never re-pointed', () => {
    const before = table.resolve('gpt-4o', undefined, '2024-07-15T00:00:00Z');
    expect(before.model).toBe('gpt-4o-2024-05-13');
    // 12k × 5 + 800 × 15 = $0.0720 (the table alone: $0.0380)
    expect(callCostPico(before, usage({ input: 12_000, output: 800 }))).toBe(72_000_000_000);
    expect(callCostPico(table.resolve('openai/gpt-4o', undefined, '2024-07-15T00:00:00Z'), usage({ input: 12_000, output: 800 }))).toBe(72_000_000_000);
    expect(cost('gpt-4o', '2024-10-02', { input: 12_000, output: 800 })).toBe(38_000_000_000);
    expect(cost('gpt-4o-2024-08-06', '2024-09-01', { input: 12_000, output: 800 })).toBe(38_000_000_000);
  });

  it('DeepSeek chat and reasoner: V3.2 $0.28 / $0.028 / $0.42 from 2025-09-29, V3.1 $0.56 / $0.07 / $1.68 before, 128K window from 2025-08-21', () => {
    for (const model of ['deepseek-chat', 'deepseek-reasoner']) {
      const v32 = table.resolve(model, undefined, '2025-11-01T00:00:00Z');
      expect(v32.base).toEqual({ input: 280_000, cachedInput: 28_000, output: 420_000 });
      expect(v32.contextWindow).toBe(128_000);
      expect(table.resolve(model, undefined, '2025-09-10T00:00:00Z').base).toEqual({ input: 560_000, cachedInput: 70_000, output: 1_680_000 });
      expect(table.resolve(model, undefined, '2025-08-01T00:00:00Z').contextWindow).toBe(64_000);
    }
    expect(table.resolve('deepseek-reasoner', undefined, '2025-08-01T00:00:00Z').base).toEqual({ input: 550_000, cachedInput: 140_000, output: 2_190_000 });
  });

  it('gemini-2.5-flash-preview: thinking tokens at $3.50, not $0.60', () => {
    // 1,000 output of which 800 thinking: 200 × 0.6 + 800 × 3.5
    expect(cost('gemini-2.5-flash-preview-04-17', '2025-05-01', { input: 0, output: 1_000, reasoning: 800 })).toBe(200 * 600_000 + 800 * 3_500_000);
  });

  it('the bundled table now prices the 38 shared mini-swe-agent runs as they were billed: no price gap', async () => {
    const json = JSON.parse((await cli('replay', '../shared/traces/mini-swe-agent', '--format', 'json')).stdout);
    expect(json.warnings.map((w: { code: string }) => w.code)).not.toContain('price_gap');
    expect(json.summary.totalCostUsd).toBeCloseTo(json.summary.recordedCostUsd, 9);
  });
});

describe('the overlay is named with the table', () => {
  it('by version, count and a hash its version pins (change an entry: raise PRICE_CORRECTIONS_VERSION and this hash)', () => {
    expect(PRICE_CORRECTIONS_VERSION).toBe('1');
    expect(priceCorrectionsSource()).toEqual({ name: 'loopcost corrections', version: '1', count: PRICE_CORRECTIONS.length, hash: '1c4fa99b135a839b' });
    for (const c of PRICE_CORRECTIONS) expect(c.source.url).toMatch(/^https:\/\//);
  });

  it('in text, CSV and JSON reports, and with a --prices-override file', async () => {
    const source = loadPriceTable().source;
    expect(describePriceSource(source)).toMatch(/^@pydantic\/genai-prices 0\.1\.8 \(sha256 [0-9a-f]{16}\) \+ 8 loopcost corrections \(v1, sha256 1c4fa99b135a839b\), dated prices/);
    expect(priceSourceColumns(source).priceVersion).toBe('0.1.8+loopcost-corrections.1');
    const json = JSON.parse((await cli('replay', 'scenarios/recorded-pair.jsonl', '--format', 'json')).stdout);
    expect(json.prices.corrections).toEqual(priceCorrectionsSource());
    const csv = (await cli('replay', 'scenarios/recorded-pair.jsonl', '--format', 'csv')).stdout.split('\n');
    expect(csv[1]).toContain(',0.1.8+loopcost-corrections.1,');
  });

  it('`loopcost prices` shows a corrected model as corrected, with the source; JSON lists the corrections', async () => {
    const text = (await cli('prices', 'o3', '--prices-as-of', '2025-06-01')).stdout;
    expect(text).toMatch(/^cached input \(read\) +\$2\.5$/m);
    expect(text.replace(/\s+/g, ' ')).toContain("corrected: o3 before its 2025-06-10 price cut: cached input $2.50 per million (launch prices $10 / $2.50 / $40), not $0.50 (loopcost's correction to the bundled table; source https://openai.com/index/introducing-o3-and-o4-mini/, 2025-04-16)");
    expect(text.replace(/\s+/g, ' ')).toContain('+ 8 loopcost corrections (v1, sha256 1c4fa99b135a839b)');
    const json = JSON.parse((await cli('prices', 'o3', '--prices-as-of', '2025-06-01', '--format', 'json')).stdout);
    expect(json.corrected).toEqual([{ what: PRICE_CORRECTIONS[2]!.what, source: 'https://openai.com/index/introducing-o3-and-o4-mini/', dated: '2025-04-16' }]);
    expect((await cli('prices', 'o3')).stdout).not.toContain('corrected:');
  });

  it('a replay recorded before the cut is priced by the corrected row (the audit repro: $0.400, not $0.208)', async () => {
    const dir = tempDir();
    const trace = join(dir, 'o3pre.jsonl');
    writeFileSync(
      trace,
      [
        { type: 'header', schema: 'loopcost.trace/1', model: 'o3', origin: 'recorded', systemTokens: 100, goalTokens: 50, recordedAt: '2025-05-20T12:00:00Z' },
        { type: 'call', inputTokens: 100_000, cachedInputTokens: 96_000, outputTokens: 3_000, final: true },
        { type: 'end', outcome: 'completed' },
      ].map((line) => JSON.stringify(line)).join('\n') + '\n',
    );
    const json = JSON.parse((await cli('replay', trace, '--format', 'json')).stdout);
    expect(json.summary.totalCostUsd).toBe(0.4);
    expect(json.prices.models[0].corrected).toHaveLength(1);
  });
});
