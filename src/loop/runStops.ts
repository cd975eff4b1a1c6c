/**
 * How a run's stop is told: its reason, and its detail (kernel/describe.ts) from the run's figures at the
 * stop (steps, time, spend, tokens, backtracks) and the facts the stopping brake set before it (the count it
 * passed, the bound it priced, the prompt it estimated, …). LoopSession's, for every stop it makes.
 */
import type { BrakeState } from '../brakes/state.js';
import type { Stop } from '../brakes/stopReasons.js';
import { describeStop, Fact } from '../kernel/describe.js';
import type { BrakeLimits } from '../kernel/limits.js';
import { StopCode, stopReasonOf } from '../kernel/stopCodes.js';

export class RunStops {
  /** What the stopping brake saw beyond the run's figures, by Fact: set before stop(). */
  readonly facts = new Float64Array(Fact.Size);

  constructor(
    private readonly limits: BrakeLimits,
    private readonly state: BrakeState,
  ) {}

  /** The run stops for `code` (`label`: what stopped it, as `tool search`). */
  stop(code: StopCode, label = ''): Stop {
    const { facts, state } = this;
    facts[Fact.Steps] = state.steps;
    facts[Fact.ElapsedMs] = state.elapsedMs;
    facts[Fact.SpentPico] = state.spentPico;
    facts[Fact.TokensUsed] = state.tokensUsed;
    facts[Fact.Backtracks] = state.backtracks;
    return { reason: stopReasonOf(code), detail: describeStop(code, this.limits, facts, label) };
  }

  /** stop(code), unless the brake said StopCode.None. */
  stopIf(code: StopCode): Stop | null {
    return code === StopCode.None ? null : this.stop(code);
  }
}
