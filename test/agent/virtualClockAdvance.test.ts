/**
 * VirtualClock.advance refuses a step that would turn the clock back or break it (negative, NaN, infinite):
 * a LoopValueError naming the call, thrown where the bad step is taken. Before, advance(-5) turned the clock
 * back and advance(NaN) made every later reading NaN, refused (if at all) far from the caller's bug.
 */
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/agent/clock.js';
import { LoopValueError } from '../../src/agent/valueCheck.js';

describe('VirtualClock.advance', () => {
  it.each([-5, -Number.MIN_VALUE, NaN, Infinity, -Infinity, '5' as unknown as number])('refuses %s: a LoopValueError naming VirtualClock.advance, the clock unmoved', (ms) => {
    const clock = new VirtualClock();
    clock.advance(10);
    let thrown: unknown;
    try {
      clock.advance(ms);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(LoopValueError);
    expect(thrown).toMatchObject({ source: 'clock', field: 'VirtualClock.advance(ms)' });
    expect(Object.is((thrown as LoopValueError).value, ms)).toBe(true);
    expect((thrown as Error).message).toMatch(/^VirtualClock\.advance\(.*\): a step of time is a finite number of milliseconds, 0 or more/);
    expect(clock.now()).toBe(10);
  });

  it('takes 0 and any finite step forward', () => {
    const clock = new VirtualClock();
    clock.advance(0);
    clock.advance(1.5);
    clock.advance(1000);
    expect(clock.now()).toBe(1001.5);
  });
});
