import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { maxOf, minOf } from '../../src/metrics/extremes.js';
import { projectSpend } from '../../src/population/project.js';
import { lcg } from '../helpers.js';

function tsFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? tsFiles(path) : path.endsWith('.ts') ? [path] : [];
  });
}

describe('maxOf / minOf', () => {
  it('agree with Math.max / Math.min on random short lists (seed 7)', () => {
    const next = lcg(7);
    for (let trial = 0; trial < 500; trial++) {
      const values = Array.from({ length: next(20) }, () => next(2_000_001) - 1_000_000);
      expect(maxOf(values)).toBe(Math.max(...values));
      expect(minOf(values)).toBe(Math.min(...values));
    }
  });

  it('give the stated value for an empty list, and NaN when any value is NaN', () => {
    expect(maxOf([])).toBe(-Infinity);
    expect(minOf([])).toBe(Infinity);
    expect(maxOf([], 0)).toBe(0);
    expect(maxOf([3, NaN, 5])).toBeNaN();
    expect(minOf([3, NaN, 5])).toBeNaN();
  });

  it('take lists far past the length where a spread overflows the stack', () => {
    const values = Array.from({ length: 500_000 }, (_, i) => (i * 7919) % 500_000);
    expect(() => Math.max(...values)).toThrow(RangeError);
    expect(maxOf(values)).toBe(499_999);
    expect(minOf(values)).toBe(0);
    expect(maxOf(new Float64Array(values))).toBe(499_999);
  });

  it('projectSpend reports the dearest of 300,000 runs (a spread into Math.max overflowed)', () => {
    const costsPico = Array.from({ length: 300_000 }, (_, i) => 1_000_000 + (i % 1000));
    const projection = projectSpend(costsPico, { runsPerDay: 10, days: 2, seed: 1, trials: 5, resamples: 5 });
    expect(projection.perRunUsd.max).toBe(1_000_999 / 1e12);
  });

  it('no source file spreads a list into Math.max or Math.min', () => {
    const offenders = tsFiles('src').filter((file) => /Math\.(max|min)\([^)]*\.\.\./.test(readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '')));
    expect(offenders).toEqual([]);
  });
});
