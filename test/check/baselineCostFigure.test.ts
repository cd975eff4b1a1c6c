/**
 * `baselineCostUsd` is one of the population figures (metrics/population.ts), not a sweep row's addition:
 * check's JSON carries it beside the other figures, what the same runs cost with no brakes (replay of
 * the file with --preset none), as a sweep row does.
 */
import { describe, expect, it } from 'vitest';
import { populationMetrics } from '../../src/metrics/population.js';
import { cli } from '../cli/run.js';

const run = (costPico: number, baselinePico: number) => ({
  run: { stopReason: 'max_steps' as const, steps: 3, costPico, inputTokens: 0, cachedInputTokens: 0, outputTokens: 0, overshootPico: 0 },
  baseline: { stopReason: 'completed' as const, steps: 5, costPico: baselinePico },
});

describe('baselineCostUsd among the population figures', () => {
  it('populationMetrics: the baselines summed, in USD', () => {
    const metrics = populationMetrics([run(1_000_000, 3_000_000), run(2_000_000, 4_500_000)]);
    expect(metrics.baselineCostUsd).toBe(0.0000075);
    expect(populationMetrics([]).baselineCostUsd).toBe(0);
  });

  it("check's JSON: each scenario's figures carry it, what replay with no brakes costs", async () => {
    const checked = await cli('check', 'scenarios/production-mix.yaml', '--format', 'json');
    const figures = JSON.parse(checked.stdout).scenarios[0].figures;
    const none = JSON.parse((await cli('replay', 'scenarios/production-mix.yaml', '--preset', 'none', '--format', 'json')).stdout).summary.totalCostUsd as number;
    expect(none).toBeGreaterThan(figures.costUsd);
    expect(figures.baselineCostUsd).toBe(none);
  });
});
