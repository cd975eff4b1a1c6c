/**
 * A sweep of live runs' recordings that state their context strategy (header `context`, summary and hybrid):
 * under a full-history configuration each is replayed as its loop ran it (replay/recordedStrategy.ts), as
 * `replay` of that setting alone replays it — run, baseline and strategy figures — while another strategy's
 * configurations stay on the compiled sweep. Before, the sweep read them as full history through its cells.
 */
import { describe, expect, it } from 'vitest';
import { NO_BRAKES, type BrakeConfig } from '../../src/brakes/config.js';
import type { ContextStrategy } from '../../src/context/strategy.js';
import { runFigures, type PopulationConfig } from '../../src/population/run.js';
import { SweepPopulation, sweepMetrics, sweepPairs } from '../../src/population/sweep.js';
import { replayTrace } from '../../src/replay/replay.js';
import { recordedBrakes } from '../../src/replay/whatif.js';
import type { Trace } from '../../src/trace/types.js';
import { handTable, MINI } from '../helpers.js';
import { liveAndReplayed, randomCase } from '../agent/strategyRuns.js';
import { sweptRowOf } from './sweptRow.js';

/** Seeded live runs under summary or hybrid (their recordings state it), and an ordinary run's recording (no `context`). */
async function recordings(count: number): Promise<Trace[]> {
  const traces: Trace[] = [];
  for (let seed = 1; traces.length < count; seed++) {
    const c = randomCase(seed);
    if (c.strategy.kind !== 'summary' && c.strategy.kind !== 'hybrid') continue;
    traces.push((await liveAndReplayed(c)).recording);
  }
  const plain = randomCase(1000);
  traces.push((await liveAndReplayed({ ...plain, strategy: { kind: 'full' } })).recording);
  return traces;
}

const strategies: ContextStrategy[] = [{ kind: 'full' }, { kind: 'window', windowSteps: 3 }, { kind: 'full', toolResultCap: 12 }];
const brakeSets: BrakeConfig[] = [
  NO_BRAKES,
  { ...NO_BRAKES, maxSteps: 4 },
  { ...NO_BRAKES, maxCostPico: 400_000_000, budgetMode: 'predict', maxOutputTokens: 150 },
  { ...NO_BRAKES, maxCostPico: 1_200_000_000, budgetMode: 'check', maxOutputTokens: 250 },
  { ...NO_BRAKES, contextWindow: 350, maxOutputTokens: 120 },
  { ...NO_BRAKES, maxSteps: 12, maxCostPico: 2_000_000_000, budgetMode: 'predict', contextWindow: 600, maxOutputTokens: 200 },
];
/** The grid: every strategy × the brake sets and each recording's own brakes (what its live loop ran under). */
const configsOf = (traces: readonly Trace[]): PopulationConfig[] => strategies.flatMap((strategy) => [...brakeSets, ...traces.map(recordedBrakes)].map((brakes) => ({ brakes, strategy })));

describe('sweep of recordings that state their context strategy', () => {
  it('each cell (context=full and others, brakes that estimate the next prompt) equals replay of that setting alone, with its baseline and strategy figures', async () => {
    const traces = await recordings(8);
    const prices = handTable(MINI);
    const configs = configsOf(traces);
    expect(traces.filter((t) => t.header.context !== undefined).length).toBe(8);
    const swept = sweepPairs(new SweepPopulation(traces, []), configs, prices);
    const metrics = sweepMetrics(new SweepPopulation(traces, []), configs, prices);
    configs.forEach((config, c) => {
      const pairs = traces.map((trace) => {
        const baseline = replayTrace(trace, { brakes: NO_BRAKES, strategy: config.strategy, prices });
        return { run: runFigures(replayTrace(trace, { brakes: config.brakes, strategy: config.strategy, prices })), baseline: { stopReason: baseline.stopReason, steps: baseline.steps, costPico: baseline.costPico } };
      });
      expect(swept[c], `configuration ${c}`).toEqual(pairs);
      expect(metrics[c]).toMatchObject(sweptRowOf(pairs));
    });
    // The recorded summaries are the full-history configurations' summary calls (strategy figures), as replay's.
    expect(swept[0]!.some((pair) => ((pair.run as { summaryCalls?: number }).summaryCalls ?? 0) > 0)).toBe(true);
  });
});
