/**
 * repeater — the same call with the same arguments again and again, or a cycle of k calls (the folder
 * reorganised by type → date → project → size → type, 15 times). After `leadSteps` ordinary steps it
 * enters the cycle and never leaves it. The loop's first call is a legitimate action; the agent is stuck
 * from the second. With `firstCallDoesTheTask` that first call did what the user asked (the folder was
 * organised), so the task is done even though the run never stops.
 */
import type { BrakeState } from '../../brakes/state.js';
import type { CallRecord } from '../../trace/types.js';
import { SyntheticAgent, type AgentEnv } from '../agent.js';
import { drawCount, type DistributionSpec } from '../distributions.js';
import { STREAM } from '../random.js';

export interface RepeaterParams {
  /** The calls of the cycle, in order (one: the same call every time). Default: one call with no arguments. */
  cycle?: Record<string, unknown>[];
  tool?: string;
  leadSteps?: DistributionSpec;
  firstCallDoesTheTask?: boolean;
}

export class RepeaterAgent extends SyntheticAgent {
  readonly behaviour = 'repeater';
  private readonly lead: number;
  private index = 0;

  constructor(env: AgentEnv, private readonly params: RepeaterParams) {
    super(env);
    this.lead = params.leadSteps === undefined ? 0 : drawCount(params.leadSteps, this.planStream());
  }

  protected act(_view: unknown, state: Readonly<BrakeState>): CallRecord {
    const k = ++this.index;
    const rng = this.stream(STREAM.action, k);
    if (k <= this.lead) return this.toolStep(rng, { name: 'work', arguments: { action: k } });
    const cycle = this.params.cycle ?? [{}];
    const position = k - this.lead - 1;
    const step = this.nextStep(state);
    if (position === 0 && this.params.firstCallDoesTheTask) this.markDone(step);
    if (position === 1) this.markStuck(step);
    return this.toolStep(rng, { name: this.params.tool ?? 'act', arguments: cycle[position % cycle.length] });
  }
}
