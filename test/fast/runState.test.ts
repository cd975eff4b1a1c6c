/**
 * resetRun writes the run record field by field (no fill): every field must be written, so a record
 * left by any earlier run (here: every field dirty) resets to exactly a fresh run's state.
 */
import { describe, expect, it } from 'vitest';
import { resetRun, Run } from '../../src/fast/runState.js';
import { StopCode } from '../../src/kernel/stopCodes.js';
import { lcg } from '../helpers.js';

/** A fresh run: every figure 0, no stop, no stop tool. */
function freshRun(): Float64Array {
  const st = new Float64Array(Run.Size);
  st[Run.Stop] = StopCode.None;
  st[Run.StopTool] = -1;
  return st;
}

describe('resetRun', () => {
  it('resets a record with every field dirty to a fresh run', () => {
    const next = lcg(7);
    for (let round = 0; round < 20; round++) {
      const st = new Float64Array(Run.Size);
      for (let k = 0; k < Run.Size; k++) st[k] = 1 + next(1_000_000);
      resetRun(st);
      expect(Array.from(st)).toEqual(Array.from(freshRun()));
    }
  });

  it('writes no field past the record', () => {
    const st = new Float64Array(Run.Size + 2).fill(5);
    resetRun(st);
    expect(st[Run.Size]).toBe(5);
    expect(st[Run.Size + 1]).toBe(5);
  });
});
