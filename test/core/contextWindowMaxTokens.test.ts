/**
 * `--context-window model`: a provider refuses a request whose prompt + max_tokens passes the model's
 * window, so the brake stops before a prompt larger than the window less the max_tokens the loop sends
 * (src/kernel/limits.ts promptAllowedTokens). An explicit `--context-window N` is the largest prompt
 * itself, and a summary trigger stays a share of the whole window (N, or the model's).
 *
 * The trace: system 1,000 tokens, each step adding 1,000 (100 out, 900 of tool result), so call n's
 * prompt is 1,000·n; the model's window is 10,000 tokens.
 */
import { describe, expect, it } from 'vitest';
import { NO_BRAKES, type BrakeConfig } from '../../src/brakes/config.js';
import { parseContextSpec, summaryTriggerTokens, type ContextStrategy } from '../../src/context/strategy.js';
import { compileTrace } from '../../src/fast/compile.js';
import { replayFast } from '../../src/fast/replayFast.js';
import { sweepCompiled, sweepTotals, type SweepGrid } from '../../src/fast/sweep.js';
import { brakeLimits, contextWindowTokens, Limit, promptAllowedTokens } from '../../src/kernel/limits.js';
import { flattenPrices } from '../../src/kernel/prices.js';
import { checkSummaryTrigger, replayTrace, type RunResult } from '../../src/replay/replay.js';
import { distinctSteps, handPriced, handTable, trace } from '../helpers.js';
import fc from 'fast-check';
import { promptTooLarge } from '../../src/kernel/brakes.js';
import { providerRefuses } from '../../src/kernel/providerWindow.js';

const WINDOW = 10_000;
const TEN_K = handPriced('ten-k', { input: 1, output: 2 }, WINDOW);
const TABLE = handTable(TEN_K);
const RUN = trace(distinctSteps(20, 100, 900), { system: 1000, model: 'ten-k' });

function both(brakes: Partial<BrakeConfig>, strategy: ContextStrategy = { kind: 'full' }): RunResult {
  const options = { brakes: { ...NO_BRAKES, ...brakes }, strategy, prices: TABLE };
  const compiled = replayTrace(RUN, { ...options, engine: 'compiled' });
  const readable = replayTrace(RUN, { ...options, engine: 'readable', keepSteps: true });
  const { rows: _rows, ...readableFigures } = readable;
  const { rows: _none, ...compiledFigures } = compiled;
  expect(compiledFigures).toEqual(readableFigures);
  return readable;
}

describe('the prompt a context-window brake allows', () => {
  it("'model': the window less the max_tokens sent (default 4096), below 0 past it; unknown window: no limit", () => {
    const at = (brakes: Partial<BrakeConfig>, modelWindow: number) => {
      const limits = brakeLimits({ ...NO_BRAKES, ...brakes }, modelWindow);
      return [limits[Limit.ContextWindow], limits[Limit.ContextWindowTokens]];
    };
    expect(at({ contextWindow: 'model' }, 128_000)).toEqual([123_904, 128_000]);
    expect(at({ contextWindow: 'model', maxOutputTokens: 100 }, 128_000)).toEqual([127_900, 128_000]);
    expect(at({ contextWindow: 'model' }, 3000)).toEqual([-1096, 3000]);
    expect(at({ contextWindow: 'model' }, Infinity)).toEqual([Infinity, Infinity]);
    // An explicit N is the largest prompt itself, whatever max_tokens and the model's window.
    expect(at({ contextWindow: 128_000 }, 128_000)).toEqual([128_000, 128_000]);
    expect(at({ contextWindow: 50_000, maxOutputTokens: 100 }, 128_000)).toEqual([50_000, 50_000]);
    expect(at({}, 128_000)).toEqual([Infinity, Infinity]);
    expect(promptAllowedTokens(10_000, 4096)).toBe(5904);
  });

  it('the brake allows exactly the prompts a provider answers: even an empty prompt with max_tokens past the window is refused (seed 31)', () => {
    expect(promptTooLarge(0, promptAllowedTokens(3000, 4096))).toBe(true);
    expect(providerRefuses(3000, 0, 4096)).toBe(true);
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 300_000 }), fc.integer({ min: 0, max: 300_000 }), fc.integer({ min: 0, max: 400_000 }), (windowTokens, maxOutputTokens, promptTokens) => {
        expect(promptTooLarge(promptTokens, promptAllowedTokens(windowTokens, maxOutputTokens))).toBe(providerRefuses(windowTokens, promptTokens, maxOutputTokens));
      }),
      { seed: 31, numRuns: 2000 },
    );
  });
});

describe('--context-window model stops before a call the provider would refuse', () => {
  it('stops before the prompt whose prompt + max_tokens passes the window, readable and compiled alike', () => {
    // 5,000 + 4,096 ≤ 10,000; 6,000 + 4,096 > 10,000: five calls, the sixth refused.
    const r = both({ contextWindow: 'model' });
    expect(r.stopReason).toBe('context_overflow');
    expect(r.steps).toBe(5);
    expect(r.stopDetail).toBe('next prompt holds 6000 tokens + max_tokens 4096 > context window 10000');
  });

  it('--max-output-tokens moves the stop: 9,000 + 100 fits, 10,000 + 100 does not', () => {
    const r = both({ contextWindow: 'model', maxOutputTokens: 100 });
    expect(r.stopReason).toBe('context_overflow');
    expect(r.steps).toBe(9);
    expect(r.stopDetail).toBe('next prompt holds 10000 tokens + max_tokens 100 > context window 10000');
  });

  it('max_tokens past the window leaves no prompt: the first call is refused', () => {
    const r = both({ contextWindow: 'model', maxOutputTokens: 20_000 });
    expect([r.stopReason, r.steps]).toEqual(['context_overflow', 0]);
    expect(r.stopDetail).toBe('next prompt holds 1000 tokens + max_tokens 20000 > context window 10000');
  });

  it('an explicit N equal to the window keeps its meaning: the largest prompt, max_tokens not counted', () => {
    for (const maxOutputTokens of [undefined, 100, 4096]) {
      const r = both({ contextWindow: WINDOW, ...(maxOutputTokens === undefined ? {} : { maxOutputTokens }) });
      expect(r.stopReason).toBe('context_overflow');
      expect(r.steps).toBe(10);
      expect(r.stopDetail).toBe('next prompt holds 11000 tokens, context window 10000');
    }
  });

  it('the same stops in predict mode, where max_tokens is also the bound’s output', () => {
    const r = both({ contextWindow: 'model', maxCostPico: 1e15, budgetMode: 'predict', maxOutputTokens: 2000 });
    // 8,000 + 2,000 fits, 9,000 + 2,000 does not.
    expect([r.stopReason, r.steps]).toEqual(['context_overflow', 8]);
  });
});

describe('a summary trigger stays a share of the whole window', () => {
  it("under 'model' R% is of the model's window, not of the prompt the brake allows; under N, of N", () => {
    const prices = flattenPrices(TEN_K);
    const strategy = parseContextSpec('summary:trigger=80%,keep=1,tokens=100');
    const model = brakeLimits({ ...NO_BRAKES, contextWindow: 'model' }, WINDOW);
    expect(contextWindowTokens(model, prices)).toBe(WINDOW);
    expect(summaryTriggerTokens(strategy, contextWindowTokens(model, prices))).toBe(8000);
    const explicit = brakeLimits({ ...NO_BRAKES, contextWindow: 6000 }, WINDOW);
    expect(summaryTriggerTokens(strategy, contextWindowTokens(explicit, prices))).toBe(4800);
    // A trigger above the prompt allowed (5,904) but within the window is still a usable trigger.
    expect(() => checkSummaryTrigger({ strategy: parseContextSpec('summary:trigger=9000,keep=1,tokens=100'), brakes: { ...NO_BRAKES, contextWindow: 'model' }, pricing: TEN_K })).not.toThrow();
  });

  it('the first summary call comes where the prompt passes 40% of 10,000, not of 5,904 (readable and compiled alike)', () => {
    const r = both({ contextWindow: 'model' }, parseContextSpec('summary:trigger=40%,keep=1,tokens=100'));
    const first = r.rows.find((row) => row.summary === true);
    // Prompts 1,000·n: 5,000 is the first past 4,000, so the summary comes after four calls, steps (2,361 would make it two).
    expect(first?.step).toBe(4);
  });
});

describe('a sweep over max_tokens under the model window', () => {
  it('gives each cell what replaying it alone gives (a pass must stop no earlier than its loosest cell)', () => {
    const prices = flattenPrices(TEN_K);
    // Recorded prompts (the same 1,000·n): the pass is recorded call by call under its limits (runTable.ts).
    const recorded = trace(distinctSteps(20, 100, 900).map((c, i) => ({ ...c, inputTokens: 1000 * (i + 1) })), { system: 1000, model: 'ten-k' });
    const grid: SweepGrid = {
      brakes: { ...NO_BRAKES, contextWindow: 'model' },
      strategy: { kind: 'full' },
      axes: [
        { name: 'max-output-tokens', values: [{}, { brakes: { maxOutputTokens: 100 } }, { brakes: { maxOutputTokens: 2000 } }] },
        { name: 'max-steps', values: [{}, { brakes: { maxSteps: 7 } }] },
      ],
    };
    // Plain calls: a closed-form pass (cache off) or a table of the whole trace (on); recorded prompts: a
    // table recorded under the pass's limits, which must be the loosest of its cells'.
    for (const [compiled, cache] of [[compileTrace(RUN), 'off'], [compileTrace(RUN), 'on'], [compileTrace(recorded), 'off']] as const) {
      const result = sweepCompiled([{ compiled, prices, cache }], grid);
      const steps = result.cells.map((cell, c) => {
        const alone = replayFast(compiled, cell.brakes, { kind: 'full' }, cache, prices);
        expect(sweepTotals(result, 0, c), `${cache}: ${JSON.stringify(cell.brakes)}`).toEqual(alone);
        return alone.steps;
      });
      // 4096: 5 steps; 100: 9; 2000: 8 — each under a step cap of 7 where that is fewer.
      expect(steps).toEqual([5, 5, 9, 7, 8, 7]);
    }
  });
});
