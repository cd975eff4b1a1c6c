/**
 * A run's brakes on its tool calls, LoopSession's (session.ts checkTool, recordToolResult): the repeated-action
 * brake before a tool call runs (or the duplicate-action guard's skip), the same-tool-same-error brake after
 * it, each action and error fingerprinted once (an Interner a tree's runs share) and counted in the run's
 * BrakeState. The kernel decides (repeatOutcome, sameErrorStop); the compiled replay counts the same.
 */
import { actionFingerprint, errorFingerprint, type Interner } from '../brakes/fingerprint.js';
import type { BrakeState } from '../brakes/state.js';
import type { Stop } from '../brakes/stopReasons.js';
import { RepeatOutcome, repeatOutcome, sameErrorStop } from '../kernel/brakes.js';
import type { ContextTracker } from '../kernel/context.js';
import { Fact } from '../kernel/describe.js';
import { toolLatencyMs } from '../kernel/latency.js';
import { Limit, type BrakeLimits } from '../kernel/limits.js';
import { StopCode } from '../kernel/stopCodes.js';
import type { ToolCallRecord } from '../trace/types.js';
import type { RunAccounts } from './accounts.js';
import type { RunStops } from './runStops.js';
import type { LoopOptions } from './types.js';

/** checkTool's answer for an action the duplicate-action guard skips. */
export const SKIPPED = 'skip';

/** What the tool-call brakes read and write of their run. */
export interface ToolBrakesRun {
  limits: BrakeLimits;
  state: BrakeState;
  stops: RunStops;
  accounts: RunAccounts;
  context: ContextTracker;
  options: Pick<LoopOptions, 'latency'>;
  interner: Interner;
  /** Whether each action is fingerprinted and counted: for the repeated-action brake, or for a source that may read the counts. */
  countsActions: boolean;
}

export class ToolBrakes {
  constructor(private readonly run: ToolBrakesRun) {}

  /**
   * Before a tool call runs: the repeated-action brake. SKIPPED: the duplicate-action guard skipped it
   * (not executed; its warning observation joined the step, so do not call recordResult).
   */
  check(tool: ToolCallRecord): Stop | typeof SKIPPED | null {
    const { limits, state, stops, accounts, context } = this.run;
    if (!this.run.countsActions) {
      accounts.totals.toolCalls += 1;
      return null;
    }
    const action = this.run.interner.id(actionFingerprint(tool.name, tool.arguments));
    const tools = state.tools;
    const seen = tools.seen(action, limits[Limit.RepeatMode]!);
    const outcome = repeatOutcome(limits, seen, tools.skips);
    if (outcome === RepeatOutcome.Stop) {
      stops.facts[Fact.Seen] = seen;
      return stops.stop(StopCode.Repeat, `action ${tool.name}`);
    }
    if (outcome === RepeatOutcome.Skip) {
      tools.skip(action);
      accounts.totals.skippedActions += 1;
      const warningTokens = limits[Limit.SkipWarningTokens]!;
      const keptTokens = context.addToolResult(warningTokens);
      accounts.toolSkipped(tool.name);
      accounts.toolResultEntered(keptTokens, warningTokens);
      return SKIPPED;
    }
    tools.recordAction(action);
    accounts.totals.toolCalls += 1;
    return null;
  }

  /** After a tool call ran: its result joins the step; the same-tool-same-error brake. */
  recordResult(tool: ToolCallRecord): Stop | null {
    const { limits, state, stops } = this.run;
    this.run.accounts.toolResultEntered(this.run.context.addToolResult(tool.resultTokens), tool.resultTokens);
    const error = tool.error ? this.run.interner.id(errorFingerprint(tool.name, tool.error)) : -1;
    const tools = state.tools;
    tools.recordOutcome(error);
    state.elapsedMs += toolLatencyMs(tool.latencyMs ?? NaN, this.run.options.latency);
    if (error < 0) return null;
    const count = tools.errorCount(error, limits[Limit.SameErrorTotal] === 1);
    const code = sameErrorStop(limits, count);
    if (code === StopCode.None) return null;
    stops.facts[Fact.ErrorCount] = count;
    return stops.stop(code, `tool ${tool.name}`);
  }
}
