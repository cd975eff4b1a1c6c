/**
 * A healthy entry's per-run repeat share (`repeatShareScale`) and its failures that repeat the error just
 * made (`errorInARowShare`): src/synthetic/behaviours/healthy.ts.
 */
import { describe, expect, it } from 'vitest';
import { NO_BRAKES } from '../../src/brakes/config.js';
import { actionFingerprint, errorFingerprint } from '../../src/brakes/fingerprint.js';
import { scenarioRuns, type SyntheticRun } from '../../src/scenario/run.js';
import type { Scenario } from '../../src/scenario/load.js';
import { entry, PRICES, scenarioOf } from './helpers.js';

function runs(scenario: Scenario, count = 1000): SyntheticRun[] {
  return [...scenarioRuns(scenario, { prices: PRICES, runs: count, seed: 3, brakes: NO_BRAKES }, true)];
}

const toolsOf = (run: SyntheticRun) => run.calls.flatMap((c) => c.toolCalls ?? []);

/** A run's repeated tool calls over the calls that could repeat (all but its first). */
function repeatShareOf(run: SyntheticRun): number {
  const seen = new Set<string>();
  let repeats = 0;
  const tools = toolsOf(run);
  for (const tool of tools) {
    const key = actionFingerprint(tool.name, tool.arguments);
    if (seen.has(key)) repeats += 1;
    seen.add(key);
  }
  return repeats / (tools.length - 1);
}

const mean = (xs: readonly number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
const variance = (xs: readonly number[]) => mean(xs.map((x) => (x - mean(xs)) ** 2));

describe('healthy: repeatShareScale draws each run its own repeat share', () => {
  const base = { steps: 81, repeatShare: 0.1, repeatFocus: 0.4 };

  it('the runs repeat at repeatShare on average, spread as repeatShare × the scale (beyond the binomial noise of one share)', () => {
    const one = runs(scenarioOf({ population: [entry('healthy', base)] })).map(repeatShareOf);
    // A scale uniform from 0 to 2 (mean 1): run shares uniform from 0 to 0.2, variance 0.2² / 12 = 0.0033.
    const spread = runs(scenarioOf({ population: [entry('healthy', { ...base, repeatShareScale: { kind: 'empirical', quantiles: [0, 2] } })] })).map(repeatShareOf);
    expect(mean(one)).toBeCloseTo(0.1, 2);
    expect(mean(spread)).toBeCloseTo(0.1, 2);
    // One share: only the binomial noise of 80 calls, 0.1 × 0.9 / 80 = 0.0011; with the scale, that plus 0.0033.
    expect(variance(one)).toBeLessThan(0.0015);
    expect(variance(spread)).toBeGreaterThan(0.0038);
    expect(variance(spread)).toBeLessThan(0.0052);
  });

  it('a scale of 0 makes no repeats; a product past 1 is held at 1', () => {
    const none = runs(scenarioOf({ population: [entry('healthy', { ...base, repeatShareScale: 0 })] }), 50);
    expect(none.map(repeatShareOf).every((s) => s === 0)).toBe(true);
    const all = runs(scenarioOf({ population: [entry('healthy', { ...base, repeatShareScale: 20 })] }), 50);
    // Every call after a run's first repeats an earlier one, except where only the action just run is there (its second).
    for (const r of all) expect(repeatShareOf(r)).toBeCloseTo(78 / 79, 5);
  });

  it('needs repeatShare: a user mistake naming the field', () => {
    expect(() => scenarioOf({ population: [entry('healthy', { steps: 10, repeatShareScale: 2 })] })).toThrow(/repeatShareScale[\s\S]*needs repeatShare/);
  });
});

/** Same-error failures right after a failure, and those with the error just made (two in a row). */
function inARow(all: readonly SyntheticRun[]): { afterFailure: number; inARow: number; failures: number; same: number } {
  const out = { afterFailure: 0, inARow: 0, failures: 0, same: 0 };
  for (const run of all) {
    const seen = new Set<string>();
    let last: string | undefined;
    for (const tool of toolsOf(run)) {
      const key = tool.error ? errorFingerprint(tool.name, tool.error) : undefined;
      if (key !== undefined) {
        out.failures += seen.size > 0 ? 1 : 0;
        if (seen.has(key)) {
          out.same += 1;
          if (last !== undefined) out.afterFailure += 1;
          if (last === key) out.inARow += 1;
        }
        seen.add(key);
      }
      last = key;
    }
  }
  return out;
}

describe('healthy: errorInARowShare repeats the error just made', () => {
  const base = { steps: 60, errorShare: 0.3, errorSameShare: 0.5 };

  it('a same-error failure right after a failure takes its error at that share (else one drawn by use); the same-error share stays', () => {
    const byUse = inARow(runs(scenarioOf({ population: [entry('healthy', base)] })));
    const always = inARow(runs(scenarioOf({ population: [entry('healthy', { ...base, errorInARowShare: 1 })] })));
    const half = inARow(runs(scenarioOf({ population: [entry('healthy', { ...base, errorInARowShare: 0.5 })] })));
    // ~2,600 same-error failures right after a failure each: a share's sd is about 1 point.
    expect(byUse.afterFailure).toBeGreaterThan(2000);
    const w = byUse.inARow / byUse.afterFailure;
    expect(w).toBeGreaterThan(0.2);
    expect(w).toBeLessThan(0.6);
    expect(always.inARow).toBe(always.afterFailure);
    expect(Math.abs(half.inARow / half.afterFailure - (0.5 + 0.5 * w))).toBeLessThan(0.03);
    // Which earlier error a same-error failure takes, not how many there are.
    console.log(byUse, always, half, w);
    for (const r of [always, half]) expect(Math.abs(r.same / r.failures - 0.5)).toBeLessThan(0.02);
  });

  it('needs errorSameShare: a user mistake naming the field', () => {
    expect(() => scenarioOf({ population: [entry('healthy', { steps: 10, errorShare: 0.2, errorInARowShare: 0.5 })] })).toThrow(/errorInARowShare[\s\S]*needs errorSameShare/);
  });
});
