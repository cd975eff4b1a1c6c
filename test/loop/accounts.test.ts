/** What a run keeps as it pays for each call: rows through a step (keepStepsThrough: what a recording written down up to that step needs, the same rows a run keeping every one has first), and figures the meter the loop reuses from call to call leaves no trace of. */
import { describe, expect, it } from 'vitest';
import { NO_BRAKES } from '../../src/brakes/config.js';
import { ReplaySource } from '../../src/loop/replaySource.js';
import { runLoop } from '../../src/loop/run.js';
import type { LoopOptions } from '../../src/loop/types.js';
import { call, MINI, toolCall, trace } from '../helpers.js';

describe('rows kept through a step', () => {
  const recording = trace([call(40, [toolCall('a', {}, 100)]), call(30, undefined, { backtrack: true }), call(40, [toolCall('b', {}, 100)]), call(50, [toolCall('c', {}, 100)]), call(30, undefined, { backtrack: true }), call(60)]);
  const options: LoopOptions = { brakes: NO_BRAKES, strategy: { kind: 'full' }, cache: 'off', pricing: MINI, systemTokens: 500, goalTokens: 100, keepSteps: true };

  it('keeps the rows of the calls made while the run had made at most that many steps, as keeping every row gives them', () => {
    const all = runLoop(new ReplaySource(recording), options).rows;
    expect(all).toHaveLength(6);
    // Steps: calls 1, 3, 4 and 6 (the backtracks are none); through step 2: calls 1–3; through step 3: calls 1–5 (the backtrack after step 3 too).
    expect(runLoop(new ReplaySource(recording), { ...options, keepStepsThrough: 2 }).rows).toEqual(all.slice(0, 3));
    expect(runLoop(new ReplaySource(recording), { ...options, keepStepsThrough: 3 }).rows).toEqual(all.slice(0, 5));
    expect(runLoop(new ReplaySource(recording), { ...options, keepStepsThrough: 10 }).rows).toEqual(all);
  });

  it('keeps none without keepSteps, and changes no figure', () => {
    const through = runLoop(new ReplaySource(recording), { ...options, keepSteps: false, keepStepsThrough: 2 });
    expect(through.rows).toEqual([]);
    const { rows: _rows, ...figures } = through;
    const { rows: _all, ...allFigures } = runLoop(new ReplaySource(recording), options);
    expect(figures).toEqual(allFigures);
  });
});

describe('the meter the loop reuses from call to call', () => {
  it('leaves no recorded prompt delta behind: calls with and without recorded prompts, a failed one among them', () => {
    const tool = () => [toolCall('t', {}, 100)];
    const recording = trace([call(50, tool(), { inputTokens: 900 }), call(50, tool()), call(50, tool(), { inputTokens: 1200 }), call(0, undefined, { inputTokens: 1300, failed: { status: 500, message: 'x' } }), call(60)]);
    const outcome = runLoop(new ReplaySource(recording), { brakes: NO_BRAKES, strategy: { kind: 'full' }, cache: 'off', pricing: MINI, systemTokens: 500, goalTokens: 100 });
    expect(outcome.calls).toBe(5);
    // Full history before call 1: 600 tokens (900 recorded: +300); before call 3: 600 + 2 × 150 = 900 (1200: +300); a failed call's is not counted.
    expect(outcome.recordedInputDelta).toBe(600);
  });
});
