/**
 * runsContext: the context and tool-result cap a report's runs took, decided on the strategies (runsStrategy),
 * a cap included. A scenario file that adds only `tool-result-cap: 500` under `--context summary:…` made runs
 * under another strategy, yet the settings line said the flags' context alone (`context summary:… · cache off`)
 * while sweep's rows said `toolResultCap 500`; beside recorded runs (which took no cap) a sweep's rows said the
 * flags' context with one cap and its summary warnings named a strategy the synthetic runs did not take.
 */
import { describe, expect, it } from 'vitest';
import { parseContextSpec, type ContextStrategy } from '../../src/context/strategy.js';
import { contextText } from '../../src/report/settings.js';
import { runsContext } from '../../src/report/runsTook.js';

const SPEC = 'summary:trigger=100000,keep=2,tokens=80';
const S = parseContextSpec(SPEC);
const capped: ContextStrategy = { ...S, toolResultCap: 500 };
const window: ContextStrategy = parseContextSpec('window:3');
const said = (own: ContextStrategy, files: ContextStrategy[], recordedRuns: boolean, ownLabel?: string) => runsContext({ own, files, recordedRuns, ownLabel, capText: contextText });

describe('runsContext: the context and cap the runs took', () => {
  it("one strategy: its context and cap, a file's own cap named", () => {
    expect(said(S, [capped], false)).toEqual({ context: SPEC, toolResultCap: 500 });
    expect(said(S, [{ ...capped, cache: 'on' }, capped], false)).toEqual({ context: SPEC, toolResultCap: 500 });
    expect(said(capped, [capped], true)).toEqual({ context: SPEC, toolResultCap: 500 });
    expect(said(S, [], true)).toEqual({ context: SPEC });
    expect(said(parseContextSpec('full'), [], true, 'as recorded (window:8 ×1)')).toEqual({ context: 'as recorded (window:8 ×1)' });
  });

  it('runs whose caps differ: each strategy with its cap, and no one cap', () => {
    expect(said(S, [capped], true)).toEqual({ context: `${SPEC} (synthetic: ${SPEC} · tool-result-cap 500)` });
    expect(said(S, [capped, S], false)).toEqual({ context: "each scenario file's own, listed below" });
    expect(said(parseContextSpec('full'), [capped], true, 'as recorded (window:8 ×1)')).toEqual({ context: `as recorded (window:8 ×1) (synthetic: ${SPEC} · tool-result-cap 500)` });
  });

  it('runs that took one cap under several contexts: the contexts as before, and that cap', () => {
    expect(said({ ...S, toolResultCap: 500 }, [{ ...window, toolResultCap: 500 }], true)).toEqual({ context: `${SPEC} (synthetic: window:3)`, toolResultCap: 500 });
    // No recorded run took the flags' (uncapped) strategy: the cap is the files'.
    expect(said(S, [{ ...window, toolResultCap: 500 }, capped], false)).toEqual({ context: "each scenario file's own, listed below", toolResultCap: 500 });
    expect(said(S, [window], true)).toEqual({ context: `${SPEC} (synthetic: window:3)` });
  });
});
