/**
 * A one-agent session tree and a lone replay of the same run cost the same under a summary or hybrid strategy with the
 * cache recorded or on, when replaySessionTree's caller hands it prices straight from the table (`prices.resolve(model)`,
 * as the library's hints say): the tree meters with the provider's cache rule (pricing/cacheRules.ts), as replayTrace
 * resolves it (replay.ts resolveTracePricing). Before the fix the tree served a summary call's cached prefix (and, with
 * the cache on, every call's) token by token, where the provider serves it from its minimum in its units: on the shared
 * mini-swe-agent sqlfluff-1517 run under summary:trigger=8000,keep=2,tokens=500 the tree billed $0.0879 where the lone
 * replay bills $0.0882.
 */
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { NO_BRAKES } from '../../src/brakes/config.js';
import { parseContextSpec, type CacheMode, type ContextStrategy } from '../../src/context/strategy.js';
import { loadTraceFile } from '../../src/import/index.js';
import { loadPriceTable } from '../../src/pricing/index.js';
import type { ModelPricing, PriceTable } from '../../src/pricing/types.js';
import { replayTrace } from '../../src/replay/replay.js';
import type { CallRecord, Trace } from '../../src/trace/types.js';
import { replaySessionTree } from '../../src/tree/engine.js';
import { lcg } from '../agent/strategyRuns.js';
import { call, handPriced, handTable, toolCall, trace } from '../helpers.js';

const SQLFLUFF = '../shared/traces/mini-swe-agent/deepseek_chat_dev/sqlfluff__sqlfluff-1517.traj.json.gz';

/** `run` alone as a one-agent tree, priced by `pricing` as the caller resolved it. */
function treeCost(run: Trace, strategy: ContextStrategy, pricing: ModelPricing, cache: CacheMode) {
  const tree = { sessionId: 's', agents: [{ agentId: 'main', kind: 'main' as const, runs: [run] }], notes: [] };
  return replaySessionTree(tree, { brakes: NO_BRAKES, strategy, pricingOf: () => pricing, cacheOf: () => cache }).totals;
}

describe('a one-agent tree prices a run as its lone replay does (the provider cache rule)', () => {
  it.skipIf(!existsSync(SQLFLUFF))('the shared mini-swe-agent sqlfluff-1517 run under summary:trigger=8000,keep=2,tokens=500, cache recorded', async () => {
    const [run] = await loadTraceFile(SQLFLUFF);
    const prices = loadPriceTable();
    const strategy: ContextStrategy = { ...parseContextSpec('summary:trigger=8000,keep=2,tokens=500'), cache: 'recorded' };
    const lone = replayTrace(run!, { brakes: NO_BRAKES, strategy, prices, keepSteps: true });
    // (88_198_488_000 before its recorded reads under the strategy were capped by DeepSeek's 64-token units too: kernel/meter.ts servedCachedTokens.)
    expect(lone.costPico).toBe(89_072_424_000);
    const tree = treeCost(run!, strategy, prices.resolve(run!.header.model, run!.header.provider, run!.header.recordedAt), 'recorded');
    expect([tree.costPico, tree.summaryCalls, tree.summaryCostPico]).toEqual([lone.costPico, lone.summaryCalls, lone.summaryCostPico]);
  });

  // Two models whose providers serve the cache by a rule (DeepSeek: 64-token units; OpenAI: from 1,024 tokens, in 128s).
  const MODELS = [handPriced('deepseek-chat', { input: 0.27, output: 1.1, cached: 0.07 }, 128_000), handPriced('gpt-4o-mini', { input: 0.15, output: 0.6, cached: 0.075 }, 128_000)];

  /** A recorded run of 8–30 steps of seeded sizes, each call's prompt and its cached part recorded. */
  function recording(next: (n: number) => number, model: string): Trace {
    const calls: CallRecord[] = [];
    let prompt = 1_500 + next(1_000);
    let previous = 0; // the prompt before: what the cache could serve
    for (let i = 0, steps = 8 + next(23); i < steps; i++) {
      const output = 30 + next(400);
      const result = 50 + next(2_500);
      calls.push(call(output, [toolCall('t', { i }, result)], { inputTokens: prompt, cachedInputTokens: Math.max(0, previous - next(60)) }));
      previous = prompt;
      prompt += output + result;
    }
    return trace(calls, { system: 1_200, goal: 300, model, origin: 'recorded', outcome: 'completed' });
  }

  /** A seeded summary or hybrid strategy under `cache`. */
  function strategyOf(next: (n: number) => number, cache: CacheMode): ContextStrategy {
    const summary = { triggerTokens: 4_000 + next(12_000), keepSteps: 1 + next(4), summaryTokens: 100 + next(900) };
    return next(2) === 0 ? { kind: 'summary', cache, summary } : { kind: 'hybrid', cache, summary, maskSteps: 2 + next(8) };
  }

  it('seeded: tree and lone replay cost the same, summary and hybrid, cache recorded and on, pricing from the table', () => {
    let summaryCalls = 0;
    for (let seed = 1; seed <= 60; seed++) {
      const next = lcg(seed);
      const pricing = MODELS[seed % MODELS.length]!;
      const prices: PriceTable = handTable(pricing);
      const run = recording(next, pricing.model);
      for (const cache of ['recorded', 'on'] as const) {
        const strategy = strategyOf(next, cache);
        const lone = replayTrace(run, { brakes: NO_BRAKES, strategy, prices });
        const tree = treeCost(run, strategy, prices.resolve(pricing.model), cache);
        expect([tree.costPico, tree.cachedInputTokens, tree.summaryCalls ?? 0], `seed ${seed} ${cache} ${JSON.stringify(strategy)}`).toEqual([lone.costPico, lone.cachedInputTokens, lone.summaryCalls ?? 0]);
        summaryCalls += lone.summaryCalls ?? 0;
      }
    }
    expect(summaryCalls).toBeGreaterThan(60); // the strategies made summary calls to price
  });
});
