/**
 * A compaction call recorded `unparseable` (a summary the agent made that could not be used: a live loop's
 * empty summary, agent/liveSummary.ts) replaced nothing when the run made it, so a replay under full
 * history or a what-if strategy keeps the steps too (kernel/compaction.ts `compacts`): the readable loop.
 * test/fast/unparseableCompaction.test.ts holds the compiled replay to the same figures.
 *
 * The trace: system 500 + goal 100; four steps of 1,000 tokens (100 out, a 900-token result), billed 2,000
 * tokens of framing beyond the context at the first call and 500 more per step after; a compaction call
 * billed 8,600 (the context's 4,600 + 4,000) that answered 12 tokens no one could use; a step billed 8,100
 * and an answer billed 9,600.
 */
import { describe, expect, it } from 'vitest';
import { estimatesAfterCalls } from '../loop/estimatesAfterCalls.js';
import { NO_BRAKES, type BrakeConfig } from '../../src/brakes/config.js';
import { FULL_HISTORY, type ContextStrategy } from '../../src/context/strategy.js';
import { runLoop } from '../../src/loop/run.js';
import { ReplaySource } from '../../src/loop/replaySource.js';
import { LoopSession } from '../../src/loop/session.js';
import { replayTrace } from '../../src/replay/replay.js';
import { call, handPriced, handTable, toolCall, trace } from '../helpers.js';

const PRICING = handPriced('m', { input: 1, output: 2, cached: 0.1 }, 1_000_000);
const step = (i: number, inputTokens: number) => call(100, [toolCall('read', { i }, 900)], { inputTokens });
const UNPARSEABLE_COMPACTION_CALLS = [
  step(0, 2600),
  step(1, 4100),
  step(2, 5600),
  step(3, 7100),
  call(12, undefined, { inputTokens: 8600, compaction: true, unparseable: true }),
  step(5, 8100),
  call(100, undefined, { inputTokens: 9600 }),
];
const TRACE = trace(UNPARSEABLE_COMPACTION_CALLS, { system: 500, goal: 100, outcome: 'completed', origin: 'recorded', model: 'm' });
const SUMMARY: ContextStrategy = { kind: 'summary', summary: { triggerTokens: 6000, keepSteps: 1, summaryTokens: 200 } };

function readable(brakes: BrakeConfig, strategy: ContextStrategy = FULL_HISTORY) {
  return runLoop(new ReplaySource(TRACE), { brakes, strategy, cache: 'recorded', pricing: PRICING, systemTokens: 500, goalTokens: 100, keepSteps: true });
}

describe('an unparseable compaction replaces nothing in a replay (readable loop)', () => {
  it('the prompt after it holds the four steps: estimated 4,600 + the 4,000 the compaction was billed beyond them', () => {
    const session = new LoopSession({ brakes: NO_BRAKES, strategy: FULL_HISTORY, cache: 'recorded', pricing: PRICING, systemTokens: 500, goalTokens: 100 });
    const source = new ReplaySource(TRACE);
    const estimates = estimatesAfterCalls(session, source, 6);
    // A compaction that compacted would leave 600 + 12 + the 2,000 framing = 2,612 after call 4.
    expect(estimates).toEqual([1600 + 2000, 2600 + 2500, 3600 + 3000, 4600 + 3500, 4600 + 4000, 5600 + 3500]);
    expect(session.prompt()).toMatchObject({ inputTokens: 5600, historySteps: 5, firstKeptStep: 0 });
  });

  it('the context-window brake sees the kept steps: a window of 8,200 stops before the call after it', () => {
    const run = readable({ ...NO_BRAKES, contextWindow: 8200 });
    expect([run.stop.reason, run.calls]).toEqual(['context_overflow', 5]);
    expect(run.stop.detail).toContain('next prompt holds 8600 tokens');
  });

  it('what-if strategies keep the steps: a window drops the early ones after it, a summary strategy summarises again', () => {
    // window:2: the prompts after it lose the steps before the window (a compaction that compacted billed
    // them as recorded, 8,100 and 9,600: nothing left to drop).
    const window = readable(NO_BRAKES, { kind: 'window', windowSteps: 2 });
    expect(window.rows.map((row) => row.inputTokens)).toEqual([2600, 4100, 5600, 6100, 6600, 6100, 6600]);
    // summary (trigger 6,000, keep 1): a summary call before the trace's calls 3 and 4 (the run's 4 and 6),
    // and, as the compaction kept the history, another before the answer (the run's 9; a compaction that
    // compacted left the prompts under the trigger, 8,100 and 9,600 billed as recorded).
    const summarised = readable(NO_BRAKES, SUMMARY);
    expect(summarised.rows.map((row) => [row.call, row.summary === true, row.inputTokens])).toEqual([
      [1, false, 2600], [2, false, 4100], [3, false, 5600], [4, true, 6600], [5, false, 5300], [6, true, 6300],
      [7, false, 5800], [8, false, 5300], [9, true, 6300], [10, false, 5800],
    ]);
    // The engines agree (readable = compiled) whatever the strategy.
    const table = handTable(PRICING);
    for (const strategy of [FULL_HISTORY, SUMMARY, { kind: 'window', windowSteps: 2 } as ContextStrategy]) {
      const options = { brakes: NO_BRAKES, strategy, prices: table };
      expect(replayTrace(TRACE, { ...options, engine: 'compiled' })).toEqual(replayTrace(TRACE, { ...options, engine: 'readable' }));
    }
  });
});
