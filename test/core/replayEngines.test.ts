/**
 * `replay` runs on the compiled kernel; per-step rows and `engine: 'readable'` run the loop call by
 * call. Both must give the same RunResult — stop detail, recorded sums and every figure — on random
 * traces and on the shared real runs.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NO_BRAKES, type BrakeConfig } from '../../src/brakes/config.js';
import type { ContextStrategy } from '../../src/context/strategy.js';
import { brakesFromSpec } from '../../src/flags/settingsFlags.js';
import { loadTraceFiles } from '../../src/import/index.js';
import { collectInputs } from '../../src/io/collectInputs.js';
import { loadPriceTable } from '../../src/pricing/index.js';
import { replayTrace, type ReplayOptions, type RunResult } from '../../src/replay/replay.js';
import type { CallRecord, Trace } from '../../src/trace/types.js';
import { collectAsync, MINI_TABLE, trace } from '../helpers.js';

function both(t: Trace, options: ReplayOptions): { compiled: RunResult; readable: RunResult } {
  return { compiled: replayTrace(t, { ...options, engine: 'compiled' }), readable: replayTrace(t, { ...options, engine: 'readable' }) };
}

const callArb: fc.Arbitrary<CallRecord> = fc
  .record({
    outputTokens: fc.integer({ min: 0, max: 900 }),
    latencyMs: fc.integer({ min: 0, max: 3000 }),
    tools: fc.array(fc.record({ name: fc.constantFrom('read', 'run'), x: fc.integer({ min: 0, max: 2 }), resultTokens: fc.integer({ min: 0, max: 3000 }), error: fc.option(fc.constantFrom('E1', 'E2'), { nil: undefined }), latencyMs: fc.integer({ min: 0, max: 1000 }) }), { maxLength: 2 }),
    kind: fc.constantFrom('normal', 'normal', 'normal', 'backtrack', 'failed', 'compaction', 'unparseable compaction', 'final'),
    recorded: fc.option(fc.record({ extra: fc.integer({ min: 0, max: 2000 }), cached: fc.integer({ min: 0, max: 9000 }) }), { nil: undefined }),
    costUsd: fc.option(fc.constantFrom(0.001, 0.0025), { nil: undefined }),
  })
  .map(({ outputTokens, latencyMs, tools, kind, recorded, costUsd }) => {
    const call: CallRecord = { type: 'call', outputTokens, latencyMs };
    if (tools.length > 0) call.toolCalls = tools.map((t) => ({ name: t.name, arguments: { x: t.x }, resultTokens: t.resultTokens, latencyMs: t.latencyMs, ...(t.error ? { error: t.error } : {}) }));
    if (kind === 'backtrack') call.backtrack = true;
    if (kind === 'failed') call.failed = { status: 500, message: 'server error' };
    if (kind === 'compaction') call.compaction = true;
    if (kind === 'unparseable compaction') Object.assign(call, { compaction: true, unparseable: true });
    if (kind === 'final') call.final = true;
    if (recorded) {
      call.inputTokens = 1500 + recorded.extra;
      call.cachedInputTokens = Math.min(recorded.cached, call.inputTokens);
    }
    if (costUsd !== undefined) call.recordedCostUsd = costUsd;
    return call;
  });

const brakesArb: fc.Arbitrary<BrakeConfig> = fc
  .record({
    maxSteps: fc.option(fc.integer({ min: 1, max: 30 }), { nil: undefined }),
    maxCostPico: fc.option(fc.integer({ min: 0, max: 30_000_000_000 }), { nil: undefined }),
    budgetMode: fc.constantFrom('check' as const, 'predict' as const),
    timeoutMs: fc.option(fc.integer({ min: 0, max: 40_000 }), { nil: undefined }),
    maxRepeat: fc.option(fc.integer({ min: 1, max: 3 }), { nil: undefined }),
    repeatMode: fc.constantFrom('total' as const, 'consecutive' as const, 'cycle' as const),
    maxSameError: fc.option(fc.integer({ min: 1, max: 3 }), { nil: undefined }),
    sameErrorMode: fc.constantFrom('consecutive' as const, 'total' as const),
    maxTokens: fc.option(fc.integer({ min: 1, max: 200_000 }), { nil: undefined }),
    maxBacktracks: fc.option(fc.integer({ min: 0, max: 2 }), { nil: undefined }),
    contextWindow: fc.option(fc.integer({ min: 1000, max: 30_000 }), { nil: undefined }),
  })
  .map((b) => ({ ...NO_BRAKES, ...Object.fromEntries(Object.entries(b).filter(([, v]) => v !== undefined)) }) as BrakeConfig);

describe('replay: compiled kernel = readable loop', () => {
  it('the same RunResult (stop detail, recorded sums, every figure) on random traces and settings', () => {
    fc.assert(
      fc.property(fc.array(callArb, { maxLength: 40 }), brakesArb, fc.constantFrom<ContextStrategy>({ kind: 'full' }, { kind: 'full', cache: 'on' }, { kind: 'window', windowSteps: 3, toolResultCap: 500 }, { kind: 'full', cache: 'off' }), (calls, brakes, strategy) => {
        const { compiled, readable } = both(trace(calls, { origin: 'recorded' }), { brakes, strategy, prices: MINI_TABLE });
        expect(compiled).toEqual(readable);
      }),
      { numRuns: 1500, seed: 7501 },
    );
  });

  it('timeout ties: whole-second latencies, a 10 s limit; the run stops before the first call made once elapsed > 10 s', () => {
    const wholeSeconds = fc.array(
      fc.record({ call: fc.integer({ min: 0, max: 3 }), tool: fc.integer({ min: 0, max: 2 }), output: fc.integer({ min: 1, max: 300 }) }).map(({ call, tool, output }) => ({ type: 'call' as const, outputTokens: output, latencyMs: call * 1000, toolCalls: [{ name: 't', arguments: { output }, resultTokens: 50, latencyMs: tool * 1000 }] })),
      { minLength: 1, maxLength: 30 },
    );
    fc.assert(
      fc.property(wholeSeconds, (calls) => {
        const options = { brakes: { ...NO_BRAKES, timeoutMs: 10_000 }, strategy: { kind: 'full' } as ContextStrategy, prices: MINI_TABLE };
        const { compiled, readable } = both(trace(calls), options);
        expect(compiled).toEqual(readable);
        const stepSeconds = calls.map((c) => c.latencyMs + c.toolCalls[0]!.latencyMs);
        const elapsedAfter = (k: number) => stepSeconds.slice(0, k).reduce((a, b) => a + b, 0);
        let expectedSteps = 0;
        while (expectedSteps < calls.length && !(elapsedAfter(expectedSteps) > 10_000)) expectedSteps++;
        expect(compiled.steps).toBe(expectedSteps);
        expect(compiled.stopReason).toBe(elapsedAfter(expectedSteps) > 10_000 ? 'timeout' : 'trace_end');
      }),
      { numRuns: 300, seed: 7502 },
    );
  });

  it('the same on the shared real runs, with stop details naming the limit', async () => {
    const traces = await collectAsync(loadTraceFiles(collectInputs(['../shared/traces/mini-swe-agent'])));
    const prices = loadPriceTable({ pricesFile: 'test/fixtures/prices/deepseek-recorded.json' });
    const details = new Set<string>();
    for (const spec of ['max-steps=12', 'max-repeat=2', 'max-cost=0.02,budget-mode=predict', 'max-same-error=2', 'timeout=30', 'context-window=20000']) {
      for (const t of traces) {
        const options = { brakes: brakesFromSpec(spec), strategy: { kind: 'full' } as ContextStrategy, prices, latency: { perCallMs: 2000, perInputTokenMs: 0, perOutputTokenMs: 10, perToolCallMs: 500 } };
        const { compiled, readable } = both(t, options);
        expect(compiled).toEqual(readable);
        details.add(compiled.stopDetail);
      }
    }
    expect(details).toContain('12 steps taken, limit 12');
    expect([...details].some((d) => /^action bash already seen 2 times in this run, limit 2$/.test(d))).toBe(true);
  });
});
