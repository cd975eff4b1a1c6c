/** Random traces, brakes, strategies and prices shared by the fast-path property tests. */
import fc from 'fast-check';
import type { BrakeConfig } from '../../src/brakes/config.js';
import type { ContextStrategy } from '../../src/context/strategy.js';
import type { ModelPricing } from '../../src/pricing/types.js';
import { usdPerMillionToPico } from '../../src/money.js';
import type { CallRecord } from '../../src/trace/types.js';
import { handPriced } from '../helpers.js';

export const tiered: ModelPricing = {
  ...handPriced('tiered', { input: 1.25, output: 10, cached: 0.125, cacheWrite: 1.5 }, 40_000),
  tiers: [{ aboveInputTokens: 20_000, prices: { input: usdPerMillionToPico(2.5), cachedInput: usdPerMillionToPico(0.25), output: usdPerMillionToPico(15) } }],
};
// With an OpenAI-style minimum cacheable prefix (1,024 tokens, hits in 128-token increments).
export const ruled: ModelPricing = { ...handPriced('ruled', { input: 2.5, output: 10, cached: 1.25 }, 30_000), cacheRule: { minPrefixTokens: 1024, incrementTokens: 128, source: 'test' } };
// Anthropic-style: cache reads 0.1×, writes 1.25× for five minutes and 2× for an hour (the predictive bound's write price: kernel/cacheWrites.ts); a tier above 20,000 tokens.
export const hourly: ModelPricing = {
  ...handPriced('hourly', { input: 3, output: 15, cached: 0.3, cacheWrite: 3.75 }, 60_000),
  tiers: [{ aboveInputTokens: 20_000, prices: { input: usdPerMillionToPico(6), cachedInput: usdPerMillionToPico(0.6), cacheWrite: usdPerMillionToPico(7.5), cacheWrite1h: usdPerMillionToPico(12), output: usdPerMillionToPico(22.5) } }],
};
hourly.base.cacheWrite1h = usdPerMillionToPico(6);
export const pricings = [handPriced('plain', { input: 0.15, output: 0.6 }, 30_000), tiered, ruled, hourly];

export const callArb: fc.Arbitrary<CallRecord> = fc
  .record({
    outputTokens: fc.integer({ min: 0, max: 1500 }),
    latencyMs: fc.option(fc.integer({ min: 0, max: 4000 }), { nil: undefined }),
    tools: fc.array(
      fc.record({
        name: fc.constantFrom('read', 'run'),
        x: fc.integer({ min: 0, max: 3 }),
        resultTokens: fc.integer({ min: 0, max: 4000 }),
        error: fc.option(fc.constantFrom('E1', 'E2'), { nil: undefined }),
        latencyMs: fc.option(fc.integer({ min: 0, max: 2000 }), { nil: undefined }),
      }),
      { maxLength: 3 },
    ),
    kind: fc.constantFrom('normal', 'normal', 'normal', 'normal', 'backtrack', 'unparseable', 'failed', 'compaction', 'final'),
    recorded: fc.option(fc.record({ extra: fc.integer({ min: -200, max: 3000 }), cached: fc.integer({ min: 0, max: 30_000 }), write: fc.integer({ min: 0, max: 3000 }), write1h: fc.integer({ min: 0, max: 500 }) }), { nil: undefined }),
    reasoning: fc.integer({ min: 0, max: 800 }),
    // 1 h cache writes recorded without a prompt size (the trace rules allow it): a call the meter's cache `on` writes for an hour.
    write1hAlone: fc.oneof({ arbitrary: fc.constant(0), weight: 9 }, { arbitrary: fc.integer({ min: 1, max: 400 }), weight: 1 }),
  })
  .map(({ outputTokens, latencyMs, tools, kind, recorded, reasoning, write1hAlone }) => {
    const call: CallRecord = { type: 'call', outputTokens, reasoningTokens: Math.min(reasoning, outputTokens), ...(latencyMs === undefined ? {} : { latencyMs }) };
    if (tools.length > 0) {
      call.toolCalls = tools.map((t) => ({
        name: t.name,
        arguments: { x: t.x },
        resultTokens: t.resultTokens,
        ...(t.latencyMs === undefined ? {} : { latencyMs: t.latencyMs }),
        ...(t.error ? { error: t.error } : {}),
      }));
    }
    if (kind === 'backtrack') call.backtrack = true;
    if (kind === 'unparseable') call.unparseable = true;
    if (kind === 'failed') call.failed = { status: 429, message: 'rate limited' };
    if (kind === 'compaction') call.compaction = true;
    if (kind === 'final') call.final = true;
    if (recorded) {
      // A plausible recorded prompt: a running size plus noise, with cache parts inside it.
      call.inputTokens = 2000 + recorded.extra * 3;
      call.cachedInputTokens = Math.min(recorded.cached, call.inputTokens);
      call.cacheWriteTokens = Math.min(recorded.write, call.inputTokens - call.cachedInputTokens);
      call.cacheWrite1hTokens = Math.min(recorded.write1h, call.inputTokens - call.cachedInputTokens - call.cacheWriteTokens);
    } else if (write1hAlone > 0) call.cacheWrite1hTokens = write1hAlone;
    return call;
  });

export const brakesArb: fc.Arbitrary<BrakeConfig> = fc.record({
  maxSteps: fc.option(fc.integer({ min: 1, max: 40 }), { nil: undefined }),
  maxCostPico: fc.option(fc.integer({ min: 0, max: 200_000_000_000 }), { nil: undefined }),
  budgetMode: fc.constantFrom('check' as const, 'predict' as const),
  timeoutMs: fc.option(fc.integer({ min: 0, max: 100_000 }), { nil: undefined }),
  maxRepeat: fc.option(fc.integer({ min: 1, max: 4 }), { nil: undefined }),
  repeatMode: fc.constantFrom('total' as const, 'consecutive' as const, 'cycle' as const),
  maxSameError: fc.option(fc.integer({ min: 1, max: 4 }), { nil: undefined }),
  sameErrorMode: fc.constantFrom('consecutive' as const, 'total' as const),
  maxTokens: fc.option(fc.integer({ min: 1, max: 400_000 }), { nil: undefined }),
  maxBacktracks: fc.option(fc.integer({ min: 0, max: 3 }), { nil: undefined }),
  contextWindow: fc.option(fc.oneof(fc.integer({ min: 1000, max: 40_000 }), fc.constant('model' as const)), { nil: undefined }),
  maxOutputTokens: fc.option(fc.integer({ min: 1, max: 3000 }), { nil: undefined }),
}).map((b) => Object.fromEntries(Object.entries(b).filter(([, v]) => v !== undefined)) as unknown as BrakeConfig);

export const strategyArb: fc.Arbitrary<ContextStrategy> = fc.record({
  window: fc.option(fc.integer({ min: 1, max: 8 }), { nil: undefined }),
  cap: fc.option(fc.integer({ min: 0, max: 2000 }), { nil: undefined }),
}).map(({ window, cap }) => ({ kind: window === undefined ? 'full' : 'window', ...(window === undefined ? {} : { windowSteps: window }), ...(cap === undefined ? {} : { toolResultCap: cap }) }) as ContextStrategy);


/** A step without a recorded prompt size whose tool calls all run, some recording 1 h cache writes alone: what the closed form takes. */
const plainStepArb: fc.Arbitrary<CallRecord> = fc
  .record({
    outputTokens: fc.integer({ min: 0, max: 1500 }),
    reasoning: fc.integer({ min: 0, max: 800 }),
    latencyMs: fc.option(fc.integer({ min: 0, max: 4000 }), { nil: undefined }),
    results: fc.array(fc.record({ x: fc.integer({ min: 0, max: 30 }), resultTokens: fc.integer({ min: 0, max: 4000 }) }), { minLength: 1, maxLength: 2 }),
    write1h: fc.oneof({ arbitrary: fc.constant(0), weight: 2 }, { arbitrary: fc.integer({ min: 1, max: 400 }), weight: 1 }),
  })
  .map(({ outputTokens, reasoning, latencyMs, results, write1h }) => ({
    type: 'call' as const,
    outputTokens,
    reasoningTokens: Math.min(reasoning, outputTokens),
    ...(latencyMs === undefined ? {} : { latencyMs }),
    ...(write1h > 0 ? { cacheWrite1hTokens: write1h } : {}),
    toolCalls: results.map((r) => ({ name: 'run', arguments: { x: r.x }, resultTokens: r.resultTokens })),
  }));

/**
 * Calls without a recorded prompt size, most of them plain steps (the closed form takes them in long
 * stretches), some recording cache writes for an hour alone, which the meter's cache `on` writes for an
 * hour; now and then one of callArb's (its prompt size dropped).
 */
export const plainCallArb: fc.Arbitrary<CallRecord> = fc.oneof(
  { arbitrary: plainStepArb, weight: 6 },
  {
    arbitrary: callArb.map((call) => {
      const { inputTokens: _input, cachedInputTokens: _cached, cacheWriteTokens: _write, ...plain } = call;
      return plain;
    }),
    weight: 1,
  },
);
