/**
 * A scenario's `cacheHitShare` below 1 under `--cache on`: the agent writes the cached tokens its provider
 * serves, and the provider's minimum-prefix / increment rule (pricing/cacheRules.ts, as the kernel meter's
 * cache-on applies it) holds for the share served, as it does for the whole prefix at a share of 1. So a
 * worse cache is never cheaper than a perfect one, in replay, generate and sweep alike.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { NO_BRAKES } from '../../src/brakes/config.js';
import { cacheRuleFor } from '../../src/pricing/cacheRules.js';
import { loadPriceTable } from '../../src/pricing/index.js';
import { generateTraces } from '../../src/scenario/generate.js';
import { parseScenario, type Scenario } from '../../src/scenario/load.js';
import { scenarioRuns, type SyntheticRun } from '../../src/scenario/run.js';
import type { CallRecord } from '../../src/trace/types.js';
import { cli, tempDir } from '../cli/run.js';

const prices = loadPriceTable();

/** Haiku 4.5 (4,096-token minimum, cache writes billed) with prompts of ~800–4,400 tokens; gpt-4o-mini (1,024, 128-token increments) crossing its minimum. */
const FILES: Record<string, (share: number) => string> = {
  haiku: (share) => `scenario: loopcost.scenario/1
model: claude-haiku-4-5
systemTokens: 800
cacheHitShare: ${share}
context: { cache: "on" }
runs: 60
population:
  - { behaviour: healthy, weight: 1, steps: { kind: uniform, min: 3, max: 8 }, outputTokens: 150, toolResultTokens: 300 }
`,
  mini: (share) => `scenario: loopcost.scenario/1
model: gpt-4o-mini
systemTokens: 300
promptOverhead: { fixedTokens: 0, perStepTokens: 50 }
cacheHitShare: ${share}
context: { cache: "on" }
runs: 40
population:
  - { behaviour: healthy, weight: 1, steps: { kind: uniform, min: 3, max: 12 }, outputTokens: 100, toolResultTokens: { kind: uniform, min: 50, max: 600 } }
`,
};

const scenarioOf = (name: string, share: number): Scenario => parseScenario(FILES[name]!(share), `${name}.yaml`);

interface CacheFigures {
  /** The prompt, when known (a generated trace records none). */
  input?: number;
  cached: number;
  written: number;
}

/** Every call's cached tokens as the provider's rule allows: none from a prompt below the minimum (nor written), else at least the minimum, in its increments. */
function expectRuleHeld(model: string, calls: readonly CacheFigures[]): void {
  const rule = cacheRuleFor(model)!;
  for (const { input, cached, written } of calls) {
    if (input !== undefined && input < rule.minPrefixTokens) {
      expect(cached).toBe(0);
      expect(written).toBe(0);
    } else if (cached > 0) {
      expect(cached).toBeGreaterThanOrEqual(rule.minPrefixTokens);
      expect(cached % rule.incrementTokens).toBe(0);
    }
  }
}

/** A run's calls as billed. */
const billed = (run: SyntheticRun): CacheFigures[] => run.result.rows.map((row) => ({ input: row.inputTokens, cached: row.cachedInputTokens, written: row.cacheWriteTokens }));

function replayed(name: string, share: number) {
  return [...scenarioRuns(scenarioOf(name, share), { prices, seed: 3, brakes: NO_BRAKES, keepSteps: true }, true)];
}

const totalCost = (runs: ReturnType<typeof replayed>) => runs.reduce((sum, run) => sum + run.result.costPico, 0);

describe('a cache hit share below 1 keeps the provider caching rule', () => {
  it('replay: Haiku 4.5 caches nothing below 4,096 tokens at a share of 0.95 either, so the worse cache costs no less than the perfect one', () => {
    const worse = replayed('haiku', 0.95);
    const perfect = replayed('haiku', 1);
    for (const run of worse) expectRuleHeld('claude-haiku-4-5', billed(run));
    expect(worse.flatMap(billed).every((call) => call.cached === 0)).toBe(true);
    expect(totalCost(worse)).toBeGreaterThanOrEqual(totalCost(perfect));
  });

  it('replay: gpt-4o-mini serves the share in 128-token increments from 1,024, and a lower share never costs less', () => {
    const costs = [0.5, 0.9, 0.99, 1].map((share) => {
      const runs = replayed('mini', share);
      for (const run of runs) expectRuleHeld('gpt-4o-mini', billed(run));
      // A share of 0.99 still caches the calls whose served prefix reaches the minimum.
      if (share === 0.99) expect(runs.some((run) => billed(run).some((c) => c.cached >= 1024))).toBe(true);
      return totalCost(runs);
    });
    for (let i = 1; i < costs.length; i++) expect(costs[i - 1]!).toBeGreaterThanOrEqual(costs[i]!);
  });

  it('generate: the traces it writes carry the cached tokens the rule allows', () => {
    for (const [name, model] of [['haiku', 'claude-haiku-4-5'], ['mini', 'gpt-4o-mini']] as const) {
      const traces = [...generateTraces(scenarioOf(name, 0.95), { prices, overrides: { runs: 20, seed: 3 } })];
      for (const trace of traces) {
        const calls = trace.calls.filter((c): c is CallRecord => c.type === 'call');
        expectRuleHeld(model, calls.map((c) => ({ cached: c.cachedInputTokens ?? 0, written: c.cacheWriteTokens ?? 0 })));
        if (model === 'claude-haiku-4-5') expect(calls.every((c) => (c.cachedInputTokens ?? 0) === 0)).toBe(true);
      }
    }
  });

  it('sweep: a partial hit share swept from its recordings costs what replay gives, and no less than a share of 1', async () => {
    const dir = tempDir();
    const file = (share: number) => {
      const path = join(dir, `haiku-${share}.yaml`);
      writeFileSync(path, FILES.haiku!(share));
      return path;
    };
    const sweepCost = async (path: string) => JSON.parse((await cli('sweep', path, '--preset', 'none', '--grid', 'max-steps=5,100', '--format', 'json')).stdout).configurations[1].costUsd as number;
    const worse = file(0.95);
    const replay = JSON.parse((await cli('replay', worse, '--preset', 'none', '--format', 'json')).stdout).runs as { costUsd: number }[];
    const worseCost = await sweepCost(worse);
    expect(worseCost).toBeCloseTo(replay.reduce((sum, run) => sum + run.costUsd, 0), 9);
    expect(worseCost).toBeGreaterThanOrEqual((await sweepCost(file(1))) - 1e-9);
  });
});
