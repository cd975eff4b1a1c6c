/**
 * retrier — a tool fails with the same error while the agent varies the arguments (every "Springfield"
 * looked up, 90 steps, for a weather tool that could not resolve it). Each attempt is a new action, so
 * fingerprint repeat detection never fires; the same-tool-same-error limit does. After `leadSteps`
 * ordinary steps the first attempt is legitimate; the agent is stuck from the second. With `givesUpAfter`
 * it answers after that many attempts that it could not do it: the run completes, the task is not done.
 */
import type { BrakeState } from '../../brakes/state.js';
import type { CallRecord } from '../../trace/types.js';
import type { AgentEnv } from '../agent.js';
import type { DistributionSpec } from '../distributions.js';
import type { Rng } from '../random.js';
import { LeadStepsAgent } from './leadSteps.js';
import { ownTool } from './toolNames.js';

export interface RetrierParams {
  tool?: string;
  /** The error text every attempt gets back. */
  error?: string;
  /** Arguments of the first attempts, in order; later attempts add an attempt number to the last. */
  variants?: Record<string, unknown>[];
  leadSteps?: DistributionSpec;
  givesUpAfter?: number;
}

export class RetrierAgent extends LeadStepsAgent {
  readonly behaviour = 'retrier';

  constructor(env: AgentEnv, private readonly params: RetrierParams) {
    super(env, params.leadSteps);
  }

  protected afterLead(attempt: number, rng: Rng, state: Readonly<BrakeState>): CallRecord {
    if (this.params.givesUpAfter !== undefined && attempt > this.params.givesUpAfter) return this.answer(rng);
    if (attempt === 2) this.markStuck(this.nextStep(state));
    const variants = this.params.variants ?? [];
    const args = attempt <= variants.length ? variants[attempt - 1] : { ...(variants[variants.length - 1] ?? {}), attempt };
    return this.toolStep(rng, { name: ownTool(this.behaviour, this.params.tool), arguments: args, error: this.params.error ?? 'not found' });
  }
}
