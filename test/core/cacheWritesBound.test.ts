/**
 * The predictive bound prices a prompt token at the dearest cache-write price only for as long as the run's
 * writes may last (kernel/cacheWrites.ts): a recording's may last an hour (a live loop cannot know what the
 * recorded loop asked for), a synthetic run's last five minutes (the meter's `on` writes for five minutes,
 * and a synthetic agent records no write for an hour). So on a model that prices an hour's write (Anthropic:
 * 2× input, five minutes 1.25×), `predict` no longer refuses a synthetic run's call the five-minute bound
 * allows — in the readable loop (a scenario's runs, replay and whatif), the compiled replay (a generated
 * trace's replay, whatif and sweep) and the session-tree replay alike. With the cache off a synthetic run writes
 * nothing, and its bound takes no write price (meter.ts boundWrites: cacheOffBound.test.ts); the engines agree
 * under every cache, a sweep over the cache included (one compiled trace, the fact mapped per configuration).
 *
 * The scenario: claude-sonnet-4 ($3 in, $3.75 / $6 a write for 5 min / 1 h, $15 out), cache on, one healthy
 * agent of 8 steps, each adding 3,200 tokens (200 out, 3,000 of tool result) to a 2,100-token prompt: the
 * calls' prompts are 2,100 … 24,500 tokens; $0.119055 spent before the 8th, $0.140445 in all. Before the
 * 8th call the bound (max_tokens 4096 at $15: $0.06144) is 24,500 × $3.75/M + $0.06144 = $0.153315 at five
 * minutes, 24,500 × $6/M + $0.06144 = $0.20844 at an hour: under `--max-cost 0.30 --budget-mode predict`
 * $0.119055 + $0.153315 = $0.27237 goes, $0.119055 + $0.20844 = $0.327495 did not (the run stopped at 7
 * steps, $0.119055). At $0.27 the five-minute bound refuses it too.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NO_BRAKES, type BrakeConfig } from '../../src/brakes/config.js';
import type { CacheMode, ContextStrategy } from '../../src/context/strategy.js';
import { compileTrace } from '../../src/fast/compile.js';
import { flattenPrices, replayCompiled, replayFast, toolStopCall } from '../../src/fast/replayFast.js';
import { recordRunTable } from '../../src/fast/runTable.js';
import { resetRun, Run, runOutcomeOf } from '../../src/fast/runState.js';
import { runSettings } from '../../src/fast/settings.js';
import { stopInTable } from '../../src/fast/tableStop.js';
import { CacheWrites, cacheWritesOf } from '../../src/kernel/cacheWrites.js';
import { predictiveBoundPico } from '../../src/kernel/cost.js';
import { brakeLimits } from '../../src/kernel/limits.js';
import { ReplaySource } from '../../src/loop/replaySource.js';
import { runLoop } from '../../src/loop/run.js';
import { usdPerMillionToPico } from '../../src/money.js';
import type { CallRecord } from '../../src/trace/types.js';
import { figures, json, PREDICT, sonnetInputs } from './sonnetPredict.js';
import { figuresOf, handPriced, trace } from '../helpers.js';
import { brakesArb, callArb, hourly, strategyArb } from './arbitraries.js';
import { sweepCompiled } from '../../src/fast/sweep.js';
import { sweepTotals } from '../../src/fast/sweepResult.js';
import { boundWrites } from '../../src/kernel/meter.js';
import { cacheModeCode } from '../../src/loop/meter.js';

const COMPLETED = { stopReason: 'completed', steps: 8, costUsd: 0.140445 };
const STOPPED = { stopReason: 'budget', steps: 7, costUsd: 0.119055 };


describe('how long a run’s cache writes may last (kernel/cacheWrites.ts)', () => {
  it('a recording’s (or a run that does not say) may last an hour; a synthetic run’s last five minutes unless a call wrote for an hour', () => {
    const written: CallRecord = { type: 'call', outputTokens: 10, inputTokens: 500, cacheWriteTokens: 500 };
    expect(cacheWritesOf(trace([written], { origin: 'recorded' }))).toBe(CacheWrites.MayLastAnHour);
    expect(cacheWritesOf({ header: { ...trace([]).header, origin: undefined }, calls: [] })).toBe(CacheWrites.MayLastAnHour);
    expect(cacheWritesOf(trace([written], { origin: 'synthetic' }))).toBe(CacheWrites.FiveMinutes);
    expect(cacheWritesOf(trace([written, { ...written, cacheWriteTokens: 0, cacheWrite1hTokens: 500 }], { origin: 'synthetic' }))).toBe(CacheWrites.MayLastAnHour);
  });

  it('a header that states the lifetime (the real loop’s recorder: `cacheWrites`) says it, whatever the origin and the calls', () => {
    const written: CallRecord = { type: 'call', outputTokens: 10, inputTokens: 500, cacheWriteTokens: 500 };
    for (const origin of ['recorded', 'synthetic', undefined] as const) {
      const header = (cacheWrites: 'five-minutes' | 'may-last-an-hour' | 'none') => ({ ...trace([], { origin: origin ?? 'recorded' }).header, origin, cacheWrites });
      expect(cacheWritesOf({ header: header('five-minutes'), calls: [written] })).toBe(CacheWrites.FiveMinutes);
      expect(cacheWritesOf({ header: header('none'), calls: [written] })).toBe(CacheWrites.None);
      expect(cacheWritesOf({ header: header('may-last-an-hour'), calls: [written] })).toBe(CacheWrites.MayLastAnHour);
    }
  });

  it('the bound takes the five-minute write price when the writes last five minutes, the dearer hour’s when they may last an hour, the input price when nothing is written', () => {
    const sonnet = handPriced('sonnet', { input: 3, output: 15, cached: 0.3, cacheWrite: 3.75 });
    sonnet.base.cacheWrite1h = usdPerMillionToPico(6);
    const flat = flattenPrices(sonnet);
    expect(predictiveBoundPico(flat, 24_500, 4096, CacheWrites.FiveMinutes)).toBe(24_500 * 3_750_000 + 4096 * 15_000_000);
    expect(predictiveBoundPico(flat, 24_500, 4096, CacheWrites.MayLastAnHour)).toBe(24_500 * 6_000_000 + 4096 * 15_000_000);
    expect(predictiveBoundPico(flat, 24_500, 4096, CacheWrites.None)).toBe(24_500 * 3_000_000 + 4096 * 15_000_000);
  });

  it('with the cache off a synthetic run writes nothing (meter.ts boundWrites); a recording’s writes, or any with the cache on or as recorded, are as the run’s', () => {
    expect(boundWrites(CacheWrites.FiveMinutes, cacheModeCode('off'))).toBe(CacheWrites.None);
    expect(boundWrites(CacheWrites.MayLastAnHour, cacheModeCode('off'))).toBe(CacheWrites.MayLastAnHour);
    for (const cache of ['on', 'recorded'] as const) {
      expect(boundWrites(CacheWrites.FiveMinutes, cacheModeCode(cache))).toBe(CacheWrites.FiveMinutes);
      expect(boundWrites(CacheWrites.MayLastAnHour, cacheModeCode(cache))).toBe(CacheWrites.MayLastAnHour);
    }
  });

  it('a run whose loop asked for no writes (None) writes nothing as recorded or with the cache off, but the meter’s five-minute writes with the cache on', () => {
    expect(boundWrites(CacheWrites.None, cacheModeCode('recorded'))).toBe(CacheWrites.None);
    expect(boundWrites(CacheWrites.None, cacheModeCode('off'))).toBe(CacheWrites.None);
    expect(boundWrites(CacheWrites.None, cacheModeCode('on'))).toBe(CacheWrites.FiveMinutes);
  });

  it('a synthetic run one of whose failed calls records a write is bounded as a recording (the meter bills a failed call as recorded, the cache off too)', () => {
    const failed: CallRecord = { type: 'call', outputTokens: 0, inputTokens: 500, failed: { status: 500, message: 'x' } };
    expect(cacheWritesOf(trace([failed], { origin: 'synthetic' }))).toBe(CacheWrites.FiveMinutes);
    expect(cacheWritesOf(trace([{ ...failed, cachedInputTokens: 400 }], { origin: 'synthetic' }))).toBe(CacheWrites.FiveMinutes);
    expect(cacheWritesOf(trace([{ ...failed, cacheWriteTokens: 100 }], { origin: 'synthetic' }))).toBe(CacheWrites.MayLastAnHour);
  });
});

describe('predict on a synthetic run with the cache on, on a model that prices an hour’s write', () => {
  it('makes the call the five-minute bound allows (it stopped at 7 steps, $0.119055): replay and whatif of the scenario, of its generated trace, sweep of both', async () => {
    const { scenario, generated } = await sonnetInputs('on');
    for (const input of [scenario, generated]) {
      expect((await json('replay', input, '--max-cost', '0.30', ...PREDICT)).runs.map(figures), input).toEqual([COMPLETED]);
      expect((await json('whatif', input, '--try', 'max-cost=0.30,budget-mode=predict', '--format', 'json')).runs.map(figures), input).toEqual([COMPLETED]);
      const sweep = await json('sweep', input, '--grid', 'max-cost=0.27,0.30', '--cache', 'on', '--workers', '1', ...PREDICT);
      expect(sweep.configurations!.map((c) => [c.settings, Object.fromEntries(Object.entries(c.stopReasons as Record<string, number>).filter(([, n]) => n !== 0)), c.costUsd]), input).toEqual([
        ['max-cost=0.27', { budget: 1 }, STOPPED.costUsd],
        ['max-cost=0.30', { completed: 1 }, COMPLETED.costUsd],
      ]);
    }
    // The session-tree replay (a tree's budget bounds each call by the run's session: LoopSession.boundPico).
    const [tree] = (await json('replay', '--tree', generated, '--max-cost', '0.30', ...PREDICT)).trees!;
    expect([tree!.stopReason, tree!.totals.steps, tree!.totals.costUsd]).toEqual(['completed', 8, 0.140445]);
  });

  // A live loop cannot know how long a recorded loop's writes lasted: a recording keeps the hour's price.
  it('a recording of the same run is still bounded at an hour’s write price; at $0.27 the five-minute bound refuses the 8th call too', async () => {
    const { scenario, recorded } = await sonnetInputs('on');
    expect((await json('replay', recorded, '--max-cost', '0.30', ...PREDICT)).runs.map(figures)).toEqual([STOPPED]);
    expect((await json('whatif', recorded, '--try', 'max-cost=0.30,budget-mode=predict', '--format', 'json')).runs.map(figures)).toEqual([STOPPED]);
    const [tree] = (await json('replay', '--tree', recorded, '--max-cost', '0.30', ...PREDICT)).trees!;
    expect([tree!.stopReason, tree!.totals.steps, tree!.totals.costUsd]).toEqual(['budget', 7, 0.119055]);
    expect((await json('replay', scenario, '--max-cost', '0.27', ...PREDICT)).runs.map(figures)).toEqual([STOPPED]);
  });
});

// An Anthropic-style model: cache reads 0.1×, writes 1.25× for five minutes, 2× for an hour; a tier above 20,000 tokens.
const HOURLY = hourly;

const summaryArb: fc.Arbitrary<ContextStrategy> = fc
  .record({ trigger: fc.integer({ min: 500, max: 8000 }), keep: fc.integer({ min: 1, max: 4 }), tokens: fc.integer({ min: 1, max: 1500 }) })
  .map(({ trigger, keep, tokens }) => ({ kind: 'summary', summary: { triggerTokens: trigger, keepSteps: keep, summaryTokens: tokens } }));

// Predict mode always, budgets mostly where the two write prices decide (a few cents: a prompt of thousands of tokens at $2.25/M more).
const predictArb: fc.Arbitrary<BrakeConfig> = fc
  .tuple(brakesArb, fc.oneof({ arbitrary: fc.integer({ min: 0, max: 200_000_000_000 }), weight: 3 }, { arbitrary: fc.integer({ min: 0, max: 2_000_000_000_000 }), weight: 1 }))
  .map(([brakes, maxCostPico]) => ({ ...NO_BRAKES, ...brakes, contextWindow: undefined, budgetMode: 'predict', maxCostPico }) as BrakeConfig);

/** The run's cells of a sweep of `cache` on, off and recorded (one compiled trace for every cache: the fact is mapped per configuration), each equal to the compiled replay of its own. */
function sweepsEveryCache(compiled: ReturnType<typeof compileTrace>, brakes: BrakeConfig, strategy: ContextStrategy): void {
  const prices = flattenPrices(HOURLY);
  const caches: CacheMode[] = ['on', 'off', 'recorded'];
  const result = sweepCompiled([{ compiled, prices, cache: 'recorded' }], { brakes, strategy, axes: [{ name: 'cache', values: caches.map((cache) => ({ strategy: { ...strategy, cache } })) }] });
  result.cells.forEach((cell, c) => expect(sweepTotals(result, 0, c), cell.strategy.cache).toEqual(replayFast(compiled, cell.brakes, cell.strategy, cell.strategy.cache!, prices)));
}

describe('the compiled replay = the readable loop, synthetic and recorded runs under predict on a model that prices an hour’s write', () => {
  it('the same figures and stop (per step, read off a run table, in a sweep over the cache, under a summary strategy), with the cache on, off and as recorded', () => {
    const seen = { fiveMinutes: 0, anHour: 0, none: 0, budget: 0, budgetWritingNone: 0 };
    fc.assert(
      fc.property(
        fc.array(callArb, { maxLength: 40 }),
        fc.constantFrom('synthetic' as const, 'recorded' as const),
        fc.integer({ min: 0, max: 3000 }),
        predictArb,
        fc.oneof(strategyArb, summaryArb),
        fc.constantFrom<CacheMode>('on', 'on', 'off', 'off', 'recorded'),
        (calls, origin, system, brakes, strategy, cache) => {
          const t = trace(calls, { system, origin });
          const readable = runLoop(new ReplaySource(t), { brakes, strategy, cache, pricing: HOURLY, systemTokens: system, goalTokens: 0 });
          const compiled = compileTrace(t);
          const prices = flattenPrices(HOURLY);
          expect(replayFast(compiled, brakes, strategy, cache, prices)).toEqual(figuresOf(readable));
          if (strategy.kind !== 'summary') {
            const settings = runSettings(strategy, cache);
            const limits = brakeLimits(brakes, prices.contextWindow);
            const st = new Float64Array(Run.Size);
            resetRun(st);
            stopInTable(recordRunTable(compiled, settings, prices), compiled, limits, toolStopCall(compiled, limits), st);
            expect(runOutcomeOf(compiled, st, limits)).toEqual(runOutcomeOf(compiled, replayCompiled(compiled, settings, limits, prices, false), limits));
            sweepsEveryCache(compiled, brakes, strategy);
          }
          // The writes the bound priced: the run's, as this cache leaves them (a synthetic run's with the cache off: none).
          const writes = boundWrites(cacheWritesOf(t), cacheModeCode(cache));
          if (writes === CacheWrites.FiveMinutes) seen.fiveMinutes += 1;
          else if (writes === CacheWrites.None) seen.none += 1;
          else seen.anHour += 1;
          if (readable.stop.reason === 'budget') seen.budget += 1;
          if (readable.stop.reason === 'budget' && writes === CacheWrites.None) seen.budgetWritingNone += 1;
        },
      ),
      { numRuns: 1500, seed: 16_001 },
    );
    expect(Math.min(seen.fiveMinutes, seen.anHour, seen.none, seen.budget), JSON.stringify(seen)).toBeGreaterThan(100);
    expect(seen.budgetWritingNone).toBeGreaterThan(30);
  });

  it('a summary call’s bound too (the gate before it: kernel summaryBoundPico), at every budget of a scan', () => {
    const calls: CallRecord[] = Array.from({ length: 14 }, (_, i) => ({ type: 'call', outputTokens: 200 + 10 * i, toolCalls: [{ name: 'read', arguments: { i }, resultTokens: 3000 }] }));
    const strategy: ContextStrategy = { kind: 'summary', cache: 'on', summary: { triggerTokens: 12_000, keepSteps: 2, summaryTokens: 800 } };
    const runs = { synthetic: trace(calls, { system: 2000, origin: 'synthetic' }), recorded: trace(calls, { system: 2000, origin: 'recorded' }) };
    let summariesPart = 0;
    for (let cents = 1; cents <= 60; cents += 0.25) {
      const brakes: BrakeConfig = { ...NO_BRAKES, budgetMode: 'predict', maxCostPico: Math.round(cents * 1e10), maxOutputTokens: 1000 };
      const summaries = Object.entries(runs).map(([origin, t]) => {
        const readable = runLoop(new ReplaySource(t), { brakes, strategy, cache: 'on', pricing: HOURLY, systemTokens: 2000, goalTokens: 0 });
        expect(replayFast(compileTrace(t), brakes, strategy, 'on', flattenPrices(HOURLY)), `${origin} at ${cents}¢`).toEqual(figuresOf(readable));
        return readable.summaryCalls;
      });
      if (summaries[0] !== summaries[1]) summariesPart += 1;
    }
    // Budgets where the five-minute bound lets a synthetic run make a summary call the hour's refuses a recording.
    expect(summariesPart).toBeGreaterThan(0);
  });
});
