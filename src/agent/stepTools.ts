/**
 * The real loop's tool calls of a step (agent/loop.ts): each one past the repeated-action brake
 * (session.checkTool; one the duplicate-action guard skips leaves a warning in its place), run — a
 * sub-agent tool's agent inside it, in the run's tree — under its deadline (deadline.ts), its result
 * counted, capped and let into the conversation, then the same-error brake (session.recordToolResult).
 * Aborted between them, the ones never reached are recorded `unreached`; one cut at its deadline leaves the
 * ones after it `unreached` and the brakes before the next call stop the run. Apart from the run that makes
 * them, as the things they need of that run (ToolsRun), as its failed and summary calls are.
 */
import type { Stop } from '../brakes/stopReasons.js';
import { Limit, toolOwnMs } from '../kernel/index.js';
import { SKIPPED } from '../loop/session.js';
import type { CallRecord } from '../trace/types.js';
import { capToolOutput, SKIP_WARNING } from './conversation.js';
import { cutToolCall, recordToolError } from './deadline.js';
import type { SummaryRun } from './liveSummary.js';
import type { ResolvedAgentOptions } from './loop.js';
import type { TreeMember } from './subagent.js';
import { subagentOptions } from './subagentRun.js';
import type { ToolCallStarts } from './toolCallStarts.js';
import type { ToolRegistry } from './tools.js';
import type { InFlight } from './thrownRun.js';
import { checkedToolResult, countedTokens } from './valueCheck.js';
import type { AgentRunResult, ModelTurn, SubagentSpec } from './types.js';

/** What a step's tool calls need of their run: what its summary call does (liveSummary.ts SummaryRun), its tools, its place in a tree. */
export interface ToolsRun extends Pick<SummaryRun, 'session' | 'options' | 'conversation' | 'lap' | 'aborted' | 'deadline' | 'cut'> {
  readonly tools: ToolRegistry;
  /** In a tree (sub-agent tools): the run's checks and totals there. */
  readonly member: TreeMember | undefined;
  /** The loop a sub-agent runs in (loop.ts agentLoop: passed in, so this module and the loop's import no cycle). */
  readonly agentLoop: (options: ResolvedAgentOptions) => Promise<AgentRunResult>;
}

/** A run's tool calls, step after step; what a sub-agent's run threw, kept until its tool returns. */
export class StepTools {
  /** The call whose tools are running (thrownRun.ts); cleared when runAll returns, kept when it throws. */
  inFlight: InFlight | undefined;
  private childElapsedMs = 0; // Time sub-agents (and theirs) took inside the current tool call: in the tree's totals, not the parent's tool's.
  private thrown: { error: unknown } | undefined; // What a sub-agent's run threw (bad options, a Model's bug): thrown on out of this run once its tool returns.

  constructor(private readonly run: ToolsRun) {}

  /** The tool calls of `turn`, recorded in `record`: the stop one of them made, else null (an abort after the last: the run's stop, no final mark). None is in flight once it returns; one that threw stays, for the run to record (loop.ts thrownOut). */
  async runAll(turn: ModelTurn, record: CallRecord): Promise<Stop | null> {
    const stop = await this.runEach(turn, record);
    this.inFlight = undefined;
    return stop;
  }

  /** runAll's calls, one after another, each in flight while it runs. */
  private async runEach(turn: ModelTurn, record: CallRecord): Promise<Stop | null> {
    const { session, options } = this.run;
    const cap = options.context.strategy?.toolResultCap ?? Infinity;
    for (let i = 0; i < turn.toolCalls.length; i++) {
      if (this.run.aborted()) return this.abortedAt(record, i);
      const call = turn.toolCalls[i]!;
      const tool = record.toolCalls![i]!;
      this.inFlight = { record, at: i, ran: false };
      const refused = session.checkTool(tool);
      if (refused === SKIPPED) {
        // The duplicate-action guard: not executed; the model sees a warning in its place.
        this.run.conversation.addToolResult(call.id, SKIP_WARNING);
        tool.resultTokens = session.limits[Limit.SkipWarningTokens]!;
        options.clock.toolCallDone?.(call.id, false);
        continue;
      }
      if (refused) return refused;
      this.run.member?.sync(session);
      this.childElapsedMs = 0;
      this.inFlight.ran = true;
      // Its sub-agents start only while it runs (toolCallStarts.ts): a runSubagent kept past it is refused.
      const starts = this.run.member?.toolCall(call.id, i);
      const deadline = this.run.deadline();
      const ran = await this.run.tools.run(call, { callId: call.id, callIndex: i, ...(deadline.signal === undefined ? {} : { signal: deadline.signal }), ...(starts ? { runSubagent: (spec: SubagentSpec) => this.runSubagent(spec, starts) } : {}) });
      starts?.close();
      // Over serve, the call's recorded time, whether or not the tool ran (servedClock.ts).
      options.clock.toolCallDone?.(call.id, true);
      deadline.end();
      const result = checkedToolResult(ran, call.name);
      if (this.thrown) throw this.thrown.error;
      const tokens = result.tokens ?? countedTokens(options.countTokens, result.output, `tools.${call.name} output`);
      tool.resultTokens = tokens;
      tool.latencyMs = toolOwnMs(this.run.lap(), this.childElapsedMs);
      recordToolError(tool, ran, this.run.aborted());
      this.run.conversation.addToolResult(call.id, capToolOutput(result.output, tokens, cap));
      const failed = session.recordToolResult(tool);
      if (failed) return failed;
      if (ran.cutOff && !this.run.aborted()) return this.cutAt(record, i, call.name);
    }
    if (!this.run.aborted()) return null;
    delete record.final; // Aborted after its tool calls, before its step ended: a final mark completed nothing (replayed, it would complete the run: session.endStep).
    return session.aborted();
  }

  /** A sub-agent tool's agent (subagentRun.ts), run to its stop inside this run's tool call, in this run's tree, once the ones it started before have ended (TreeMember.inTurn); what it throws ends this run too (runAll). */
  private runSubagent(spec: SubagentSpec, starts: ToolCallStarts): Promise<AgentRunResult> {
    const { member, options } = this.run;
    return member!.inTurn(async () => {
      if (this.thrown) throw this.thrown.error;
      try {
        const before = member!.treeElapsedMs; // The child's subtree time: what the tree's totals gain while it runs.
        const child = await this.run.agentLoop(subagentOptions(spec, options, (agentId) => starts.join(agentId)));
        this.childElapsedMs += member!.treeElapsedMs - before;
        return child;
      } catch (error) {
        this.thrown ??= { error };
        throw error;
      }
    });
  }

  /** Tool call `at` of `record` (`name`) cut at its deadline (deadline.ts): the ones after it recorded `unreached`, no final mark (its step never ended); the brakes before the next call stop the run. */
  private cutAt(record: CallRecord, at: number, name: string): null {
    for (const tool of record.toolCalls!.slice(at + 1)) tool.unreached = true;
    delete record.final;
    this.run.cut(cutToolCall(name));
    return null;
  }

  /** Aborted before tool call `from` of `record` ran: it and the ones after are recorded `unreached`, so a replay plays none of them (the run never did). */
  private abortedAt(record: CallRecord, from: number): Stop {
    for (const tool of record.toolCalls!.slice(from)) tool.unreached = true;
    return this.run.session.aborted();
  }
}
