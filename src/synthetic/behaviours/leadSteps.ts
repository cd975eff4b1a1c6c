/**
 * An agent that does `leadSteps` ordinary steps (`work`, one new action each) before its failure mode
 * starts — the repeater's cycle, the retrier's failing lookups. The lead is drawn from the plan stream,
 * each step's draws from its own action stream, so the lead never shifts what the failure draws.
 */
import type { BrakeState } from '../../brakes/state.js';
import type { CallRecord } from '../../trace/types.js';
import { SyntheticAgent, type AgentEnv } from '../agent.js';
import { drawCount, type DistributionSpec } from '../distributions.js';
import { STREAM, type Rng } from '../random.js';
import { LEAD_TOOL } from './toolNames.js';

export abstract class LeadStepsAgent extends SyntheticAgent {
  private readonly lead: number;
  private index = 0;

  constructor(env: AgentEnv, leadSteps: DistributionSpec | undefined) {
    super(env);
    this.lead = leadSteps === undefined ? 0 : drawCount(leadSteps, this.planStream());
  }

  protected act(_view: unknown, state: Readonly<BrakeState>): CallRecord {
    const k = ++this.index;
    const rng = this.stream(STREAM.action, k);
    if (k <= this.lead) return this.toolStep(rng, { name: LEAD_TOOL, arguments: { action: k } });
    return this.afterLead(k - this.lead, rng, state);
  }

  /** The `n`th call after the lead (from 1), drawing from `rng`, its action stream. */
  protected abstract afterLead(n: number, rng: Rng, state: Readonly<BrakeState>): CallRecord;
}
