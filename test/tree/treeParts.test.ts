/**
 * An agent's later part (a new user turn, a model switch) goes on with its conversation: before the part's
 * first call a live loop knows the conversation so far, so the predictive budget and the context window
 * estimate that first prompt from it, not from a fresh context (src/tree/engine.ts,
 * LoopSession.continueConversation). Held on a hand-built agent of two parts and on a shared real session.
 */
import { describe, expect, it } from 'vitest';
import { NO_BRAKES } from '../../src/brakes/config.js';
import { FULL_HISTORY } from '../../src/context/strategy.js';
import { usdToPico } from '../../src/money.js';
import { replayTree } from '../../src/tree/replayTree.js';
import { call, toolCall } from '../helpers.js';
import { part, PART_PRICES } from './agentParts.js';
import { cli } from '../cli/run.js';

// Part 1: a tool step billed 40,000 prompt tokens (tool schemas and framing the context does not hold), then
// an answer billed 47,000. Part 2, the next user turn: its first call is billed the conversation, 47,600.
const PARTS = [part(1, [call(2000, [toolCall('read', { f: 1 }, 5000)], { inputTokens: 40_000 }), call(500, undefined, { inputTokens: 47_000 })], 0), part(2, [call(500, undefined, { inputTokens: 47_600 })], 60_000)];

describe('an agent\'s later part in a tree', () => {
  it('its first prompt is estimated as the conversation so far plus its goal (47,600), so predict stops before it', () => {
    const free = replayTree(PARTS, { brakes: NO_BRAKES, strategy: FULL_HISTORY, prices: PART_PRICES });
    const partOneUsd = 0.06 + 0.052;
    expect(free.totals.costPico).toBe(usdToPico(partOneUsd + 0.0526));
    // A budget the second part's first call passes ($0.0526 with $0.047 left), though its prompt as a fresh
    // context (1,100 tokens, a $0.042 bound) would fit.
    const budget = partOneUsd + 0.047;
    const tree = replayTree(PARTS, { brakes: { ...NO_BRAKES, maxCostPico: usdToPico(budget), budgetMode: 'predict' }, strategy: FULL_HISTORY, prices: PART_PRICES });
    expect(tree.stopReason).toBe('budget');
    expect(tree.totals.costPico).toBe(usdToPico(partOneUsd));
    expect(tree.totals.costPico).toBeLessThanOrEqual(usdToPico(budget));
    expect(tree.agents[0]!.stop?.detail).toContain('47600-token prompt');
  });

  it('the context window compares the same estimate: a window below the conversation stops the second part before its call', () => {
    const tree = replayTree(PARTS, { brakes: { ...NO_BRAKES, contextWindow: 47_000 }, strategy: FULL_HISTORY, prices: PART_PRICES });
    expect(tree.stopReason).toBe('context_overflow');
    expect(tree.agents[0]!.calls).toBe(2);
  });

  it('a shared Claude Code session under $2 predict spends at most $2 (its third part opens on a ~144k-token prompt)', async () => {
    const run = await cli('replay', '--tree', '../shared/agent-logs/claude-code/ae4a77f8-aedd-4bc1-888f-c94edc91af04.jsonl.gz', '--max-cost', '2', '--budget-mode', 'predict', '--format', 'json');
    expect(run.code).toBe(0);
    const [tree] = JSON.parse(run.stdout).trees;
    expect(tree.stopReason).toBe('budget');
    expect(tree.totals.costUsd).toBeLessThanOrEqual(2);
    expect(tree.stopDetail).toMatch(/next call \(up to \$[\d.]+: 14\d{4}-token prompt/);
  });

  it("under a summary strategy the tree's predictive budget bounds each summary call too (it spent $1.508 of $1.50, $3.012 of $3, $4.008 of $4)", async () => {
    for (const budget of [1.5, 3, 4]) {
      const args = ['replay', '--tree', '../shared/agent-logs/claude-code/ae4a77f8-aedd-4bc1-888f-c94edc91af04.jsonl.gz', '--max-cost', String(budget), '--budget-mode', 'predict'];
      const run = await cli(...args, '--context', 'summary:trigger=40000,keep=3,tokens=4000', '--format', 'json');
      const [tree] = JSON.parse(run.stdout).trees;
      expect(tree.totals.summaryCalls, String(budget)).toBeGreaterThan(0);
      expect(tree.totals.costUsd, String(budget)).toBeLessThanOrEqual(budget);
    }
  });
});
