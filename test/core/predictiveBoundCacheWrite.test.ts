/**
 * The predictive bound holds on a model that bills cache writes (Anthropic: 1.25× the input price for five
 * minutes, 2× for an hour): a prompt the cache does not serve is written, above the input price the bound
 * once priced it at, so `predict` passed its budget (Claude Code session ae4a77f8 under a summary strategy
 * and $6: $6.0008). The bound prices the prompt estimate at the highest price a prompt token of its tier
 * can be billed at; no call of that prompt, with no more output than max_tokens, is billed above it.
 */
import { describe, expect, it } from 'vitest';
import { predictiveBoundPico } from '../../src/kernel/cost.js';
import { CacheWrites } from '../../src/kernel/cacheWrites.js';
import { CacheModeCode, Metered, meterSummaryCall } from '../../src/kernel/meter.js';
import { flattenPrices } from '../../src/kernel/prices.js';
import { callCostPico } from '../../src/pricing/cost.js';
import { handPriced } from '../helpers.js';
import { cli } from '../cli/run.js';

const OPUS = { ...handPriced('opus', { input: 5, output: 25, cached: 0.5, cacheWrite: 6.25 }) };
const OPUS_1H = { ...OPUS, base: { ...OPUS.base, cacheWrite1h: 10_000_000 } };
const SESSION_B = '../shared/agent-logs/claude-code/ae4a77f8-aedd-4bc1-888f-c94edc91af04.jsonl.gz';

describe('the predictive bound on a model that bills cache writes', () => {
  it('prices the prompt at the dearest write (an hour’s when priced), a model without write prices at its input price', () => {
    const bound = (pricing: typeof OPUS) => predictiveBoundPico(flattenPrices(pricing), 10_000, 100, CacheWrites.MayLastAnHour);
    expect(bound(OPUS_1H)).toBe(10_000 * 10_000_000 + 100 * 25_000_000);
    expect(bound(OPUS)).toBe(10_000 * 6_250_000 + 100 * 25_000_000);
    expect(bound(handPriced('plain', { input: 5, output: 25, cached: 0.5 }))).toBe(10_000 * 5_000_000 + 100 * 25_000_000);
  });

  it('no call of the estimated prompt is billed above it, whatever it reads from and writes to the cache', () => {
    const flat = flattenPrices(OPUS_1H);
    for (const [input, cached, write5m, write1h] of [[10_000, 0, 10_000, 0], [10_000, 0, 0, 10_000], [10_000, 4_000, 3_000, 3_000], [10_000, 0, 0, 0]] as const) {
      const cost = callCostPico(OPUS_1H, { input, cached, cacheWrite: write5m, cacheWrite1h: write1h, output: 100, reasoning: 0 });
      expect(cost).toBeLessThanOrEqual(predictiveBoundPico(flat, input, 100, CacheWrites.MayLastAnHour));
    }
    // A summary call, written to the cache for five minutes (replay bills it by its estimate).
    const out = new Float64Array(Metered.Size);
    meterSummaryCall(out, flattenPrices(OPUS), CacheModeCode.On, 40_000, 0, 2000);
    expect(out[Metered.CacheWrite]).toBe(40_000);
    expect(out[Metered.CostPico]).toBe(predictiveBoundPico(flattenPrices(OPUS), 40_000, 2000, CacheWrites.MayLastAnHour));
  });

  it('Claude Code session ae4a77f8 under summaries and predict stays within each budget (it passed $6 at $6.0008)', async () => {
    for (const budget of [4, 6]) {
      const args = ['replay', '--tree', SESSION_B, '--context', 'summary:trigger=40000,keep=5,tokens=2000', '--max-cost', String(budget), '--budget-mode', 'predict', '--format', 'json'];
      const [tree] = JSON.parse((await cli(...args)).stdout).trees;
      expect(tree.stopReason, String(budget)).toBe('budget');
      expect(tree.totals.costUsd, String(budget)).toBeLessThanOrEqual(budget);
    }
  });
});
