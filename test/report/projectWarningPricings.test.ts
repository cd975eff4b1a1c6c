/**
 * `project`'s `repriced_without_cache_writes` (report/warningLists.ts projectWarningList) priced every recorded
 * trace again after the projection had priced its runs. It now reads each run's pricing as the projection took
 * it (handed in, in the traces' order, as RunNotes reads it for replay): the table is not asked again, and the
 * warning is the one the runs' own pricings give.
 */
import { describe, expect, it } from 'vitest';
import { loadPriceTable, readTraces } from '../../src/index.js';
import { projectWarningList } from '../../src/report/warningLists.js';
import { filledBrakeConfig } from '../../src/brakes/config.js';
import { tracePricing } from '../../src/replay/tracePricing.js';
import type { PriceTable } from '../../src/pricing/types.js';

const RUNS = '../shared/traces/mini-swe-agent/deepseek_chat_dev';

describe("project's warning list reads the pricings the runs took", () => {
  it('repriced_without_cache_writes from the pricings handed in, no trace priced again', async () => {
    const traces = await readTraces([RUNS]);
    const table = loadPriceTable();
    const pricings = traces.map((trace) => tracePricing(trace, { prices: table, model: 'claude-sonnet-4-5' }));
    let asked = 0;
    const counting: PriceTable = { ...table, resolve: (model, provider) => ((asked += 1), table.resolve(model, provider)) };
    const warnings = projectWarningList({
      config: { brakes: filledBrakeConfig({}), strategy: { kind: 'full' }, model: 'claude-sonnet-4-5' },
      traces,
      pricings,
      runs: traces.length,
      prices: counting,
      inputs: [],
      crossings: [],
      cache: [],
      windows: [],
      importNotes: [],
      summaries: [],
    });
    expect(asked).toBe(0);
    const writes = warnings.filter((w) => w.code === 'repriced_without_cache_writes');
    expect(writes).toHaveLength(1);
    expect(writes[0]!.message).toMatch(/^23 runs re-priced as claude-sonnet-4-5 read [\d,]+ cached tokens as recorded/);
  });
});
