/**
 * Tree time of a sub-agent resumed by a later Task call (test/fixtures/claude-code-resumed): each part's
 * recorded time is taken off the Task call that started or resumed that part (tree/waitedTime.ts). The
 * session's clock runs 10:00:00 → 10:00:14: main's 3 calls (3 s) and its Task calls' own time (tu1: 2 s,
 * tu2: 3 s) are 8 s, the sub-agent's two parts 6 s. Before, the sub-agent's whole time was taken off tu1
 * (its first Task call) and nothing off tu2, which holds the second part: main read 9 s and the tree 15 s.
 */
import { describe, expect, it } from 'vitest';
import { NO_BRAKES } from '../../src/brakes/config.js';
import { FULL_HISTORY } from '../../src/context/strategy.js';
import { loadTraceFiles } from '../../src/import/index.js';
import { loadPriceTable } from '../../src/pricing/index.js';
import { replayTree } from '../../src/tree/replayTree.js';
import { collectAsync } from '../helpers.js';

const FIXTURE = 'test/fixtures/claude-code-resumed/aaaaaaaa-0000-0000-0000-000000000001.jsonl';

describe('tree time of a resumed sub-agent', async () => {
  const runs = await collectAsync(loadTraceFiles([FIXTURE]));
  const result = replayTree(runs, { brakes: NO_BRAKES, strategy: FULL_HISTORY, prices: loadPriceTable() });
  const elapsedMs = (agentId: string) => result.agents.find((agent) => agent.agentId === agentId)!.elapsedMs;

  it("takes each part's time off the Task call that started or resumed it: the session's wall clock", () => {
    expect(elapsedMs('a1b2c3d')).toBe(6000);
    expect(elapsedMs('main')).toBe(8000); // was 9000: tu2 kept the resumed part's 3 s
    expect(result.totals.elapsedMs).toBe(14_000); // was 15000
  });

  it("a timeout the session's clock had not reached before main's last call completes the tree", () => {
    // main's answer starts at 13 s on the session's clock; before, the tree read 14 s there and stopped it
    const timed = replayTree(runs, { brakes: { ...NO_BRAKES, timeoutMs: 13_500 }, strategy: FULL_HISTORY, prices: loadPriceTable() });
    expect(timed.stopReason).toBe('completed');
  });
});
