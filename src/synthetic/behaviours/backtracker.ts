/**
 * backtracker — sometimes abandons its last tool call (BACKTRACK: the flight search that drops a
 * result and tries other dates). A backtrack is a paid model call that removes the previous step from
 * the context and is not itself a step; the abandoned step is then redone differently. Done at its
 * answer after `steps` kept steps.
 */
import type { BrakeState } from '../../brakes/state.js';
import type { CallRecord } from '../../trace/types.js';
import { SyntheticAgent, type AgentEnv } from '../agent.js';
import { drawCount, type DistributionSpec } from '../distributions.js';
import { STREAM } from '../random.js';
import { ownTool } from './toolNames.js';

export interface BacktrackerParams {
  /** Steps to the answer, counting only those kept (the answer included). */
  steps: DistributionSpec;
  /** Probability that a tool step is abandoned by the next call (below 1). */
  backtrackShare: number;
  tool?: string;
}

/** Attempts per planned step get stream indices k·ATTEMPTS + attempt. */
const ATTEMPTS = 1 << 16;

export class BacktrackerAgent extends SyntheticAgent {
  readonly behaviour = 'backtracker';
  private readonly steps: number;
  private kept = 0;
  private attempt = 0;
  private abandonLast = false;

  constructor(env: AgentEnv, private readonly params: BacktrackerParams) {
    super(env);
    this.steps = drawCount(params.steps, this.planStream(), 1);
  }

  protected act(_view: unknown, state: Readonly<BrakeState>): CallRecord {
    const index = (this.kept + 1) * ATTEMPTS + this.attempt;
    if (this.abandonLast) {
      this.abandonLast = false;
      this.attempt += 1;
      return { type: 'call', outputTokens: Math.min(40, drawCount(this.env.outputTokens, this.stream(STREAM.flip, index))), backtrack: true };
    }
    const k = this.kept + 1;
    const rng = this.stream(STREAM.action, index);
    if (k >= this.steps) {
      this.markDone(this.nextStep(state));
      return this.answer(rng);
    }
    // This try's arguments: an abandoned try is redone differently (the next attempt), never as it was.
    const call = { name: ownTool(this.behaviour, this.params.tool), arguments: { step: k, attempt: this.attempt } };
    if (this.stream(STREAM.flip, index).chance(this.params.backtrackShare)) {
      this.abandonLast = true;
    } else {
      this.kept = k;
      this.attempt = 0;
    }
    return this.toolStep(rng, call);
  }
}
