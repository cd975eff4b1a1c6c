/**
 * check's JSON `prices` (cli/actions/checkPrices.ts) counts the recorded runs by kind — model, provider, day
 * recorded: what a run's own pricing resolves by (sweepPrices.ts PricedRunKinds, as sweep's block counts them)
 * — and prices each kind once under each model the scenarios price them as. Before, it priced every run again
 * after the check had priced it: 41 runs of two kinds, named by two scenario files, were 82 look-ups in the
 * table, now 2. The block is the same (checkJsonPrices.test.ts: replay's for the same runs).
 */
import { describe, expect, it } from 'vitest';
import { checkPrices } from '../../src/cli/actions/checkPrices.js';
import { loadCheckInputs } from '../../src/check/inputs.js';
import { loadPriceTable } from '../../src/pricing/index.js';
import type { PriceTable } from '../../src/pricing/types.js';
import type { Trace } from '../../src/trace/types.js';

/** The bundled table, counting its look-ups. */
function countingTable(): { table: PriceTable; resolves: () => number } {
  const table = loadPriceTable();
  let resolves = 0;
  return {
    table: {
      source: table.source,
      resolve: (model, provider, recordedAt) => (resolves++, table.resolve(model, provider, recordedAt)),
      modelNames: () => table.modelNames(),
    },
    resolves: () => resolves,
  };
}

const run = (k: number, model: string, recordedAt: string): Trace => ({ source: `runs.jsonl#${k}`, header: { type: 'header', schema: 'loopcost.trace/1', model, recordedAt }, calls: [], end: { type: 'end', outcome: 'completed' } }) as unknown as Trace;

describe("check's prices block: each kind of recorded run priced once", () => {
  const runs = [...Array.from({ length: 40 }, (_, k) => run(k + 1, 'gpt-4o-mini', `2025-06-01T${String(k % 24).padStart(2, '0')}:00:00Z`)), run(41, 'o3', '2025-07-01T12:00:00Z')];
  const inputs = loadCheckInputs(['scenarios/healthy-recordings.check.yaml', 'scenarios/long-exploration.check.yaml'], {});

  it('two kinds, two look-ups; every run counted under each scenario that names it', () => {
    const { table, resolves } = countingTable();
    const prices = checkPrices(inputs, [runs, runs], { prices: table });
    expect(resolves()).toBe(2);
    expect(prices.models.map((m) => [m.model, m.runs])).toEqual([['gpt-4o-mini', 80], ['o3', 2]]);
    expect(prices.days).toMatchObject({ recordedRuns: 82, firstDay: '2025-06-01', lastDay: '2025-07-01', undatedRuns: 0 });
  });

  it('under --model, every kind is priced as that model (as of its day), once', () => {
    const { table, resolves } = countingTable();
    const prices = checkPrices(inputs, [runs, runs], { prices: table, model: 'gpt-4o' });
    expect(resolves()).toBe(2);
    expect(prices.models.map((m) => [m.model, m.runs])).toEqual([['gpt-4o', 80], ['gpt-4o', 2]]);
  });
});
