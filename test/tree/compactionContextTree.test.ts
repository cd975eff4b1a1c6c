/**
 * A compaction in a session tree (kernel/compaction.ts): its output replaces the conversation, the one
 * the part's context holds and, in a later part, the one carried in from earlier parts; the next
 * estimate adds the conversation's framing (its first call's overhead, the agent's first part's). Held on
 * a hand-built agent of two parts and on the two shared Claude Code sessions, whose predictive budget
 * refused the call after their compaction on an estimate of the compaction's own prompt.
 */
import { describe, expect, it } from 'vitest';
import { NO_BRAKES } from '../../src/brakes/config.js';
import { FULL_HISTORY } from '../../src/context/strategy.js';
import { usdToPico } from '../../src/money.js';
import { replayTree } from '../../src/tree/replayTree.js';
import { call, toolCall } from '../helpers.js';
import { part, PART_PRICES } from './agentParts.js';
import { cli } from '../cli/run.js';

const SESSIONS = '../shared/agent-logs/claude-code';
const A = `${SESSIONS}/258c7280-ae70-4798-800f-63464d01a85d.jsonl.gz`;
const B = `${SESSIONS}/ae4a77f8-aedd-4bc1-888f-c94edc91af04.jsonl.gz`;

// Part 1: a tool step billed 21,100 (20,000 of framing beyond system + goal), an answer billed 48,000.
// Part 2 (the next user turn) opens with a compaction billed the conversation, 49,000, 2,000 tokens out;
// the next prompt is billed 24,000 (system + goal + summary + framing + 900).
const PARTS = [
  part(1, [call(2000, [toolCall('read', { f: 1 }, 5000)], { inputTokens: 21_100 }), call(500, undefined, { inputTokens: 48_000 })], 0),
  part(2, [call(2000, undefined, { inputTokens: 49_000, compaction: true }), call(500, [toolCall('read', { f: 2 }, 100)], { inputTokens: 24_000 }), call(100, undefined, { inputTokens: 25_000 })], 60_000),
];

describe('a compaction in a session tree', () => {
  it("the call after a later part's compaction is bounded on the part's goal + summary + the agent's framing (23,100 tokens), not on the conversation the compaction replaced (49,000)", () => {
    const free = replayTree(PARTS, { brakes: NO_BRAKES, strategy: FULL_HISTORY, prices: PART_PRICES });
    // Parts 1: $0.0211 + $0.02 + $0.048 + $0.005; part 2: $0.049 + $0.02, $0.024 + $0.005, $0.025 + $0.001.
    expect(free.totals.costPico).toBe(usdToPico(0.0941) + usdToPico(0.069) + usdToPico(0.029) + usdToPico(0.026));
    const beforeCall = usdToPico(0.0941) + usdToPico(0.069);
    // Room for the call after the compaction on 1,100 + 2,000 + 20,000 = 23,100 tokens ($0.0231 + $0.04096),
    // not on the compaction's own prompt (49,000 + 2,000: $0.051 + $0.04096).
    const budget = beforeCall + usdToPico(0.0231) + usdToPico(0.04096);
    const tree = replayTree(PARTS, { brakes: { ...NO_BRAKES, maxCostPico: budget, budgetMode: 'predict' }, strategy: FULL_HISTORY, prices: PART_PRICES });
    expect(tree.agents[0]!.calls).toBeGreaterThan(3);
    const tight = replayTree(PARTS, { brakes: { ...NO_BRAKES, maxCostPico: budget - 1, budgetMode: 'predict' }, strategy: FULL_HISTORY, prices: PART_PRICES });
    expect(tight.stopReason).toBe('budget');
    expect(tight.totals.costPico).toBe(beforeCall);
    expect(tight.agents[0]!.stop?.detail).toContain('23100-token prompt');
  });

  it('the context window compares the same estimate', () => {
    // The compaction's own estimate is the conversation so far (part 1's next, 48,500) + part 2's goal:
    // 48,600, at the window; the prompt after it was estimated 49,000 (refused), now 23,100.
    const tree = replayTree(PARTS, { brakes: { ...NO_BRAKES, contextWindow: 48_600 }, strategy: FULL_HISTORY, prices: PART_PRICES });
    expect(tree.stopReason).toBe('completed');
  });

  // (The bound prices a prompt at the model's dearest cache write, $10/M for an hour: at $9.95 the tree
  // now stops before its compaction; at $10.80 it passes it, where an estimate of 169,248 tokens, $1.79,
  // would have stopped it at $9.0965.)
  it('shared session A under $10.80 predict: the call after the compaction (a 33,960-token prompt) is bounded on 25,888 tokens, not 169,248, and the tree goes on', async () => {
    const run = await cli('replay', '--tree', A, '--max-cost', '10.8', '--budget-mode', 'predict', '--format', 'json');
    expect(run.code).toBe(0);
    const [tree] = JSON.parse(run.stdout).trees;
    expect(tree.stopReason).toBe('budget');
    expect(tree.totals.calls).toBe(123); // 124 before the sub-agent's last output was its Task result's (997 tokens, not 1)
    expect(tree.totals.costUsd).toBeLessThanOrEqual(10.8);
    expect(tree.stopDetail).not.toContain('169248-token prompt');
    // The context window: the prompt after the compaction is estimated far below 168,000.
    const window = await cli('replay', '--tree', A, '--context-window', '168000', '--format', 'json');
    expect(JSON.parse(window.stdout).trees[0].stopReason).toBe('completed');
  });

  it('shared session B under $3.40 predict: the call after the compaction (its third part, a 45,263-token prompt) is bounded on 28,052 tokens, not 139,534', async () => {
    const run = await cli('replay', '--tree', B, '--max-cost', '3.4', '--budget-mode', 'predict', '--format', 'json');
    const [tree] = JSON.parse(run.stdout).trees;
    expect(tree.stopReason).toBe('budget');
    expect(tree.totals.calls).toBeGreaterThan(142);
    expect(tree.totals.costUsd).toBeLessThanOrEqual(3.4);
    expect(tree.stopDetail).not.toContain('139534-token prompt');
  });
});
