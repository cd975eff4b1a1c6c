/**
 * ReplaySource is every replay's source of a recording: a lone replay's, and each run's of a session tree
 * (tree/treeReplay.ts), which gives it the run's calls as the tree plays them (`calls`) and plays them where
 * its schedule puts them (`at`). At call c it answers as it does once it has given c calls in order, and a
 * run replayed as it ran counts what it has given (`given`) its recorded summary calls among them.
 */
import { describe, expect, it } from 'vitest';
import { ReplaySource } from '../../src/loop/replaySource.js';
import type { CallRecord } from '../../src/trace/types.js';
import { call, toolCall, trace } from '../helpers.js';

/** What a source says before it gives its next call, and of the call it then gives. */
function answers(source: ReplaySource) {
  const before = { endedBeforeNextCall: source.endedBeforeNextCall(), callsLeft: source.callsLeft() };
  const given = source.next();
  return { ...before, given, refusal: source.refusal(), reason: source.exhaustedReason(), detail: source.exhaustedDetail() };
}

const refused: CallRecord = call(0, undefined, { failed: { status: 400, message: 'context_length_exceeded', contextLengthExceeded: { promptTokens: 130_000, contextWindowTokens: 128_000 } } });
const recording = trace([call(10, [toolCall('ls', {}, 50)]), call(20, [toolCall('cat', { f: 1 }, 60)]), refused], { outcome: 'error' });

describe('ReplaySource at a call', () => {
  it('at call c answers as the source that has given c calls in order, past the last too, wherever it was', () => {
    const placed = new ReplaySource(recording);
    for (let c = recording.calls.length + 1; c >= 0; c--) {
      const inOrder = new ReplaySource(recording);
      for (let given = 0; given < c; given++) inOrder.next();
      expect(answers(placed.at(c))).toEqual(answers(inOrder));
    }
  });

  it('gives the calls it is told (a tree’s, each tool call’s time its own) instead of the trace’s', () => {
    const own = recording.calls.map((recorded) => ({ ...recorded, latencyMs: 7 }));
    const source = new ReplaySource(recording, { calls: own });
    expect([source.next(), source.next(), source.next(), source.next()]).toEqual([...own, null]);
    expect(source.refusal()).toBeUndefined();
    expect(source.at(2).next()).toBe(own[2]);
    expect(source.refusal()).toEqual({ promptTokens: 130_000, contextWindowTokens: 128_000 });
  });

  it('counts the calls it has given, its recorded summary calls among them, never past its last', () => {
    const compacted = trace([call(10, [toolCall('ls', {}, 50)]), call(30, undefined, { compaction: true }), call(20)], { outcome: 'completed' });
    const source = new ReplaySource(compacted, { summariesRecorded: true });
    expect(source.recordedSummary!()).toBeNull();
    expect(source.given()).toBe(0);
    source.next();
    expect(source.recordedSummary!()).toBe(compacted.calls[1]);
    expect(source.given()).toBe(2);
    source.next();
    expect(source.next()).toBeNull();
    expect(source.given()).toBe(3);
    expect(new ReplaySource(compacted).recordedSummary).toBeUndefined();
  });

  it('takes the boolean its second argument was before options (summaries recorded)', () => {
    const compacted = trace([call(10, [toolCall('ls', {}, 50)]), call(30, undefined, { compaction: true }), call(20)], { outcome: 'completed' });
    const source = new ReplaySource(compacted, true);
    source.next();
    expect(source.recordedSummary!()).toBe(compacted.calls[1]);
    expect(new ReplaySource(compacted, false).recordedSummary).toBeUndefined();
  });
});
