/**
 * healthy — an agent that works its way to an answer: a number of tool steps drawn from `steps`
 * (the answer included), each a new action, except that a share of them re-run an earlier action
 * verbatim (re-running the tests, re-reading a file: real runs that succeed do this often) and a share
 * fail, each with an error of its own, or, when the entry sets `errorSameShare`, with that share of a run's
 * failures after its first the error of an earlier failure (earlier failures weighted by use): real runs
 * fail the same way again (mini-swe-agent's bare `returncode 1`: 79 of the 193 failures after each run's
 * first on the 38 shared runs repeat an earlier failure's text, which the same-error brake counts), and,
 * when it sets `errorInARowShare`, a same-error failure right after a failure repeats that one's error with
 * that share (real runs retry the command that just failed: on the 28 completed shared runs 8 of the 10
 * same-error failures right after a failure repeat its error, which same-error-mode consecutive counts).
 * A failure is one the agent saw: a call the duplicate-action guard skipped (`--repeat-action skip`) or
 * cut at max_tokens brought no error back, so it is neither the failure just made nor an earlier one.
 * Runs differ in how often they repeat: an entry that sets `repeatShareScale` draws each run's repeat share
 * as repeatShare × a scale drawn once per run (its plan stream, index 1).
 * `ending: provider-error` models runs cut short by the provider
 * (HTTP 5xx, timeouts: the 10 unfinished mini-swe-agent runs), not by the agent: the last call fails,
 * nothing more is sent, the task is not done, and the agent was never stuck. `ending: cut-off` models a
 * run that simply stops after its last tool step (a recording that ends mid-run).
 */
import type { BrakeState } from '../../brakes/state.js';
import type { CallRecord } from '../../trace/types.js';
import { SyntheticAgent, type AgentEnv } from '../agent.js';
import { drawCount, drawReal, type DistributionSpec } from '../distributions.js';
import { STREAM, type Rng } from '../random.js';
import { ActionTally } from './focusedRepeat.js';
import { ownTool } from './toolNames.js';

export interface HealthyParams {
  /** Steps to the end, the final answer (or the failing call) included. */
  steps: DistributionSpec;
  /** Share of tool calls that repeat an earlier action verbatim (earlier actions weighted by use). */
  repeatShare?: number;
  /** Per-run multiplier of repeatShare, drawn once per run (the product held to 0…1). Unset: every run repeatShare. */
  repeatShareScale?: DistributionSpec;
  /**
   * Share of repeats (after a run's first) that re-run the run's most-run action; set, a repeat is never
   * the action just run (focusedRepeat.ts). Unset: an earlier action weighted by use, the last included.
   */
  repeatFocus?: number;
  /** Share of tool calls that fail (each with its own error text, unless errorSameShare is set). */
  errorShare?: number;
  /** Share of failures (after a run's first) whose error text is an earlier failure's, weighted by use. Unset: each its own. */
  errorSameShare?: number;
  /** Share of same-error failures right after a failed tool call that repeat that call's error. Unset: drawn as any same-error failure. */
  errorInARowShare?: number;
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
  /** The run's repeat share: repeatShare, times its drawn scale with repeatShareScale. */
  private readonly repeatShare: number;
  /** The error of the tool call just made (undefined when it succeeded, or before any); with `errors`, the last of them. */
  private lastError: string | undefined;
  private index = 0;

  constructor(env: AgentEnv, private readonly params: HealthyParams) {
    super(env);
    this.steps = drawCount(params.steps, this.planStream(), 1);
    this.tally = params.repeatFocus === undefined ? undefined : new ActionTally();
    this.errors = params.errorSameShare === undefined ? undefined : [];
    this.repeatShare = params.repeatShareScale === undefined ? (params.repeatShare ?? 0) : scaledRepeatShare(params, params.repeatShareScale, this.stream(STREAM.plan, 1));
  }

  protected act(_view: unknown, state: Readonly<BrakeState>): CallRecord | null {
    if (!this.lastResultsArrived()) this.unseenFailure();
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
    this.lastError = error;
    const name = ownTool(this.behaviour, this.params.tool);
    return this.toolStep(rng, error ? { name, arguments: args, error } : { name, arguments: args });
  }

  /**
   * Step k's error text, or undefined when it succeeds: its own, or with errorSameShare an earlier failure's
   * (with errorInARowShare, right after a failure, that failure's).
   */
  private nextError(rng: Rng, k: number): string | undefined {
    if (!rng.chance(this.params.errorShare ?? 0)) return undefined;
    let error = `exit 1: error in action ${k}`;
    const { errors, lastError } = this;
    if (errors === undefined) return error;
    if (errors.length > 0 && rng.chance(this.params.errorSameShare!)) {
      const inARow = lastError !== undefined && rng.chance(this.params.errorInARowShare ?? 0);
      error = inARow ? lastError : errors[rng.int(0, errors.length - 1)]!;
    }
    errors.push(error);
    return error;
  }

  /** The last tool step's result never came back (skipped, or cut): the agent saw no failure there. */
  private unseenFailure(): void {
    // The last step's error, when it failed, is the last of `errors`: the agent never saw it.
    if (this.lastError !== undefined) this.errors?.pop();
    this.lastError = undefined;
  }

  /** Step k's action: a new one, or with repeatShare an earlier one (focused: focusedRepeat.ts). */
  private nextAction(rng: Rng, k: number): unknown {
    const { tally } = this;
    let args: unknown = { action: k };
    if (tally !== undefined) {
      if (tally.order.length > 0 && rng.chance(this.repeatShare)) args = tally.pickRepeat(rng, this.params.repeatFocus!) ?? args;
      tally.add(args);
      return args;
    }
    if (this.actions.length > 0 && rng.chance(this.repeatShare)) {
      args = this.actions[rng.int(0, this.actions.length - 1)];
    }
    this.actions.push(args);
    return args;
  }
}

/** A run's repeat share: the entry's times a scale drawn from `rng`, held to 0…1. */
function scaledRepeatShare(params: HealthyParams, scale: DistributionSpec, rng: Rng): number {
  return Math.min(1, Math.max(0, (params.repeatShare ?? 0) * drawReal(scale, rng)));
}
