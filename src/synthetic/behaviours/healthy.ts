/**
 * healthy — an agent that works its way to an answer: a number of tool steps drawn from `steps`
 * (the answer included), each a new action, except that a share of them re-run an earlier action
 * verbatim (re-running the tests, re-reading a file: real runs that succeed do this often) and a share
 * fail, each with an error of its own, or, when the entry sets `errorSameShare`, with that share of a run's
 * failures after its first the error of an earlier failure (earlier failures weighted by use): real runs
 * fail the same way again (mini-swe-agent's bare `returncode 1`: 79 of the 193 failures after each run's
 * first on the 38 shared runs repeat an earlier failure's text, which the same-error brake counts).
 * `ending: provider-error` models runs cut short by the provider
 * (HTTP 5xx, timeouts: the 10 unfinished mini-swe-agent runs), not by the agent: the last call fails,
 * nothing more is sent, the task is not done, and the agent was never stuck. `ending: cut-off` models a
 * run that simply stops after its last tool step (a recording that ends mid-run).
 */
import type { BrakeState } from '../../brakes/state.js';
import type { CallRecord } from '../../trace/types.js';
import { SyntheticAgent, type AgentEnv } from '../agent.js';
import { drawCount, type DistributionSpec } from '../distributions.js';
import { STREAM, type Rng } from '../random.js';
import { ActionTally } from './focusedRepeat.js';
import { ownTool } from './toolNames.js';

export interface HealthyParams {
  /** Steps to the end, the final answer (or the failing call) included. */
  steps: DistributionSpec;
  /** Share of tool calls that repeat an earlier action verbatim (earlier actions weighted by use). */
  repeatShare?: number;
  /**
   * Share of repeats (after a run's first) that re-run the run's most-run action; set, a repeat is never
   * the action just run (focusedRepeat.ts). Unset: an earlier action weighted by use, the last included.
   */
  repeatFocus?: number;
  /** Share of tool calls that fail (each with its own error text, unless errorSameShare is set). */
  errorShare?: number;
  /** Share of failures (after a run's first) whose error text is an earlier failure's, weighted by use. Unset: each its own. */
  errorSameShare?: number;
  ending?: 'answer' | 'provider-error' | 'cut-off';
  tool?: string;
}

export class HealthyAgent extends SyntheticAgent {
  readonly behaviour = 'healthy';
  private readonly steps: number;
  private readonly actions: unknown[] = [];
  /** The actions with their counts, kept only when the entry sets repeatFocus. */
  private readonly tally: ActionTally | undefined;
  /** The error texts of the run's failures so far, kept only when the entry sets errorSameShare. */
  private readonly errors: string[] | undefined;
  private index = 0;

  constructor(env: AgentEnv, private readonly params: HealthyParams) {
    super(env);
    this.steps = drawCount(params.steps, this.planStream(), 1);
    this.tally = params.repeatFocus === undefined ? undefined : new ActionTally();
    this.errors = params.errorSameShare === undefined ? undefined : [];
  }

  protected act(_view: unknown, state: Readonly<BrakeState>): CallRecord | null {
    const k = ++this.index;
    if (k > this.steps) {
      this.ending = 'cut_off';
      return null;
    }
    const rng = this.stream(STREAM.action, k);
    if (k === this.steps && this.params.ending !== 'cut-off') {
      if (this.params.ending === 'provider-error') return this.providerError();
      this.markDone(this.nextStep(state));
      return this.answer(rng);
    }
    const args = this.nextAction(rng, k);
    const error = this.nextError(rng, k);
    const name = ownTool(this.behaviour, this.params.tool);
    return this.toolStep(rng, error ? { name, arguments: args, error } : { name, arguments: args });
  }

  /** Step k's error text, or undefined when it succeeds: its own, or with errorSameShare an earlier failure's. */
  private nextError(rng: Rng, k: number): string | undefined {
    if (!rng.chance(this.params.errorShare ?? 0)) return undefined;
    let error = `exit 1: error in action ${k}`;
    const { errors } = this;
    if (errors === undefined) return error;
    if (errors.length > 0 && rng.chance(this.params.errorSameShare!)) error = errors[rng.int(0, errors.length - 1)]!;
    errors.push(error);
    return error;
  }

  /** Step k's action: a new one, or with repeatShare an earlier one (focused: focusedRepeat.ts). */
  private nextAction(rng: Rng, k: number): unknown {
    const { tally } = this;
    let args: unknown = { action: k };
    if (tally !== undefined) {
      if (tally.order.length > 0 && rng.chance(this.params.repeatShare ?? 0)) args = tally.pickRepeat(rng, this.params.repeatFocus!) ?? args;
      tally.add(args);
      return args;
    }
    if (this.actions.length > 0 && rng.chance(this.params.repeatShare ?? 0)) {
      args = this.actions[rng.int(0, this.actions.length - 1)];
    }
    this.actions.push(args);
    return args;
  }
}
