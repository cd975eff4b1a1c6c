/**
 * A StepSource's facts (its fields: readsToolState, cacheWrites, reasoningReenters) reach the session through
 * every wrapper of the source: the library's runLoop (loop/checkedRun.ts) and fit's replay that watches the
 * prompts (scenario/fitFacts.ts) hand the session what the wrapped source says of itself (loop/sourceFacts.ts).
 * A recording whose reasoning does not re-enter its prompts (`reasoningInPrompt: false`) grows its context by
 * the output less the reasoning in both, as the internal loop grows it.
 */
import { describe, expect, it } from 'vitest';
import { NO_BRAKES } from '../../src/brakes/config.js';
import { runLoop } from '../../src/index.js';
import { runLoop as internalRunLoop } from '../../src/loop/run.js';
import { ReplaySource } from '../../src/loop/replaySource.js';
import { sourceFacts } from '../../src/loop/sourceFacts.js';
import type { StepSource } from '../../src/loop/types.js';
import { factsOf } from '../../src/scenario/fitFacts.js';
import type { Trace } from '../../src/trace/types.js';
import { call, toolCall, trace } from '../helpers.js';
import { pricings } from '../core/arbitraries.js';

const pricing = pricings[0]!;
const withoutReasoning = (t: Trace): Trace => ({ ...t, header: { ...t.header, reasoningInPrompt: false } });

/** System 100; two calls of output 1000 (reasoning 900), each with a 50-token result; a final call. */
function reasoningTrace(recordedPrompts: boolean): Trace {
  const input = (tokens: number) => (recordedPrompts ? { inputTokens: tokens } : {});
  const calls = [
    call(1000, [toolCall('read', { a: 1 }, 50)], { reasoningTokens: 900, ...input(100) }),
    call(1000, [toolCall('read', { a: 2 }, 50)], { reasoningTokens: 900, ...input(250) }),
    call(10, [], { final: true, ...input(400) }),
  ];
  return withoutReasoning(trace(calls, { system: 100, origin: 'recorded', model: pricing.model }));
}

describe('a step source’s facts reach its session through every wrapper', () => {
  it('the library’s runLoop grows the context of a recording whose reasoning stays out by the output less the reasoning, as the internal loop does', () => {
    const t = reasoningTrace(false);
    const options = { brakes: NO_BRAKES, strategy: { kind: 'full' as const }, cache: 'recorded' as const, pricing, systemTokens: 100, goalTokens: 0 };
    const library = runLoop(new ReplaySource(t), options);
    const internal = internalRunLoop(new ReplaySource(t), options);
    // 100, then 100 + (1000 − 900) + 50, then 250 + 150: not 100 + 1150 + 2200 (the whole output entering).
    expect(internal.inputTokens).toBe(750);
    expect(library.inputTokens).toBe(750);
    // The header unset, the reasoning enters: both loops say so too.
    const entering = { ...t, header: { ...t.header, reasoningInPrompt: undefined } };
    expect([runLoop(new ReplaySource(entering), options).inputTokens, internalRunLoop(new ReplaySource(entering), options).inputTokens]).toEqual([3450, 3450]);
  });

  it('fit’s replay that watches the prompts models a recording whose reasoning stays out with no drift in its overhead', () => {
    const facts = factsOf(reasoningTrace(true), pricing);
    // Each recorded prompt is what the growth model builds (the output less its reasoning entering): no overhead.
    expect(facts.overhead).toEqual([
      [0, 0],
      [1, 0],
      [2, 0],
    ]);
  });

  it('sourceFacts states every fact of a source, those left out as undefined', () => {
    const source: StepSource = { next: () => null, exhaustedReason: () => 'trace_end', cacheWrites: 1 as never, reasoningReenters: false };
    expect(sourceFacts(source)).toEqual({ readsToolState: undefined, cacheWrites: 1, recordsCache: undefined, reasoningReenters: false });
    const replay = new ReplaySource(reasoningTrace(false));
    expect(sourceFacts(replay)).toEqual({ readsToolState: false, cacheWrites: replay.cacheWrites, recordsCache: replay.recordsCache, reasoningReenters: false });
  });
});
