/**
 * A sweep of live runs' recordings that state their context strategy (header `context`): under a full-history
 * configuration each is replayed as its loop ran it (replay/recordedStrategy.ts), as `replay` of that setting
 * alone replays it — run, baseline and strategy figures. Before, the sweep read them as full history through its
 * cells. Under another strategy a window's or masking's recording is rebuilt to full history first, as `replay`
 * rebuilds it (before, the compiled sweep shaped its prompts a second time); a summary strategy's is refused.
 */
import { describe, expect, it } from 'vitest';
import type { UserError } from '../../src/errors.js';
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

/** Seeded live runs under the strategies of `kinds` (summary and hybrid: their recordings state it), and an ordinary run's recording (no `context`). */
async function recordings(count: number, kinds: readonly ContextStrategy['kind'][] = ['summary', 'hybrid']): Promise<Trace[]> {
  const traces: Trace[] = [];
  for (let seed = 1; traces.length < count; seed++) {
    const c = randomCase(seed);
    if (!kinds.includes(c.strategy.kind)) continue;
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
const configsOf = (traces: readonly Trace[], under = strategies): PopulationConfig[] => under.flatMap((strategy) => [...brakeSets, ...traces.map(recordedBrakes)].map((brakes) => ({ brakes, strategy })));

describe('sweep of recordings that state their context strategy', () => {
  it('each cell (context=full, brakes that estimate the next prompt) equals replay of that setting alone, with its baseline and strategy figures', async () => {
    const traces = await recordings(8);
    const swept = sweptAsReplayed(traces, configsOf(traces, strategies.slice(0, 1)));
    // The recorded summaries are the full-history configurations' summary calls (strategy figures), as replay's.
    expect(swept[0]!.some((pair) => ((pair.run as { summaryCalls?: number }).summaryCalls ?? 0) > 0)).toBe(true);
  });

  it("a window's or masking's recording, under every context: under another than full, its full history rebuilt, as replay's", async () => {
    const traces = await recordings(8, ['window', 'mask']);
    sweptAsReplayed(traces, configsOf(traces));
  });

  it("a summary strategy's recording under another context is refused (no full history can be rebuilt from it)", async () => {
    const traces = await recordings(1);
    expect(() => sweepPairs(new SweepPopulation(traces, []), configsOf(traces, strategies.slice(1, 2)), handTable(MINI))).toThrow(/cannot be rebuilt, so it cannot be replayed under window:3/);
    // The hint names every place a context is set, not replay's --context alone (a sweep sets it by --grid).
    const refusal = (() => {
      try {
        sweepPairs(new SweepPopulation(traces, []), configsOf(traces, strategies.slice(1, 2)), handTable(MINI));
      } catch (error) {
        return error as UserError;
      }
      throw new Error('not refused');
    })();
    expect(refusal.issues[0]!.hint).toMatch(/^set the context to full \(the run as its loop ran it\) or to summary:.*, wherever this command sets it \(--context, a --grid context= value, a scenario file's context:\)/);
  });
});

/** The sweep of `traces` under `configs`, each cell checked equal to replay of that setting alone. */
function sweptAsReplayed(traces: Trace[], configs: PopulationConfig[]): ReturnType<typeof sweepPairs> {
  const prices = handTable(MINI);
  expect(traces.filter((t) => t.header.context !== undefined).length).toBe(traces.length - 1);
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
  return swept;
}
