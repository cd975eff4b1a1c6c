/**
 * The context strategy a configuration's runs took, decided on the strategies (runsTook.ts runsStrategy), the
 * rule calibrate's and sweep's summary warnings name a strategy by: the flags' own when every scenario file's
 * runs took it, else the one every file's runs took when no trace file's run is among them, none where they
 * differ; a tool-result cap makes another strategy (it is in what the warning names), a cache does not.
 */
import { describe, expect, it } from 'vitest';
import { parseContextSpec, type ContextStrategy } from '../../src/context/strategy.js';
import { runsStrategy } from '../../src/report/runsTook.js';

const S = parseContextSpec('summary:trigger=100000,keep=2,tokens=80');
const capped: ContextStrategy = { ...S, toolResultCap: 500 };
const window: ContextStrategy = parseContextSpec('window:3');

describe('runsStrategy: the strategy the runs took', () => {
  it("the flags' own when no file's runs took another (a cache apart changes nothing)", () => {
    expect(runsStrategy(S, [], true)).toBe(S);
    expect(runsStrategy(S, [{ ...S, cache: 'on' }, S], true)).toBe(S);
  });

  it("every file's own when no trace file's run is among them, a cap alone making it another", () => {
    expect(runsStrategy(S, [capped, { ...capped }], false)).toBe(capped);
    expect(runsStrategy(window, [S, S], false)).toBe(S);
  });

  it('none where the runs took several: recorded runs beside a file of its own, or files that differ', () => {
    expect(runsStrategy(S, [capped], true)).toBeUndefined();
    expect(runsStrategy(window, [S], true)).toBeUndefined();
    expect(runsStrategy(S, [S, capped], false)).toBeUndefined();
    expect(runsStrategy(window, [S, window], false)).toBeUndefined();
  });
});
