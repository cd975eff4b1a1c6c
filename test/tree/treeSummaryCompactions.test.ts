/**
 * A session tree replayed under a summary strategy: an agent's `calls` count the summary calls the strategy
 * made (model calls, not recorded ones), so its recorded compaction calls made are counted among the recorded
 * calls it reached — not among as many recorded calls as its calls figure (which would count a compaction
 * the run never reached once summary calls joined the figure).
 */
import { describe, expect, it } from 'vitest';
import { NO_BRAKES } from '../../src/brakes/config.js';
import { parseContextSpec } from '../../src/context/strategy.js';
import type { CallRecord } from '../../src/trace/types.js';
import { replayTree } from '../../src/tree/replayTree.js';
import { distinctSteps, MINI_TABLE, trace } from '../helpers.js';

describe('a tree agent under a summary strategy, stopped before its recorded compaction', () => {
  it('made no compaction call, though its calls (steps and summary calls) outnumber the recorded calls before the compaction', () => {
    const compaction: CallRecord = { type: 'call', outputTokens: 50, compaction: true };
    const lone = trace([...distinctSteps(6), compaction, ...distinctSteps(2)], { model: 'mini' });
    const run = { ...lone, header: { ...lone.header, agent: { sessionId: 's1', agentId: 'main', kind: 'main' as const } } };
    const tree = replayTree([run], { brakes: { ...NO_BRAKES, maxSteps: 5 }, strategy: parseContextSpec('summary:trigger=400,keep=1,tokens=50'), prices: MINI_TABLE });
    const [agent] = tree.agents;
    expect(agent!.stop?.reason).toBe('max_steps');
    expect(agent!.steps).toBe(5);
    expect(agent!.calls).toBeGreaterThan(6); // 7 or more: the old count reached the compaction record (the 7th)
    expect(agent!.compactionCalls).toBe(0);
  });
});
