/**
 * The pricing audit's findings on look-up, recorded cost and CSV, each with its repro: a provider prefix
 * never takes another provider's price in silence (5); a run whose calls did not all record a cost is
 * compared over those that did (6); a Bedrock id without a provider says to name it (8); CSV money is
 * never in exponent form (9).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { callCostPico } from '../../src/pricing/cost.js';
import { GenaiPriceTable, loadPriceTable } from '../../src/pricing/index.js';
import { recordedCostCheck } from '../../src/pricing/recordedCost.js';
import { plainNumberText } from '../../src/report/csv.js';
import type { Trace } from '../../src/trace/types.js';
import { compiledTrace } from '../../src/fast/compile.js';
import { loadTraceFiles } from '../../src/import/index.js';
import { handOverCompiled } from '../../src/replay/compiledRuns.js';
import { recordedCostCheckOf } from '../../src/replay/runFacts.js';
import { userErrorOf } from '../helpers.js';
import { cli, tempDir } from '../cli/run.js';

const table = new GenaiPriceTable();
const dir = tempDir();
function traceFile(name: string, lines: object[]): string {
  const path = join(dir, name);
  writeFileSync(path, lines.map((line) => JSON.stringify(line)).join('\n') + '\n');
  return path;
}
const header = (model: string, extra: object = {}) => ({ type: 'header', schema: 'loopcost.trace/1', model, origin: 'recorded', systemTokens: 100, goalTokens: 50, ...extra });
const io = { cached: 0, cacheWrite: 0, cacheWrite1h: 0, reasoning: 0 };

describe('a provider prefix prices with that provider or is refused (5)', () => {
  it("together_ai/deepseek-ai/DeepSeek-R1: Together AI prices no DeepSeek-R1 in the table, so Hyperbolic's $2/$2 is not taken; the refusal names who does", () => {
    const error = userErrorOf(() => table.resolve('together_ai/deepseek-ai/DeepSeek-R1'));
    expect(error.issues[0]).toMatchObject({ field: 'model', code: 'model_not_priced_by_provider' });
    expect(error.issues[0]!.message).toBe("'together_ai/deepseek-ai/DeepSeek-R1' names provider together (Together AI), which the price table does not price 'deepseek-ai/DeepSeek-R1' for; other providers' prices are not taken for it");
    expect(error.issues[0]!.hint).toContain('huggingface_together/deepseek-ai/DeepSeek-R1');
    // Together's own price through Hugging Face, named: 10k × 3 + 5k × 7 = $0.0650
    const together = table.resolve('huggingface_together/deepseek-ai/DeepSeek-R1');
    expect(callCostPico(together, { ...io, input: 10_000, output: 5_000 })).toBe(65_000_000_000);
  });

  it("a prefix's provider wins over another provider's name rules (openrouter/… is OpenRouter's price, not Google's)", () => {
    expect(table.resolve('openrouter/google/gemini-2.0-flash-001').provider).toBe('openrouter');
    expect(table.resolve('openrouter/gemini-2.0-flash-001').provider).toBe('openrouter');
    // Names that resolved before resolve as before.
    expect(table.resolve('openai/gpt-4o').provider).toBe('openai');
    expect(table.resolve('bedrock/us.anthropic.claude-sonnet-4-5-20250929-v1:0').provider).toBe('aws');
    expect(table.resolve('deepseek-ai/DeepSeek-V3').provider).toBe('huggingface_novita');
  });

  it('through the CLI: exit 2 with the refusal, nothing on stdout; a --prices-override entry for the name prices it', async () => {
    const trace = traceFile('tg.jsonl', [header('together_ai/deepseek-ai/DeepSeek-R1'), { type: 'call', inputTokens: 10_000, outputTokens: 5_000, final: true }, { type: 'end', outcome: 'completed' }]);
    const refused = await cli('replay', trace);
    expect([refused.code, refused.stdout]).toEqual([2, '']);
    expect(refused.stderr).toContain("names provider together (Together AI), which the price table does not price 'deepseek-ai/DeepSeek-R1' for");
    const override = join(dir, 'tg-prices.json');
    writeFileSync(override, JSON.stringify({ 'together_ai/deepseek-ai/DeepSeek-R1': { input_cost_per_token: 3e-6, output_cost_per_token: 7e-6 } }));
    const json = JSON.parse((await cli('replay', trace, '--prices-override', override, '--format', 'json')).stdout);
    expect(json.summary.totalCostUsd).toBe(0.065);
  });
});

describe('recorded cost over the calls that recorded one (6)', () => {
  const calls = [
    { inputTokens: 12_000, cachedInputTokens: 8_000, outputTokens: 800, recordedCostUsd: 0.056, toolCalls: [{ name: 'bash', arguments: { c: 'ls' }, resultTokens: 10 }] },
    { outputTokens: 0, failed: { status: 500, message: 'server error' } },
    { inputTokens: 14_000, cachedInputTokens: 12_000, outputTokens: 800, recordedCostUsd: 0.06, final: true },
  ];

  it('compares the two calls that recorded a cost: $0.0560 at the table against $0.1160 billed', () => {
    const trace = { header: { model: 'gpt-4o' }, calls, end: { outcome: 'completed' } } as unknown as Trace;
    // (4k × 2.5 + 8k × 1.25 + 800 × 10) + (2k × 2.5 + 12k × 1.25 + 800 × 10) = $0.028 + $0.028
    expect(recordedCostCheck(trace, table.resolve('gpt-4o'))).toEqual({ computedPico: 56_000_000_000, recordedPico: 116_000_000_000, comparedCalls: 2, calls: 3 });
  });

  it('read from a compiled trace (a cache of compiled traces) the same', async () => {
    const file = traceFile('partial-compiled.jsonl', [header('gpt-4o', { recordedAt: '2025-08-01T00:00:00Z' }), ...calls.map((c) => ({ type: 'call', ...c })), { type: 'end', outcome: 'completed' }]);
    for await (const trace of loadTraceFiles([file])) {
      const pricing = table.resolve('gpt-4o', undefined, '2025-08-01T00:00:00Z');
      const readable = recordedCostCheck(trace, pricing);
      handOverCompiled(trace, compiledTrace(trace));
      expect(recordedCostCheckOf(trace, pricing)).toEqual(readable);
      expect(readable?.comparedCalls).toBe(2);
    }
  });

  it('warns of the gap and says how many calls recorded a cost', async () => {
    const trace = traceFile('partial.jsonl', [header('gpt-4o', { recordedAt: '2025-08-01T00:00:00Z' }), ...calls.map((c) => ({ type: 'call', ...c })), { type: 'end', outcome: 'completed' }]);
    for (const flags of [[], ['--per-step']]) {
      const json = JSON.parse((await cli('replay', trace, ...flags, '--format', 'json')).stdout);
      const gap = json.warnings.find((w: { code: string }) => w.code === 'price_gap');
      expect(gap?.message).toContain('1 run (gpt-4o) as recorded cost $0.0560 at these prices but was billed $0.1160 (-52%) (where not every call recorded a cost, over those that did: 2 of 3 calls recorded a cost)');
    }
  });
});

describe('a Bedrock id without a provider (8)', () => {
  it('is refused with a hint to name the provider bedrock, not other models', () => {
    const error = userErrorOf(() => loadPriceTable().resolve('us.anthropic.claude-sonnet-4-5-20250929-v1:0'));
    expect(error.issues[0]!.code).toBe('unknown_model');
    expect(error.issues[0]!.hint).toContain('it is a model id of AWS Bedrock ("provider": "bedrock")');
    expect(error.issues[0]!.hint).toContain('add "provider": "bedrock" to the run\'s header');
    expect(error.issues[0]!.hint).not.toContain('did you mean');
    // Named, it is priced: regional +10%, 12k × 3.3 + 800 × 16.5 = $0.0528
    expect(callCostPico(table.resolve('us.anthropic.claude-sonnet-4-5-20250929-v1:0', 'bedrock'), { ...io, input: 12_000, output: 800 })).toBe(52_800_000_000);
  });
});

describe('CSV numbers are never in exponent form (9)', () => {
  it('plainNumberText writes JavaScript digits positionally', () => {
    expect(plainNumberText(5e-8)).toBe('0.00000005');
    expect(plainNumberText(1.75e-7)).toBe('0.000000175');
    expect(plainNumberText(-3.5e-7)).toBe('-0.00000035');
    expect(plainNumberText(1.5e21)).toBe('1500000000000000000000');
    expect(plainNumberText(0.028)).toBe('0.028');
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (value) => {
        const text = plainNumberText(value);
        expect(text).not.toMatch(/e/i);
        expect(Number(text)).toBe(value === 0 ? 0 : value);
      }),
      { seed: 23, numRuns: 2000 },
    );
  });

  it("a one-token gpt-5-nano call's $0.00000005 in a replay's CSV", async () => {
    const trace = traceFile('tiny.jsonl', [header('gpt-5-nano', { systemTokens: 1, goalTokens: 0, recordedAt: '2025-11-01T00:00:00Z' }), { type: 'call', inputTokens: 1, outputTokens: 0, final: true }, { type: 'end', outcome: 'completed' }]);
    const csv = (await cli('replay', trace, '--format', 'csv')).stdout;
    const [head, row] = csv.split('\n');
    expect(row!.split(',')[head!.split(',').indexOf('costUsd')]).toBe('0.00000005');
    expect(csv).not.toMatch(/\de-\d/);
  });
});
