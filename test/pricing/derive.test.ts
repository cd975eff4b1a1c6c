/**
 * `loopcost prices derive`: per-token prices recovered from recorded costs by exact least squares.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadTraceFiles } from '../../src/import/index.js';
import { collectInputs } from '../../src/io/collectInputs.js';
import { callCostPico } from '../../src/pricing/cost.js';
import { derivedPriceFile, derivePrices } from '../../src/pricing/derive.js';
import { NormalEquations } from '../../src/pricing/exactLeastSquares.js';
import type { TokenPrices } from '../../src/pricing/types.js';
import { TRACE_SCHEMA, type CallRecord, type Trace } from '../../src/trace/types.js';
import { cli, tempDir } from '../cli/run.js';
import { collectAsync, userErrorOf } from '../helpers.js';

const MINI = '../shared/traces/mini-swe-agent';

function pricedTrace(model: string, calls: Omit<CallRecord, 'type'>[], prices: TokenPrices, source = 'synthetic'): Trace {
  const pricing = { requested: model, model, base: prices, tiers: [], source: { name: 'test', version: 'test', hash: '0' } };
  return {
    source,
    header: { type: 'header', schema: TRACE_SCHEMA, model, systemTokens: 0, goalTokens: 0, origin: 'recorded' },
    calls: calls.map((call) => {
      const usage = { input: call.inputTokens ?? 0, cached: call.cachedInputTokens ?? 0, cacheWrite: call.cacheWriteTokens ?? 0, cacheWrite1h: call.cacheWrite1hTokens ?? 0, output: call.outputTokens, reasoning: call.reasoningTokens ?? 0 };
      // recorded as a provider or LiteLLM records it: USD as a float
      return { type: 'call', ...call, recordedCostUsd: callCostPico(pricing, usage) / 1e12 };
    }),
    end: { type: 'end', outcome: 'completed' },
  };
}

describe('prices derived from recorded costs', () => {
  it("recovers the prices the shared mini-swe-agent runs were billed at (test/fixtures/prices/deepseek-recorded.json), with no residual", async () => {
    const { models } = derivePrices(await collectAsync(loadTraceFiles(collectInputs([MINI]))));
    const fixture = JSON.parse(readFileSync('test/fixtures/prices/deepseek-recorded.json', 'utf8'));
    const file = derivedPriceFile(models);
    for (const model of ['deepseek/deepseek-chat', 'deepseek/deepseek-reasoner']) {
      for (const key of ['input_cost_per_token', 'cache_read_input_token_cost', 'output_cost_per_token']) expect(file[model]![key], `${model} ${key}`).toBe(fixture[model][key]);
    }
    for (const model of models) {
      expect(model.residual.maxAbsPico).toBe(0);
      expect(model.residual.totalPico).toBe(0n);
      expect(model.usable).toBe(true);
    }
    // deepseek-reasoner's reasoning tokens are priced as output: found, and left to the fallback in the file
    expect(models[1]!.prices.reasoning).toBe(models[1]!.prices.output);
    expect(file['deepseek/deepseek-reasoner']).not.toHaveProperty('output_cost_per_reasoning_token');
  });

  it('recovers known prices exactly from synthetic calls of every token kind (costs recorded as USD floats)', () => {
    const pico = fc.integer({ min: 1, max: 80_000_000 });
    const call = fc
      .record({ input: fc.integer({ min: 0, max: 300_000 }), cachedShare: fc.double({ min: 0, max: 0.99, noNaN: true }), write: fc.integer({ min: 0, max: 5_000 }), write1h: fc.integer({ min: 0, max: 3_000 }), output: fc.integer({ min: 0, max: 8_000 }), reasoningShare: fc.double({ min: 0, max: 1, noNaN: true }) })
      .map(({ input, cachedShare, write, write1h, output, reasoningShare }) => {
        const total = input + write + write1h;
        return { inputTokens: total, cachedInputTokens: Math.floor(input * cachedShare), cacheWriteTokens: write, cacheWrite1hTokens: write1h, outputTokens: output, reasoningTokens: Math.floor(output * reasoningShare) };
      });
    let usable = 0;
    fc.assert(
      fc.property(fc.record({ input: pico, cachedInput: pico, cacheWrite: pico, cacheWrite1h: pico, output: pico, reasoning: pico }), fc.array(call, { minLength: 12, maxLength: 40 }), (prices, calls) => {
        const [model] = derivePrices([pricedTrace('m', calls, prices)]).models;
        if (!model!.usable) return;
        usable += 1;
        const told = Object.keys(model!.prices);
        expect(model!.prices).toEqual(Object.fromEntries(Object.entries(prices).filter(([key]) => told.includes(key))));
        expect(model!.residual.maxAbsPico).toBe(0);
      }),
      { seed: 7, numRuns: 60 },
    );
    expect(usable).toBeGreaterThan(40);
    // and on calls of every kind, every price is told
    const calls = Array.from({ length: 20 }, (_, i) => ({ inputTokens: 10_000 + 977 * i, cachedInputTokens: 8_000 + 613 * i - 31 * i * i, cacheWriteTokens: 100 + 7 * (i % 5), cacheWrite1hTokens: 50 + 3 * (i % 7), outputTokens: 300 + 41 * (i % 9), reasoningTokens: 20 + 13 * (i % 4) }));
    const prices = { input: 3_000_000, cachedInput: 300_000, cacheWrite: 3_750_000, cacheWrite1h: 6_000_000, output: 15_000_000, reasoning: 15_000_000 };
    expect(derivePrices([pricedTrace('m', calls, prices)]).models[0]!.prices).toEqual(prices);
  });

  it('a price the runs cannot tell is left out (and falls back), not guessed', () => {
    const prices = { input: 2_500_000, cachedInput: 1_250_000, output: 10_000_000 };
    const noCache = Array.from({ length: 10 }, (_, i) => ({ inputTokens: 1000 + 37 * i, outputTokens: 100 + 11 * (i % 4) }));
    const [none] = derivePrices([pricedTrace('m', noCache, prices)]).models;
    expect(none!.prices).toEqual({ input: 2_500_000, output: 10_000_000 });
    expect(none!.notIdentifiable.map((n) => [n.key, n.reason])).toContainEqual(['cachedInput', 'no tokens of this kind']);
    // cached always exactly half the prompt: input and cached prices cannot be told apart
    const lockstep = Array.from({ length: 10 }, (_, i) => ({ inputTokens: 2000 + 100 * i, cachedInputTokens: 1000 + 50 * i, outputTokens: 100 + 7 * i * i }));
    const [moved] = derivePrices([pricedTrace('m', lockstep, prices)]).models;
    expect(moved!.notIdentifiable.map((n) => [n.key, n.reason])).toContainEqual(['cachedInput', 'moves with the other token kinds']);
    expect(moved!.usable).toBe(false);
    expect(moved!.problem).toMatch(/cachedInput price cannot be told apart/);
  });

  it('runs that recorded only their total cost (SWE-agent) give list prices', async () => {
    const { models } = derivePrices(await collectAsync(loadTraceFiles(collectInputs(['../shared/traces/swe-agent']))));
    const byModel = Object.fromEntries(models.map((m) => [m.model, m]));
    expect(byModel['claude-3-5-sonnet-20240620']!.prices).toEqual({ input: 3_000_000, output: 15_000_000 });
    expect(byModel['gpt-4-1106-preview']!.prices).toEqual({ input: 10_000_000, output: 30_000_000 });
  });

  it('costs that no set of non-negative prices explains: that model is not derived, and says why', () => {
    const calls = [{ inputTokens: 1000, outputTokens: 10 }, { inputTokens: 2000, outputTokens: 10 }, { inputTokens: 3000, outputTokens: 20 }];
    const trace = pricedTrace('m', calls, { input: 1_000_000, output: 1_000_000 });
    trace.calls[0]!.recordedCostUsd = 0.01;
    trace.calls[2]!.recordedCostUsd = 0.00001;
    const [model] = derivePrices([trace]).models;
    expect(model!.usable).toBe(false);
    expect(model!.problem).toMatch(/negative (input|output) price/);
    expect(derivedPriceFile([model!])).toEqual({});
  });

  it('exact arithmetic: the normal equations of real-sized runs overflow 2^53 and are solved without rounding', () => {
    const eq = new NormalEquations(2);
    for (let i = 0; i < 10_000; i++) eq.add([1_200_000 + i, 300 + (i % 97)], BigInt(1_200_000 + i) * 280_000n + BigInt(300 + (i % 97)) * 420_000n);
    expect(eq.gram[0]![0]! > BigInt(Number.MAX_SAFE_INTEGER)).toBe(true);
    const { solution } = eq.solve();
    expect(solution.map((x) => `${x!.num}/${x!.den}`)).toEqual(['280000/1', '420000/1']);
  });
});

describe('loopcost prices derive', () => {
  it('writes a LiteLLM price file that prices the runs as billed with --prices-override', async () => {
    const out = join(tempDir(), 'prices.json');
    const r = await cli('prices', 'derive', MINI, '--out', out);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^deepseek\/deepseek-chat\s+1843 calls\s+0\.28\s+0\.028\s+-\s+-\s+0\.42\s+-\s+\$0\s+0$/m);
    expect(r.stdout).not.toMatch(/^written: /m);
    expect(r.stderr).toBe(`loopcost: price file written to ${out} (LiteLLM format; price runs with it: --prices-override ${out})\n`);
    const replay = JSON.parse((await cli('replay', MINI, '--prices-override', out, '--format', 'json')).stdout);
    expect(replay.summary.totalCostUsd).toBe(replay.summary.recordedCostUsd);
    // No price warning (the importer's notes on the runs are warned of: import_notes).
    expect(replay.warnings.map((w: { code: string }) => w.code)).toEqual(['import_notes']);
  });

  it('the report as JSON states the residual', async () => {
    const json = JSON.parse((await cli('prices', 'derive', '../shared/traces', '--format', 'json')).stdout);
    const sonnet = json.models.find((m: { model: string }) => m.model === 'anthropic/claude-sonnet-4.6');
    expect(sonnet.usable).toBe(false);
    const chat = json.models.find((m: { model: string }) => m.model === 'deepseek/deepseek-chat');
    expect(chat.residual).toEqual({ maxAbsUsd: 0, rmsUsd: 0, totalUsd: 0, recordedUsd: 1.577728936 });
    expect(json.priceFile['deepseek/deepseek-chat'].output_cost_per_token).toBe(4.2e-7);
  });

  it('runs that recorded no cost: exit 2, nothing written', async () => {
    const out = join(tempDir(), 'prices.json');
    const r = await cli('prices', 'derive', 'scenarios/long-exploration.jsonl', '--out', out);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/none of the 1 run recorded what a call or the run cost/);
    expect(() => readFileSync(out)).toThrow();
    expect(userErrorOf(() => derivePrices([])).issues[0]!.code).toBe('no_recorded_cost');
  });
});
