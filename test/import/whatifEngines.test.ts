/**
 * `whatif` replays each run under every setting with the fast path (src/fast). On the shared real
 * runs (recorded prompt sizes, cache figures, failed calls, tool errors, repeats) it must say exactly
 * what the readable loop says, for every setting, strategy, cache mode and latency model here.
 */
import { describe, expect, it } from 'vitest';
import type { ContextStrategy } from '../../src/context/strategy.js';
import { brakesFromSpec } from '../../src/flags/settingsFlags.js';
import { loadTraceFiles } from '../../src/import/index.js';
import { collectInputs } from '../../src/io/collectInputs.js';
import { loadPriceTable } from '../../src/pricing/index.js';
import { whatIf, type WhatIfOptions } from '../../src/replay/whatif.js';
import type { Trace } from '../../src/trace/types.js';
import { collectAsync } from '../helpers.js';

const SHARED = '../shared/traces';
const RECORDED_PRICES = 'test/fixtures/prices/deepseek-recorded.json';

const SPECS = [
  'max-steps=50',
  'max-steps=1',
  'max-cost=0.05',
  'max-cost=0.02,budget-mode=predict',
  'max-repeat=3',
  'max-repeat=2,repeat-mode=consecutive',
  'max-repeat=2,repeat-mode=cycle',
  'max-same-error=2',
  'max-same-error=2,same-error-mode=total',
  'max-tokens=200000',
  'context-window=30000',
  'context-window=model',
  'timeout=300',
  'timeout=5',
  'timeout=30',
  'max-backtracks=1',
  'max-steps=40,max-cost=0.1,max-repeat=4,max-same-error=3,max-tokens=400000,timeout=900',
];
const SETTINGS = SPECS.map((spec) => ({ name: spec, brakes: brakesFromSpec(spec) }));

const STRATEGIES: ContextStrategy[] = [
  { kind: 'full' },
  { kind: 'full', cache: 'on' },
  { kind: 'full', cache: 'off' },
  { kind: 'window', windowSteps: 5 },
  { kind: 'window', windowSteps: 3, toolResultCap: 200, cache: 'on' },
];

const LATENCY = { perCallMs: 2000, perInputTokenMs: 0.01, perOutputTokenMs: 12, perToolCallMs: 150 };

function bothEngines(traces: Trace[], options: Omit<WhatIfOptions, 'engine'>) {
  return {
    fast: whatIf(traces, SETTINGS, { ...options, engine: 'fast' }),
    readable: whatIf(traces, SETTINGS, { ...options, engine: 'readable' }),
  };
}

const mini = await collectAsync(loadTraceFiles(collectInputs([`${SHARED}/mini-swe-agent`])));
const others = await collectAsync(loadTraceFiles(collectInputs([`${SHARED}/swe-agent`, `${SHARED}/cassettes`])));
const MINI_PRICES = loadPriceTable({ pricesFile: RECORDED_PRICES });
const BUNDLED_PRICES = loadPriceTable();

/**
 * Both engines' answers for the mini-swe-agent runs (recorded prices) or the others (bundled prices), under
 * STRATEGIES[strategy]; those under full history (STRATEGIES[0], what the last test reads again) kept, computed once.
 */
const answers = new Map<string, ReturnType<typeof bothEngines>>();
function enginesOn(runs: 'mini' | 'others', strategy: number, withLatency: boolean): ReturnType<typeof bothEngines> {
  const key = `${runs} ${strategy} ${withLatency}`;
  let answer = answers.get(key);
  if (answer === undefined) {
    const options = { strategy: STRATEGIES[strategy]!, prices: runs === 'mini' ? MINI_PRICES : BUNDLED_PRICES, ...(withLatency ? { latency: LATENCY } : {}) };
    answer = bothEngines(runs === 'mini' ? mini : others, options);
    if (strategy === 0) answers.set(key, answer);
  }
  return answer;
}

describe('whatif: fast path = readable loop on real runs', () => {

  it('mini-swe-agent (38 runs, recorded DeepSeek prices), every strategy and cache mode', () => {
    for (const strategy of STRATEGIES.keys()) {
      for (const withLatency of [false, true]) {
        const { fast, readable } = enginesOn('mini', strategy, withLatency);
        expect(fast).toEqual(readable);
      }
    }
  });

  it('SWE-agent and provider cassettes (bundled prices), with and without a latency model', () => {
    for (const strategy of STRATEGIES.keys()) {
      for (const withLatency of [false, true]) {
        const { fast, readable } = enginesOn('others', strategy, withLatency);
        expect(fast).toEqual(readable);
      }
    }
  });

  it('the settings tell the runs apart (the comparison is not between two empty answers)', () => {
    // STRATEGIES[0] is full history: the answers the tests above compared.
    expect(STRATEGIES[0]).toEqual({ kind: 'full' });
    const { fast } = enginesOn('mini', 0, false);
    const reasons = new Set(fast.totals.flatMap((total) => Object.keys(total.stopReasons)));
    expect([...reasons].sort()).toEqual(expect.arrayContaining(['budget', 'completed', 'max_steps', 'repeat']));
    expect(fast.totals.some((total) => total.falseStops > 0)).toBe(true);
    const cassettes = enginesOn('others', 0, true).fast;
    expect(cassettes.totals.find((total) => total.setting === 'timeout=5')!.stopReasons.timeout).toBeGreaterThan(0);
  });
});
