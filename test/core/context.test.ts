import { describe, expect, it } from 'vitest';
import { NO_BRAKES } from '../../src/brakes/config.js';
import { ContextTracker } from '../../src/context/tracker.js';
import type { ContextStrategy } from '../../src/context/strategy.js';
import { replayTrace } from '../../src/replay/replay.js';
import { MINI_TABLE, call, distinctSteps, handPriced, handTable, toolCall, trace } from '../helpers.js';

function replay(t: ReturnType<typeof trace>, strategy: ContextStrategy, table = MINI_TABLE) {
  return replayTrace(t, { brakes: NO_BRAKES, strategy, prices: table, keepSteps: true });
}

describe('context tracker', () => {
  it('full history: each prompt holds system + goal + every earlier output and result', () => {
    const ctx = new ContextTracker(300, 50, { kind: 'full' });
    expect(ctx.view().inputTokens).toBe(350);
    ctx.markSent();
    ctx.addStep(100);
    ctx.addToolResult(400);
    ctx.closeStep();
    expect(ctx.view()).toEqual({ inputTokens: 850, fullInputTokens: 850, unchangedPrefixTokens: 350, historySteps: 1, firstKeptStep: 0 });
  });

  it('window: keeps the last K steps, each call with its result; a slide keeps only system + goal cached', () => {
    const ctx = new ContextTracker(300, 50, { kind: 'window', windowSteps: 2 });
    const sizes: number[] = [];
    const prefixes: number[] = [];
    for (let i = 0; i < 4; i++) {
      const view = ctx.view();
      sizes.push(view.inputTokens);
      prefixes.push(view.unchangedPrefixTokens);
      ctx.markSent();
      ctx.addStep(100);
      ctx.addToolResult(400);
      ctx.closeStep();
    }
    expect(sizes).toEqual([350, 850, 1350, 1350]);
    // Call 2 and 3 extend the previous prompt; call 4's window slid, so only system + goal match.
    expect(prefixes).toEqual([0, 350, 850, 350]);
  });

  it('tool-result cap truncates each result as it enters the context', () => {
    const ctx = new ContextTracker(100, 0, { kind: 'full', toolResultCap: 250 });
    ctx.markSent();
    ctx.addStep(10);
    ctx.addToolResult(1000);
    ctx.addToolResult(100);
    expect(ctx.view().inputTokens).toBe(100 + 10 + 250 + 100);
    expect(ctx.view().fullInputTokens).toBe(100 + 10 + 1000 + 100);
  });

  it('a backtrack drops the last step and the cache from that point', () => {
    const ctx = new ContextTracker(100, 0, { kind: 'full' });
    ctx.markSent();
    ctx.addStep(10);
    ctx.addToolResult(90);
    ctx.closeStep();
    ctx.markSent(); // the backtracking call sees 200 tokens
    ctx.dropLastStep();
    expect(ctx.view().inputTokens).toBe(100);
    expect(ctx.view().unchangedPrefixTokens).toBe(100);
  });
});

describe('strategies in replay', () => {
  const t = trace(distinctSteps(30, 150, 450), { system: 400 });

  it('a window never costs more than full history, and costs less once it slides', () => {
    const full = replay(t, { kind: 'full', cache: 'off' });
    const window = replay(t, { kind: 'window', windowSteps: 5, cache: 'off' });
    expect(window.costPico).toBeLessThan(full.costPico);
    expect(window.rows[10]!.inputTokens).toBe(400 + 5 * 600);
  });

  it('caching bills the unchanged prefix at the cached price and reports cached tokens per step and run', () => {
    const cached = replay(t, { kind: 'full', cache: 'on' });
    expect(cached.rows[0]!.cachedInputTokens).toBe(0);
    expect(cached.rows[1]!.cachedInputTokens).toBe(400);
    expect(cached.rows[2]!.cachedInputTokens).toBe(1000);
    expect(cached.cachedInputTokens).toBe(cached.rows.reduce((s, r) => s + r.cachedInputTokens, 0));
    const uncached = replay(t, { kind: 'full', cache: 'off' });
    expect(cached.costPico).toBeLessThan(uncached.costPico);
    expect(cached.inputTokens).toBe(uncached.inputTokens);
  });

  it('a sliding window loses the cache beyond system + goal each time it slides', () => {
    const windowed = replay(t, { kind: 'window', windowSteps: 3, cache: 'on' });
    // Calls 1..4 extend the prompt; from call 5 on the window slides every call.
    expect(windowed.rows.slice(1, 4).map((r) => r.cachedInputTokens)).toEqual([400, 1000, 1600]);
    expect(windowed.rows.slice(4).every((r) => r.cachedInputTokens === 400)).toBe(true);
  });

  it('cache writes are billed where the model prices them (Anthropic-style)', () => {
    const writer = handTable(handPriced('mini', { input: 3, output: 15, cached: 0.3, cacheWrite: 3.75 }));
    const r = replay(trace(distinctSteps(3, 100, 100), { system: 1000 }), { kind: 'full', cache: 'on' }, writer);
    expect(r.rows.map((row) => row.cacheWriteTokens)).toEqual([1000, 200, 200]);
  });

  it('recorded prompt sizes are kept; a strategy moves them only by what it removes', () => {
    const recorded = trace(
      [
        call(100, [toolCall('t', { i: 1 }, 1000)], { inputTokens: 550, cachedInputTokens: 0 }),
        call(100, [toolCall('t', { i: 2 }, 1000)], { inputTokens: 1650, cachedInputTokens: 512 }),
        call(100, undefined, { inputTokens: 2750, cachedInputTokens: 1536 }),
      ],
      { system: 500, origin: 'recorded' },
    );
    const asRecorded = replay(recorded, { kind: 'full' });
    expect(asRecorded.rows.map((r) => r.inputTokens)).toEqual([550, 1650, 2750]);
    expect(asRecorded.rows.map((r) => r.cachedInputTokens)).toEqual([0, 512, 1536]);
    // Growth model: 500, 1600, 2700; recorded carries 50 more each time (tool schemas and framing).
    expect(asRecorded.inputTokenDelta).toBe(150);
    const capped = replay(recorded, { kind: 'full', toolResultCap: 200 });
    expect(capped.rows.map((r) => r.inputTokens)).toEqual([550, 850, 1150]);
    expect(capped.rows[2]!.cachedInputTokens).toBeLessThanOrEqual(850 + 50);
  });

  it('--model re-prices the same tokens and cached share', () => {
    const other = handPriced('big', { input: 2.5, output: 10, cached: 1.25 });
    const table = handTable(handPriced('mini', { input: 0.15, output: 0.6, cached: 0.075 }), other);
    const recorded = trace([call(800, undefined, { inputTokens: 12_000, cachedInputTokens: 8000 })], { origin: 'recorded' });
    const r = replayTrace(recorded, { brakes: NO_BRAKES, strategy: { kind: 'full' }, prices: table, model: 'big' });
    expect(r.model).toBe('big');
    expect(r.cachedInputTokens).toBe(8000);
    // 4000 × 2.5 + 8000 × 1.25 + 800 × 10 per million = $0.028
    expect(r.costPico).toBe(28_000_000_000);
  });
});
