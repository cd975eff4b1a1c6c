/**
 * A call's recorded cache figures are billed no larger than the prompt they are parts of. A recording may
 * give cache writes without the prompt's size (then the growth model's prompt is billed), or a failed call
 * its writes without its prompt (billed as 0 tokens): the parts were billed whole, past the prompt, while
 * the live loop, reading the same usage from `loopcost serve`, capped them at it (agent/openaiUsage.ts),
 * so the real loop and replay of one recording disagreed.
 */
import { describe, expect, it } from 'vitest';
import { NO_BRAKES } from '../../src/brakes/config.js';
import { usdPerMillionToPico } from '../../src/money.js';
import { replayTrace } from '../../src/replay/replay.js';
import { call, handPriced, handTable, toolCall, trace } from '../helpers.js';

const PRICING = handPriced('hourly', { input: 1, output: 4, cached: 0.1, cacheWrite: 1.25 });
PRICING.base.cacheWrite1h = usdPerMillionToPico(2);
const SYSTEM = 100;

describe('recorded cache parts past their prompt', () => {
  for (const engine of ['compiled', 'readable'] as const) {
    it(`are capped at it (${engine})`, () => {
      const t = trace([call(50, [toolCall('run', { x: 1 }, 20)], { cacheWrite1hTokens: 314 }), call(10, undefined, { cachedInputTokens: 900, cacheWriteTokens: 40 })], { system: SYSTEM, goal: 0, model: 'hourly' });
      const r = replayTrace(t, { brakes: NO_BRAKES, strategy: { kind: 'full', cache: 'recorded' }, prices: handTable(PRICING), pricing: PRICING, engine });
      // Call 1: a 100-token prompt, all of it written for an hour (not 314); call 2: its 170-token prompt all read from the cache (not 900), nothing left to write.
      expect(r.inputTokens).toBe(100 + 170);
      expect(r.cachedInputTokens).toBe(170);
      expect(r.cacheWriteTokens).toBe(100);
      expect(r.costPico).toBe(100 * 2_000_000 + 50 * 4_000_000 + 170 * 100_000 + 10 * 4_000_000);
    });

    it(`and a failed call's, whose prompt is not recorded, at nothing (${engine})`, () => {
      const t = trace([call(0, undefined, { failed: { status: 500, message: 'server error' }, cacheWriteTokens: 300 }), call(10)], { system: SYSTEM, goal: 0, model: 'hourly' });
      const r = replayTrace(t, { brakes: NO_BRAKES, strategy: { kind: 'full', cache: 'recorded' }, prices: handTable(PRICING), pricing: PRICING, engine });
      expect(r.cacheWriteTokens).toBe(0);
      expect(r.costPico).toBe(100 * 1_000_000 + 10 * 4_000_000);
    });
  }
});
