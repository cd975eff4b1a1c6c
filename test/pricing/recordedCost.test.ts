/**
 * The price-gap check prices a run's calls as recorded with callCostPico; this holds it equal to what a
 * replay as recorded (no brakes, full history, recorded cache) charges, on every shared real run.
 */
import { describe, expect, it } from 'vitest';
import { NO_BRAKES } from '../../src/brakes/config.js';
import { loadTraceFiles } from '../../src/import/index.js';
import { collectInputs } from '../../src/io/collectInputs.js';
import { loadPriceTable } from '../../src/pricing/index.js';
import { PriceGapCheck, recordedCostCheck } from '../../src/pricing/recordedCost.js';
import { replayTrace, resolveTracePricing } from '../../src/replay/replay.js';

describe('price of runs as recorded', () => {
  it('equals the replay as recorded, run by run, on the shared real runs', async () => {
    const prices = loadPriceTable({});
    let checked = 0;
    for await (const trace of loadTraceFiles(collectInputs(['../shared/traces', 'test/fixtures/otel']))) {
      const pricing = resolveTracePricing(trace, { prices });
      const check = recordedCostCheck(trace, pricing);
      if (!check) continue;
      const replayed = replayTrace(trace, { brakes: NO_BRAKES, strategy: { kind: 'full' }, prices, pricing });
      expect(check.computedPico, trace.source).toBe(replayed.costPico);
      expect(check.recordedPico, trace.source).toBe(replayed.recordedCostPico);
      checked += 1;
    }
    expect(checked).toBeGreaterThanOrEqual(38);
  });

  it('sums per model and reports only gaps beyond the tolerance', async () => {
    const billed = loadPriceTable({ pricesFile: 'test/fixtures/prices/deepseek-recorded.json' });
    // The bundled table as of 2025-08-01: DeepSeek's price before V3.1 and V3.2 (loopcost's corrections apply from 2025-09-06).
    const stale = loadPriceTable({ asOf: new Date('2025-08-01') });
    const atBilled = new PriceGapCheck();
    const atStale = new PriceGapCheck();
    for await (const trace of loadTraceFiles(collectInputs(['../shared/traces/mini-swe-agent']))) {
      atBilled.add(trace, resolveTracePricing(trace, { prices: billed }));
      atStale.add(trace, resolveTracePricing(trace, { prices: stale }));
    }
    expect(atBilled.gaps(1e-6)).toEqual([]);
    const gaps = atStale.gaps(1e-6);
    expect(gaps.map((gap) => [gap.model, gap.runs])).toEqual([['deepseek-chat', 23], ['deepseek-reasoner', 15]]);
    // Σ of the per-call extra.cost of the 38 runs
    expect(gaps.reduce((sum, gap) => sum + gap.recordedPico, 0n)).toBe(2_177_942_536_000n);
    expect(Number(gaps[0]!.computedPico) / Number(gaps[0]!.recordedPico)).toBeGreaterThan(2);
  });
});
