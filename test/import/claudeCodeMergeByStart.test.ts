/**
 * A session's compaction calls (from their own transcripts) go among the main agent's calls by start
 * time. One without a start time sorted first and, never passing the merge's test, held every timed
 * compaction call behind it at the end: the context replayed in the wrong order.
 */
import { describe, expect, it } from 'vitest';
import { mergeByStart } from '../../src/import/claudeCode/sessionTree.js';
import type { AgentCall } from '../../src/import/common/agentRuns.js';

const at = (id: string, startedAtMs?: number) => ({ record: { outputTokens: 1, id }, startedAtMs }) as unknown as AgentCall;
const ids = (calls: AgentCall[]) => calls.map((call) => (call.record as unknown as { id: string }).id).join(' ');
const MAIN = [at('m1', 10), at('m2', 30), at('m3', 50)];

describe('compaction calls merged by start time', () => {
  it('a timed one goes where its time says, an untimed one after every call', () => {
    expect(ids(mergeByStart(MAIN, [at('c20', 20)]))).toBe('m1 c20 m2 m3');
    expect(ids(mergeByStart(MAIN, [at('c20', 20), at('cNone')]))).toBe('m1 c20 m2 m3 cNone');
    expect(ids(mergeByStart(MAIN, [at('cNone'), at('c40', 40), at('c20', 20)]))).toBe('m1 c20 m2 c40 m3 cNone');
    expect(ids(mergeByStart(MAIN, [at('c30', 30)]))).toBe('m1 m2 c30 m3');
  });
});
