/**
 * A replay that keeps nothing of its runs' compiled traces compiles each into one CompileScratch's memory
 * (src/fast/compile.ts compiledOnce): what it compiles is what compileTrace makes, run after run of
 * random sizes (a smaller run after a larger one reuses memory the larger one wrote), and a replay with a
 * scratch reports what one without it does. Fixed seeds: a failure reproduces.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NO_BRAKES } from '../../src/brakes/config.js';
import { STOP_REASONS } from '../../src/brakes/stopReasons.js';
import { CompileArena, compiledOnce, compiledTrace, compiledTraceIn, compileTrace, CompileScratch } from '../../src/fast/compile.js';
import type { CompiledTrace } from '../../src/fast/layout.js';
import { replayTrace } from '../../src/replay/replay.js';
import { distinctSteps, handTable, trace } from '../helpers.js';
import { brakesArb, callArb, pricings, strategyArb } from '../core/arbitraries.js';
import { sameCompiled } from './sameCompiled.js';

/** A compiled trace as plain values (typed arrays as number lists, with their kind), for toEqual. */
function plain(c: CompiledTrace): Record<string, unknown> {
  return Object.fromEntries(Object.entries(c).map(([key, value]) => [key, ArrayBuffer.isView(value) ? [value.constructor.name, ...Array.from(value as unknown as ArrayLike<number>)] : value]));
}

/** `actual` is what compileTrace gives: toEqual of their plain values, asked only where sameCompiled (stricter, and fast) finds a difference. */
function expectCompiledAs(actual: CompiledTrace, expected: CompiledTrace): void {
  if (!sameCompiled(actual, expected)) expect(plain(actual)).toEqual(plain(expected));
}

const traceArb = fc.record({ calls: fc.array(callArb, { maxLength: 60 }), system: fc.integer({ min: 0, max: 3000 }), outcome: fc.constantFrom('completed' as const, 'error' as const) });

describe('compiling into a scratch', () => {
  it('gives what compileTrace gives, run after run through one scratch', () => {
    let smallerAfterLarger = 0;
    fc.assert(
      fc.property(fc.array(traceArb, { minLength: 1, maxLength: 8 }), (specs) => {
        const scratch = new CompileScratch();
        if (specs.some((spec, i) => specs.slice(0, i).some((earlier) => earlier.calls.length > spec.calls.length))) smallerAfterLarger += 1;
        for (const spec of specs) {
          const t = trace(spec.calls, spec);
          const once = compiledOnce(t, scratch);
          expectCompiledAs(once, compileTrace(t));
        }
      }),
      // 120 cases (were 300), 84 of them compiling a run after a larger one.
      { numRuns: 120, seed: 20261204 },
    );
    expect(smallerAfterLarger).toBeGreaterThan(50);
  });

  it('takes the compiled trace a Trace already has, and keeps none of its own', () => {
    const scratch = new CompileScratch();
    const shared = trace([]);
    const kept = compiledTrace(shared);
    expect(compiledOnce(shared, scratch)).toBe(kept);
    const other = trace([]);
    const once = compiledOnce(other, scratch);
    expect(compiledOnce(other, scratch)).not.toBe(once);
    expect(compiledTrace(other)).not.toBe(once);
  });

  it('replays as without it: same results on random runs, brakes and strategies', () => {
    const prices = handTable(...pricings);
    const stops = new Set<string>();
    fc.assert(
      fc.property(fc.array(fc.tuple(traceArb, brakesArb, strategyArb, fc.constantFrom(0, 1, 2)), { minLength: 1, maxLength: 6 }), (runs) => {
        const scratch = new CompileScratch();
        for (const [spec, brakes, strategy, priceIndex] of runs) {
          const options = { brakes: { ...NO_BRAKES, ...brakes }, strategy, prices, model: pricings[priceIndex]!.model };
          // Two Trace objects of the same runs: the one replayed without a scratch keeps its compiled trace.
          const withScratch = replayTrace(trace(spec.calls, spec), { ...options, scratch });
          expect(withScratch).toEqual(replayTrace(trace(spec.calls, spec), options));
          stops.add(withScratch.stopReason);
        }
      }),
      // 80 cases (were 200): about 250 runs, every stop reason a replay of a recording may give among them.
      { numRuns: 80, seed: 20261205 },
    );
    expect([...stops].sort()).toEqual(STOP_REASONS.filter((reason) => reason !== 'aborted' && reason !== 'provider_refused').sort());
  });

  it('into an arena: every trace of a batch is what compileTrace gives, after the whole batch is compiled (no part handed out twice before a reset)', () => {
    fc.assert(
      fc.property(fc.array(traceArb, { minLength: 1, maxLength: 40 }), (specs) => {
        const arena = new CompileArena();
        const traces = specs.map((spec) => trace(spec.calls, spec));
        const compiled = traces.map((t) => compiledTraceIn(t, arena));
        // A Trace compiled once: compiledTrace hands the arena's back.
        traces.forEach((t, i) => expect(compiledTrace(t)).toBe(compiled[i]));
        compiled.forEach((c, i) => expectCompiledAs(c, compileTrace(traces[i]!)));
      }),
      { numRuns: 80, seed: 20261206 },
    );
    // Batch after batch through one arena, reset between them: memory the last batch wrote is zeroed before it is handed out again.
    fc.assert(
      fc.property(fc.array(fc.array(traceArb, { minLength: 1, maxLength: 12 }), { minLength: 2, maxLength: 4 }), (batches) => {
        const arena = new CompileArena();
        for (const specs of batches) {
          const traces = specs.map((spec) => trace(spec.calls, spec));
          const compiled = traces.map((t) => compiledTraceIn(t, arena));
          compiled.forEach((c, i) => expectCompiledAs(c, compileTrace(traces[i]!)));
          arena.reset();
        }
      }),
      { numRuns: 40, seed: 20261207 },
    );
    // Slabs larger than a buffer of the arena, between small ones.
    const arena = new CompileArena();
    const specs = [3, 4000, 1, 9000, 2].map((n, i) => trace(distinctSteps(n, 10 + i, 5)));
    const compiled = specs.map((t) => compiledTraceIn(t, arena));
    compiled.forEach((c, i) => expectCompiledAs(c, compileTrace(specs[i]!)));
  });
});
