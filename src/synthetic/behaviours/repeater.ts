/**
 * repeater — the same call with the same arguments again and again, or a cycle of k calls (the folder
 * reorganised by type → date → project → size → type, 15 times). After `leadSteps` ordinary steps it
 * enters the cycle and never leaves it. The loop's first call is a legitimate action; the agent is stuck
 * from the second. With `firstCallDoesTheTask` that first call did what the user asked (the folder was
 * organised), so the task is done even though the run never stops.
 */
import type { BrakeState } from '../../brakes/state.js';
import type { CallRecord } from '../../trace/types.js';
import type { AgentEnv } from '../agent.js';
import type { DistributionSpec } from '../distributions.js';
import type { Rng } from '../random.js';
import { LeadStepsAgent } from './leadSteps.js';
import { ownTool } from './toolNames.js';

export interface RepeaterParams {
  /** The calls of the cycle, in order (one: the same call every time). Default: one call with no arguments. */
  cycle?: Record<string, unknown>[];
  tool?: string;
  leadSteps?: DistributionSpec;
  firstCallDoesTheTask?: boolean;
}

export class RepeaterAgent extends LeadStepsAgent {
  readonly behaviour = 'repeater';

  constructor(env: AgentEnv, private readonly params: RepeaterParams) {
    super(env, params.leadSteps);
  }

  protected afterLead(n: number, rng: Rng, state: Readonly<BrakeState>): CallRecord {
    const cycle = this.params.cycle ?? [{}];
    const position = n - 1;
    const step = this.nextStep(state);
    if (position === 0 && this.params.firstCallDoesTheTask) this.markDone(step);
    if (position === 1) this.markStuck(step);
    return this.toolStep(rng, { name: ownTool(this.behaviour, this.params.tool), arguments: cycle[position % cycle.length] });
  }
}
