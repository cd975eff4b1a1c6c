/**
 * The tool-result cap, applied once: ContextTracker.addToolResult returns the tokens a result added to its step
 * (cut to the cap), and a run's per-step row (RunAccounts.toolResultEntered) takes that figure with the result's
 * size before the cap — it no longer works the cap out again. A skipped tool's warning enters the same way.
 */
import { describe, expect, it } from 'vitest';
import { newBrakeState } from '../../src/brakes/state.js';
import { NO_BRAKES } from '../../src/brakes/config.js';
import { ContextTracker } from '../../src/kernel/context.js';
import { RunAccounts } from '../../src/loop/accounts.js';
import { ReplaySource } from '../../src/loop/replaySource.js';
import { runLoop } from '../../src/loop/run.js';
import { call, MINI, toolCall, trace } from '../helpers.js';

describe('a tool result kept once', () => {
  it('the context returns what a result added to its step: cut to the cap, whole under it', () => {
    const ctx = new ContextTracker(300, 50, { kind: 'full', toolResultCap: 500 });
    ctx.addStep(100);
    expect([ctx.addToolResult(1000), ctx.addToolResult(200), ctx.addToolResult(500)]).toEqual([500, 200, 500]);
    expect(ctx.view().inputTokens).toBe(350 + 100 + 500 + 200 + 500);
    const uncapped = new ContextTracker(300, 50, { kind: 'window', windowSteps: 1 });
    uncapped.addStep(10);
    expect(uncapped.addToolResult(7000)).toBe(7000);
  });

  it("the row takes the context's figure and the size before the cap as given", () => {
    const accounts = new RunAccounts(true);
    const state = newBrakeState();
    state.steps = 1;
    state.calls = 1;
    const usage = { input: 600, cached: 0, cacheWrite: 0, cacheWrite1h: 0, output: 100, reasoning: 0 };
    const view = { inputTokens: 600, fullInputTokens: 600, unchangedPrefixTokens: 0, historySteps: 0, firstKeptStep: 0 };
    accounts.add(call(100, [toolCall('grep', {}, 1000), toolCall('read', {}, 40)]), { usage, costPico: 0, cacheRuleLostTokens: 0 }, view, state);
    // The row is told 300 kept of 1000 (whatever cap gave it), then 40 of 40.
    accounts.toolResultEntered(300, 1000);
    accounts.toolResultEntered(40, 40);
    expect(accounts.rows[0]).toMatchObject({ tools: ['grep', 'read'], toolResultTokens: 340, toolResultTokensBeforeCap: 1040 });
  });

  it('a replay under a cap and a skip: each row as the context kept its results', () => {
    const recording = trace([call(50, [toolCall('grep', { q: 1 }, 5000), toolCall('read', { p: 'a' }, 300)]), call(40, [toolCall('read', { p: 'a' }, 300)]), call(30)]);
    const outcome = runLoop(new ReplaySource(recording), {
      brakes: { ...NO_BRAKES, maxRepeat: 1, repeatAction: 'skip', skipWarningTokens: 1500 },
      strategy: { kind: 'full', toolResultCap: 1000 },
      cache: 'off',
      pricing: MINI,
      systemTokens: 500,
      goalTokens: 100,
      keepSteps: true,
    });
    const tools = outcome.rows.map((row) => [row.toolResultTokens, row.toolResultTokensBeforeCap, row.skippedTools]);
    // Call 2's read repeats call 1's: skipped, its 1,500-token warning cut to the cap like any result.
    expect(tools).toEqual([[1000 + 300, 5000 + 300, undefined], [1000, 1500, ['read']], [undefined, undefined, undefined]]);
  });
});
