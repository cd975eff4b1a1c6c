/**
 * STRATEGY_FIGURE_KEYS (src/loop/types.ts) is the one list of strategy figures: the sum, the report records
 * (replay runs and summary, tree rows), the sweep, tree and what-if CSV columns all come from it, so a
 * figure added there cannot miss a report. Each report carries every key when every figure is there.
 */
import { describe, expect, it } from 'vitest';
import { NO_BRAKES } from '../../src/brakes/config.js';
import { STRATEGY_FIGURE_KEYS, type StrategyFigures } from '../../src/loop/types.js';
import { sumStrategyFigures, type StrategyFigureKey } from '../../src/metrics/strategyFigures.js';
import { runRecord, summaryRecord } from '../../src/report/records.js';
import { FIGURE_KEYS, figureName, strategyFigureRecord } from '../../src/report/strategyFigureNames.js';
import { STRATEGY_FIGURES } from '../../src/report/sweepCsv.js';
import { figureCsvColumns } from '../../src/report/whatifFigures.js';
import { replayTrace } from '../../src/replay/replay.js';
import { summarise } from '../../src/replay/summary.js';
import { cli } from '../cli/run.js';
import { call, MINI_TABLE, trace } from '../helpers.js';

// Compile time: STRATEGY_FIGURE_KEYS names every StrategyFigures key (a figure left out of the list does not compile).
const EVERY_KEY_LISTED: [Exclude<keyof StrategyFigures, StrategyFigureKey>] extends [never] ? true : false = true;

/** Every figure there: 2 summary calls for $0.000003, 5 cache tokens lost, 1 skipped action. */
const EVERY: StrategyFigures = { summaryCalls: 2, summaryCostPico: 3e6, strategyCacheLostTokens: 5, skippedActions: 1 };
const EVERY_RECORD = { summaryCalls: 2, summaryCostUsd: 0.000003, strategyCacheLostTokens: 5, skippedActions: 1 };

describe('strategy figures: one list of keys behind every report', () => {
  it('the list covers every StrategyFigures key, named in reports with picodollars as USD', () => {
    expect(EVERY_KEY_LISTED).toBe(true);
    expect(Object.keys(EVERY).sort()).toEqual([...STRATEGY_FIGURE_KEYS].sort());
    expect(FIGURE_KEYS).toEqual(STRATEGY_FIGURE_KEYS.map(figureName));
    expect(FIGURE_KEYS).toEqual(Object.keys(EVERY_RECORD));
  });

  it('the sum and the records carry every figure there, in the list order', () => {
    const sums = sumStrategyFigures([EVERY, EVERY]);
    expect(sums).toEqual({ summaryCalls: 4, summaryCostPico: 6_000_000n, strategyCacheLostTokens: 10, skippedActions: 2 });
    expect(strategyFigureRecord(EVERY)).toEqual(EVERY_RECORD);
    const run = { ...replayTrace(trace([call(10)]), { brakes: NO_BRAKES, strategy: { kind: 'full', cache: 'off' }, prices: MINI_TABLE }), ...EVERY };
    const record = runRecord(run);
    expect(Object.keys(record).filter((key) => (FIGURE_KEYS as readonly string[]).includes(key))).toEqual(FIGURE_KEYS);
    expect(record).toMatchObject(EVERY_RECORD);
    expect(summaryRecord(summarise([run, run]))).toMatchObject({ summaryCalls: 4, summaryCostUsd: 0.000006, strategyCacheLostTokens: 10, skippedActions: 2 });
  });

  it('the summary calls cost is shown with the summary calls (at $0 too); other figures where not 0', () => {
    expect(sumStrategyFigures([{ summaryCalls: 1 }, { skippedActions: 0 }])).toEqual({ summaryCalls: 1, summaryCostPico: 0n });
    expect(strategyFigureRecord({ summaryCalls: 1 })).toEqual({ summaryCalls: 1, summaryCostUsd: 0 });
    expect(strategyFigureRecord({ summaryCostPico: 5 })).toEqual({});
  });

  it('the sweep, what-if and tree CSV columns are the list', async () => {
    expect(STRATEGY_FIGURES).toEqual(FIGURE_KEYS);
    expect(figureCsvColumns(FIGURE_KEYS).setting).toEqual(FIGURE_KEYS);
    const csv = (await cli('replay', '../shared/agent-logs/claude-code', '--tree', '--format', 'csv')).stdout;
    const header = csv.slice(0, csv.indexOf('\n')).split(',');
    const at = header.indexOf(FIGURE_KEYS[0]!);
    expect(header.slice(at, at + FIGURE_KEYS.length)).toEqual(FIGURE_KEYS);
  });
});
