/**
 * A recorded call replayed under a strategy that changed its prompt, on a model that bills cache writes
 * (Anthropic-style), when the changed prompt falls below the provider's minimum cacheable prefix: the provider
 * caches nothing it would not serve ("shorter prompts cannot be cached, even if marked with cache_control"),
 * so the call bills no cache read and no cache write, its prompt plain input — as `--cache on` (kernel/meter.ts
 * cacheOn) bills it. Before, the recorded reads the rule no longer served were billed again as cache writes
 * (and the recorded writes kept), up to the whole prompt. The prompt as sent stays billed as recorded. Held
 * in the real loop, the readable replay and the compiled one (fast/recordedSums.ts: its sums under the rule).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NO_BRAKES } from '../../src/brakes/config.js';
import type { CacheMode, ContextStrategy } from '../../src/context/strategy.js';
import { recordedFormStats } from '../../src/fast/recordedForm.js';
import { flattenPrices } from '../../src/fast/replayFast.js';
import { runLoop } from '../../src/loop/run.js';
import { ReplaySource } from '../../src/loop/replaySource.js';
import type { ModelPricing } from '../../src/pricing/types.js';
import { replayTrace } from '../../src/replay/replay.js';
import type { CallRecord, Trace } from '../../src/trace/types.js';
import { brakesAtRow, expectFastAgrees, seededTrace, seededTraceArb, unbrakedRun } from '../fast/recordedTraces.js';
import { call, handPriced, handTable, toolCall, trace } from '../helpers.js';

/** claude-sonnet-* takes Anthropic's rule (pricing/cacheRules.ts): from 1,024 tokens, whole prefixes. */
const SONNET = handPriced('claude-sonnet-4', { input: 3, output: 15, cached: 0.3, cacheWrite: 3.75 }, 200_000);
const MIN = 1024;
const INPUT = SONNET.base.input;
const OUTPUT = SONNET.base.output;
const WINDOW_1 = (cache: CacheMode): ContextStrategy => ({ kind: 'window', windowSteps: 1, cache });

/**
 * A full-history recording as an Anthropic-style provider bills it (its client marks the cache at the end of
 * each prompt): a system prompt of `system` tokens, then steps of 10 output and 100 result tokens; a prompt
 * from the minimum on reads the previous prompt when that one was cached and writes the rest, for an hour
 * when `forAnHour`; a shorter one reads and writes nothing.
 */
function recording(system: number, forAnHour = false): Trace {
  const prompts = [0, 1, 2, 3, 4].map((i) => system + 110 * i);
  const calls = prompts.map((prompt, i): CallRecord => {
    const read = i > 0 && prompt >= MIN && prompts[i - 1]! >= MIN ? prompts[i - 1]! : 0;
    const written = prompt >= MIN ? prompt - read : 0;
    const usage = { inputTokens: prompt, cachedInputTokens: read, ...(forAnHour ? { cacheWrite1hTokens: written } : { cacheWriteTokens: written }) };
    return i === prompts.length - 1 ? call(10, [], { ...usage, final: true }) : call(10, [toolCall('t', { i }, 100)], usage);
  });
  return trace(calls, { system, model: SONNET.model, origin: 'recorded', outcome: 'completed' });
}

/** Each call's billed prompt, read, writes (both lifetimes) and cost in the real loop; the readable and compiled replays' totals agree with it. */
function billed(t: Trace, strategy: ContextStrategy) {
  const cache = strategy.cache!;
  const loop = runLoop(new ReplaySource(t), { strategy, cache, pricing: SONNET, systemTokens: t.header.systemTokens, goalTokens: 0, brakes: NO_BRAKES, keepSteps: true });
  const totals = { inputTokens: loop.inputTokens, cachedInputTokens: loop.cachedInputTokens, cacheWriteTokens: loop.cacheWriteTokens, costPico: loop.costPico };
  for (const engine of ['readable', 'compiled'] as const) {
    const r = replayTrace(t, { brakes: NO_BRAKES, strategy, pricing: SONNET, prices: handTable(SONNET), engine });
    expect({ inputTokens: r.inputTokens, cachedInputTokens: r.cachedInputTokens, cacheWriteTokens: r.cacheWriteTokens, costPico: r.costPico }, engine).toEqual(totals);
  }
  const rows = loop.rows.map((r) => ({ input: r.inputTokens, cached: r.cachedInputTokens, written: r.cacheWriteTokens, written1h: r.cacheWrite1hTokens ?? 0, costPico: r.costPico }));
  return { rows, ...totals };
}

describe('the cache as recorded under window:1, a writing model, the prompt one below the minimum (Anthropic: 1,024)', () => {
  for (const forAnHour of [false, true]) {
    it(`bills no read and no write: the prompt is plain input, as --cache on bills it (writes ${forAnHour ? 'for an hour' : 'for five minutes'}; before: up to the whole prompt written)`, () => {
      // Under window:1 every prompt from the second is the system prompt and one step: 913 + 110 = 1,023 tokens.
      const t = recording(913, forAnHour);
      // As recorded, calls 2..4 (1,133, 1,243, 1,353 tokens) wrote 1,133, 110, 110 and read 0, 1,133, 1,243.
      expect(t.calls.map((c) => (c.cacheWriteTokens ?? 0) + (c.cacheWrite1hTokens ?? 0))).toEqual([0, 0, 1133, 110, 110]);
      const r = billed(t, WINDOW_1('recorded'));
      expect(r.rows.map((row) => row.input)).toEqual([913, 1023, 1023, 1023, 1023]);
      expect(r.rows.map((row) => [row.cached, row.written, row.written1h])).toEqual(Array.from({ length: 5 }, () => [0, 0, 0]));
      expect(r.costPico).toBe((913 + 4 * 1023) * INPUT + 50 * OUTPUT);
      expect(r).toEqual(billed(t, WINDOW_1('on')));
    });
  }

  it('at the minimum and one above, writes what is not served, as --cache on does', () => {
    for (const system of [914, 915]) {
      const t = recording(system);
      const r = billed(t, WINDOW_1('recorded'));
      const windowed = system + 110;
      // The unchanged prefix under the window is the system prompt (below the minimum): nothing served, the prompt written.
      expect(r.rows.map((row) => [row.input, row.cached, row.written])).toEqual([[system, 0, 0], ...Array.from({ length: 4 }, () => [windowed, 0, windowed])]);
      expect(r).toEqual(billed(t, WINDOW_1('on')));
    }
  });

  it('bills the prompt as sent (full history) exactly as recorded', () => {
    const t = recording(913);
    const r = billed(t, { kind: 'full', cache: 'recorded' });
    expect(r.rows.map((row) => [row.input, row.cached, row.written])).toEqual(t.calls.map((c) => [c.inputTokens, c.cachedInputTokens, c.cacheWriteTokens]));
  });
});

/** Anthropic-style prices under stated rules whose minimum sits among the windowed prompts below. */
const anthropicRule = (minPrefixTokens: number): ModelPricing => ({ ...handPriced(`a${minPrefixTokens}`, { input: 3, output: 15, cached: 0.3, cacheWrite: 3.75 }, 200_000), cacheRule: { minPrefixTokens, incrementTokens: 1, source: 'test' } });
const PRICINGS = [SONNET, anthropicRule(2048), anthropicRule(4096)];

/**
 * Recordings made under another model or client (reads and writes whatever the prompt's size: a minimum of
 * their own, or none), system prompts about the rules' minimums, steps small enough that a window's prompt
 * crosses them.
 */
const recordedTraceArb = seededTraceArb(fc.oneof(fc.integer({ min: 20, max: 90 }), fc.integer({ min: 2, max: 12 })), {
  system: fc.integer({ min: 300, max: 4200 }),
  hourEvery: fc.integer({ min: 2, max: 60 }),
  /** Of five calls, how many write, and how many record a prompt below the growth model's (none of either: a window may slide in closed form). */
  writeFifths: fc.integer({ min: 0, max: 5 }),
  belowGrowthFifths: fc.constantFrom(0, 0, 1),
  failEvery: fc.integer({ min: 8, max: 200 }),
}).map(({ n, seed, system, hourEvery, writeFifths, belowGrowthFifths, failEvery }) =>
  seededTrace({ n, seed, header: { system, outcome: 'completed', origin: 'recorded' } }, ({ i, last, next, history, previousPrompt }) => {
    const output = 5 + next(120);
    const prompt = Math.max(0, system + history + next(150) - (next(5) < belowGrowthFifths ? 400 : 0));
    const read = Math.min(prompt, Math.max(0, previousPrompt - next(80)));
    const written = prompt - read;
    const call: CallRecord = { type: 'call', outputTokens: output, latencyMs: 100 + next(2000), inputTokens: prompt, cachedInputTokens: read };
    if (next(5) < writeFifths) {
      if (i % hourEvery === hourEvery - 1) call.cacheWrite1hTokens = written;
      else call.cacheWriteTokens = written;
    }
    if (i % failEvery === failEvery - 1) call.failed = { status: 529, message: 'overloaded' };
    else call.toolCalls = [{ name: next(2) ? 'read' : 'run', arguments: { f: next(300) }, resultTokens: next(500), latencyMs: next(300) }];
    if (last && call.failed === undefined) call.final = true;
    return call;
  }),
);

const strategyArb = fc.constantFrom<ContextStrategy>(
  { kind: 'window', windowSteps: 1 },
  { kind: 'window', windowSteps: 2 },
  { kind: 'window', windowSteps: 6 },
  { kind: 'mask', maskSteps: 2 },
  { kind: 'full', toolResultCap: 150 },
);

describe('readable = fast where a changed prompt crosses the rule minimum (seeded)', () => {
  it('bills no read or write below the minimum, and agrees on every figure with each brake at a running total ±1', () => {
    const before = { ...recordedFormStats };
    const reached = { belowWithRecordedCache: 0, atOrAboveWritten: 0 };
    fc.assert(
      fc.property(recordedTraceArb, strategyArb, fc.constantFrom(...PRICINGS), fc.double({ min: 0, max: 1, noNaN: true }), fc.constantFrom(-1, 0, 1), fc.subarray(['cost', 'tokens', 'window'] as const), (t, strategy, pricing, where, delta, brakes) => {
        const options = { strategy, cache: 'recorded' as const, pricing, systemTokens: t.header.systemTokens, goalTokens: 0 };
        const free = unbrakedRun(t, options);
        const min = flattenPrices(pricing).minCachePrefix;
        free.rows.forEach((row, k) => {
          // Every strategy here changes the prompt; a failed call stays as recorded.
          if (row.failed) return;
          const recorded = t.calls[row.call - 1]!;
          if (row.inputTokens < min) {
            expect([row.cachedInputTokens, row.cacheWriteTokens], `call ${k}`).toEqual([0, 0]);
            if ((recorded.cachedInputTokens ?? 0) + (recorded.cacheWriteTokens ?? 0) + (recorded.cacheWrite1hTokens ?? 0) > 0) reached.belowWithRecordedCache++;
          } else if (row.cacheWriteTokens > 0) reached.atOrAboveWritten++;
        });
        expectFastAgrees(t, options, brakesAtRow(free, { where, delta, brakes }));
      }),
      { numRuns: 300, seed: 20_260_611 },
    );
    // The boundary was reached both ways, and the recorded closed form took windows filling and slid (its sums under each rule).
    expect(reached.belowWithRecordedCache).toBeGreaterThan(500);
    expect(reached.atOrAboveWritten).toBeGreaterThan(500);
    expect(recordedFormStats.filling - before.filling).toBeGreaterThan(150);
    expect(recordedFormStats.window - before.window).toBeGreaterThan(50);
  });
});
