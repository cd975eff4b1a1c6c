import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NO_BRAKES, type BrakeConfig } from '../../src/brakes/config.js';
import { replayTrace } from '../../src/replay/replay.js';
import { buildReplayReport } from '../../src/report/replayReport.js';
import { pricedModelRecords } from '../../src/report/pricedModels.js';
import { renderJson, renderCsv, renderTable } from '../../src/report/render.js';
import type { CallRecord } from '../../src/trace/types.js';
import { MINI, MINI_TABLE, trace } from '../helpers.js';

const toolArb = fc.record({
  name: fc.constantFrom('read', 'run', 'edit'),
  arguments: fc.record({ x: fc.integer({ min: 0, max: 4 }) }),
  resultTokens: fc.integer({ min: 0, max: 5000 }),
  error: fc.option(fc.constantFrom('E1', 'E2'), { nil: undefined }),
  latencyMs: fc.integer({ min: 0, max: 3000 }),
});

const callArb: fc.Arbitrary<CallRecord> = fc
  .record({
    outputTokens: fc.integer({ min: 0, max: 2000 }),
    latencyMs: fc.integer({ min: 0, max: 5000 }),
    toolCalls: fc.array(toolArb, { minLength: 1, maxLength: 3 }),
    backtrack: fc.boolean(),
    reasoningTokens: fc.integer({ min: 0, max: 500 }),
  })
  .map(({ backtrack, ...rest }) => {
    const call: CallRecord = { type: 'call', ...rest, reasoningTokens: Math.min(rest.reasoningTokens, rest.outputTokens) };
    if (backtrack && rest.outputTokens % 5 === 0) call.backtrack = true;
    return call;
  });

const traceArb = fc
  .record({ calls: fc.array(callArb, { minLength: 1, maxLength: 40 }), system: fc.integer({ min: 0, max: 4000 }), finish: fc.boolean() })
  .map(({ calls, system, finish }) => trace(finish ? [...calls, { type: 'call', outputTokens: 50 }] : calls, { system }));

function replay(t: ReturnType<typeof trace>, brakes: Partial<BrakeConfig>, strategy = { kind: 'full' as const, cache: 'off' as const }) {
  return replayTrace(t, { brakes: { ...NO_BRAKES, ...brakes }, strategy, prices: MINI_TABLE, keepSteps: true });
}

describe('properties', () => {
  it('cost never decreases as max steps grows', () => {
    fc.assert(
      fc.property(traceArb, fc.integer({ min: 1, max: 40 }), fc.integer({ min: 0, max: 10 }), (t, steps, more) => {
        expect(replay(t, { maxSteps: steps + more }).costPico).toBeGreaterThanOrEqual(replay(t, { maxSteps: steps }).costPico);
      }),
      { numRuns: 200, seed: 7301 },
    );
  });

  it('a window never costs more than full history without caching', () => {
    fc.assert(
      fc.property(traceArb, fc.integer({ min: 1, max: 10 }), fc.option(fc.integer({ min: 0, max: 3000 }), { nil: undefined }), (t, k, cap) => {
        const full = replay(t, {}, { kind: 'full', cache: 'off', ...(cap === undefined ? {} : { toolResultCap: cap }) } as never);
        const window = replay(t, {}, { kind: 'window', windowSteps: k, cache: 'off', ...(cap === undefined ? {} : { toolResultCap: cap }) } as never);
        expect(window.costPico).toBeLessThanOrEqual(full.costPico);
        expect(window.inputTokens).toBeLessThanOrEqual(full.inputTokens);
      }),
      { numRuns: 200, seed: 7302 },
    );
  });

  it('check mode: the budget is exceeded by less than one call', () => {
    fc.assert(
      fc.property(traceArb, fc.integer({ min: 1, max: 5_000_000_000 }), (t, limit) => {
        const check = replay(t, { maxCostPico: limit });
        const lastCall = check.rows.at(-1)?.costPico ?? 0;
        expect(check.overshootPico).toBe(Math.max(0, check.costPico - limit));
        if (check.overshootPico > 0) expect(check.overshootPico).toBeLessThanOrEqual(lastCall);
      }),
      { numRuns: 300, seed: 7303 },
    );
  });

  it('predict mode overshoots only when a response is longer than maxOutputTokens (synthetic prompts are estimated exactly)', () => {
    const overshoots: number[] = [];
    fc.assert(
      fc.property(traceArb, fc.integer({ min: 1, max: 5_000_000_000 }), fc.integer({ min: 1, max: 2500 }), (t, limit, maxOutputTokens) => {
        const predict = replay(t, { maxCostPico: limit, budgetMode: 'predict', maxOutputTokens });
        expect(predict.overshootPico).toBe(Math.max(0, predict.costPico - limit));
        if (predict.overshootPico > 0) {
          // The call that crossed is the last one made: its response was longer than the bound allowed.
          expect(predict.rows.at(-1)!.outputTokens).toBeGreaterThan(maxOutputTokens);
          overshoots.push(predict.overshootPico);
        }
        // With max_tokens above every response (the default 4096 here), never.
        expect(replay(t, { maxCostPico: limit, budgetMode: 'predict' }).overshootPico).toBe(0);
      }),
      { numRuns: 300, seed: 7305 },
    );
    // The property above is not vacuous: short max_tokens do overshoot.
    expect(overshoots.length).toBeGreaterThan(0);
  });

  it('predict mode may overshoot when a recorded prompt outgrows its estimate (view + the last call’s overhead)', () => {
    // Recorded prompts carry 100 tokens of overhead, then 40,000 (a large attachment the growth model
    // does not see): the third call's estimate is 1,300 tokens, its prompt 41,300.
    const calls: CallRecord[] = [
      { type: 'call', outputTokens: 100, inputTokens: 1100, toolCalls: [{ name: 'a', arguments: {}, resultTokens: 0 }] },
      { type: 'call', outputTokens: 100, inputTokens: 1200, toolCalls: [{ name: 'b', arguments: {}, resultTokens: 0 }] },
      { type: 'call', outputTokens: 100, inputTokens: 41_300, toolCalls: [{ name: 'c', arguments: {}, resultTokens: 0 }] },
      { type: 'call', outputTokens: 100, inputTokens: 41_400 },
    ];
    const t = trace(calls, { system: 1000, origin: 'recorded' });
    const spentTwo = replay(t, {}, { kind: 'full', cache: 'off' }).rows[1]!.cumulativeCostPico;
    // Budget: the first two calls plus the third call's bound (1,300 input + 100 output at gpt-4o-mini rates, a little slack).
    const budget = spentTwo + 1300 * 150_000 + 100 * 600_000 + 1000;
    const r = replay(t, { maxCostPico: budget, budgetMode: 'predict', maxOutputTokens: 100 }, { kind: 'full', cache: 'off' });
    expect(r.steps).toBe(3);
    expect(r.overshootPico).toBeGreaterThan(0);
    expect(r.stopReason).toBe('budget');
    expect(r.stopDetail).toMatch(/^\$[\d.]+ spent, limit/);
  });

  it('same input and seed → byte-identical reports', () => {
    const brakes: BrakeConfig = { ...NO_BRAKES, maxSteps: 25, maxRepeat: 2, maxSameError: 2, maxBacktracks: 3 };
    const render = (seed: number) => {
      const traces = fc.sample(traceArb, { seed, numRuns: 20 });
      const results = traces.map((t) => replay(t, brakes));
      const report = buildReplayReport({ results, brakes, strategy: { kind: 'full' }, priceSource: MINI_TABLE.source, pricedModels: pricedModelRecords([MINI]) });
      return renderJson(report) + renderCsv(report) + renderTable(report);
    };
    expect(render(42)).toBe(render(42));
    expect(render(42)).not.toBe(render(43));
  });

  it('every run ends with exactly one stop reason, whatever brakes are on', () => {
    fc.assert(
      fc.property(traceArb, fc.integer({ min: 1, max: 5 }), (t, n) => {
        const r = replay(t, { maxSteps: 8 * n, maxRepeat: n, repeatMode: 'cycle', maxSameError: n, maxBacktracks: n, maxTokens: 100_000 * n, timeoutMs: 20_000 * n });
        expect(typeof r.stopReason).toBe('string');
        expect(r.stopDetail.length).toBeGreaterThan(0);
      }),
      { numRuns: 100, seed: 7304 },
    );
  });
});
