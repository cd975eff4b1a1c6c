/**
 * The sub-agents one tool call of an agent starts (ToolContext.runSubagent, what defineSubagentTool calls):
 * a sub-agent runs inside the tool call that starts it — its calls counted where they were made, the
 * parent's call record naming it (treeRecording.ts), its stop ending that call. So a start is taken only
 * while the tool call runs: a runSubagent kept past it (the tool returned, and its saved function is called
 * later; or a start it asked for unawaited, queued behind another sub-agent (TreeMember.inTurn), comes to
 * run after it returned) is refused with a SubagentAfterToolCallError naming the agent and the tool call it
 * belonged to, and the run it belonged to throws it on (stepTools.ts runSubagent).
 */
import type { TreeMember } from './subagent.js';

/** A sub-agent started through a tool call's runSubagent after that tool call returned. */
export class SubagentAfterToolCallError extends Error {
  constructor(
    /** The agent asked for (the spec's `agentId`). */
    readonly agentId: string,
    /** The agent whose tool call the runSubagent belonged to, and that call's id. */
    readonly parent: { agentId: string; toolCallId: string },
  ) {
    super(
      `sub-agent ${agentId} was started through the runSubagent of ${parent.agentId}'s tool call ${parent.toolCallId} after that tool call returned: ` +
        'a sub-agent runs inside the tool call that starts it (its calls count there, and the call records it); ' +
        'await context.runSubagent(…) before the tool returns, and do not keep it for later',
    );
    this.name = 'SubagentAfterToolCallError';
  }
}

/** The starts of one tool call: open while it runs (`join`), closed once it returned (`close`). */
export class ToolCallStarts {
  private open = true;

  constructor(
    readonly parent: { agentId: string; toolCallId: string },
    private readonly start: (agentId: string) => TreeMember,
  ) {}

  /** The tree's new member `agentId`, started by this tool call; refused once it returned. */
  join(agentId: string): TreeMember {
    if (!this.open) throw new SubagentAfterToolCallError(agentId, this.parent);
    return this.start(agentId);
  }

  /** The tool call returned: no start after this. */
  close(): void {
    this.open = false;
  }
}
