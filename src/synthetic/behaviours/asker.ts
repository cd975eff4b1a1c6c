/**
 * asker — finishes the work, delivers the answer, then keeps asking whether it can help with anything
 * else (an assistant with a "message the user" tool that never ends its turn). The task is done at the
 * delivery; the agent is stuck from its first question. With one phrasing every question is the same
 * call (repeat detection catches it); with several it cycles through them.
 */
import type { BrakeState } from '../../brakes/state.js';
import type { CallRecord } from '../../trace/types.js';
import { SyntheticAgent, type AgentEnv } from '../agent.js';
import { drawCount, type DistributionSpec } from '../distributions.js';
import { STREAM } from '../random.js';
import { LEAD_TOOL, ownTool } from './toolNames.js';

export interface AskerParams {
  /** Steps of real work, the delivery included. */
  workSteps: DistributionSpec;
  /** Distinct wordings of the question, used in turn (default 1). */
  phrasings?: number;
  /** The message tool's name, for the delivery and every question (default `send_message`); the work stays `work`. */
  tool?: string;
}

export class AskerAgent extends SyntheticAgent {
  readonly behaviour = 'asker';
  private readonly workSteps: number;
  private index = 0;

  constructor(env: AgentEnv, private readonly params: AskerParams) {
    super(env);
    this.workSteps = drawCount(params.workSteps, this.planStream(), 1);
  }

  protected act(_view: unknown, state: Readonly<BrakeState>): CallRecord {
    const k = ++this.index;
    const rng = this.stream(STREAM.action, k);
    const step = this.nextStep(state);
    const name = ownTool(this.behaviour, this.params.tool);
    if (k < this.workSteps) return this.toolStep(rng, { name: LEAD_TOOL, arguments: { action: k } });
    if (k === this.workSteps) {
      this.markDone(step);
      return this.toolStep(rng, { name, arguments: { message: 'here is the result' } });
    }
    this.markStuck(step);
    const phrasing = (k - this.workSteps - 1) % (this.params.phrasings ?? 1);
    return this.toolStep(rng, { name, arguments: { message: `Is there anything else I can help with? (${phrasing + 1})` } });
  }
}
