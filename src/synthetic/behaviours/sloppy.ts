/**
 * sloppy — emits responses the loop cannot parse (no usable tool call nor answer: broken JSON, prose
 * where a command was due) at rate `unparseableShare`. Each counts as a step and makes no progress, so a
 * step cap meets it sooner. Done at its answer after `steps` useful steps.
 */
import type { BrakeState } from '../../brakes/state.js';
import type { CallRecord } from '../../trace/types.js';
import { SyntheticAgent, type AgentEnv } from '../agent.js';
import { drawCount, type DistributionSpec } from '../distributions.js';
import { STREAM } from '../random.js';
import { ownTool } from './toolNames.js';

export interface SloppyParams {
  /** Useful steps, the answer included. */
  steps: DistributionSpec;
  /** Probability that a response is unparseable (below 1). */
  unparseableShare: number;
  tool?: string;
}

export class SloppyAgent extends SyntheticAgent {
  readonly behaviour = 'sloppy';
  private readonly steps: number;
  private useful = 0;
  private calls = 0;

  constructor(env: AgentEnv, private readonly params: SloppyParams) {
    super(env);
    this.steps = drawCount(params.steps, this.planStream(), 1);
  }

  protected act(_view: unknown, state: Readonly<BrakeState>): CallRecord {
    this.calls += 1;
    if (this.stream(STREAM.flip, this.calls).chance(this.params.unparseableShare)) {
      return { type: 'call', outputTokens: drawCount(this.env.outputTokens, this.stream(STREAM.extra, this.calls)), unparseable: true };
    }
    const k = ++this.useful;
    const rng = this.stream(STREAM.action, k);
    if (k >= this.steps) {
      this.markDone(this.nextStep(state));
      return this.answer(rng);
    }
    return this.toolStep(rng, { name: ownTool(this.behaviour, this.params.tool), arguments: { action: k } });
  }
}
