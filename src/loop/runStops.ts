/**
 * How a run's stop is told: its reason, and its detail (kernel/describe.ts) from the run's figures at the
 * stop (steps, time, spend, tokens, backtracks) and the facts the stopping brake set before it (the count it
 * passed, the bound it priced, the prompt it estimated, …). LoopSession's, for every stop it makes.
 */
import type { BrakeState } from '../brakes/state.js';
import type { Stop } from '../brakes/stopReasons.js';
import { Fact, stopOf } from '../kernel/describe.js';
import { Limit, type BrakeLimits } from '../kernel/limits.js';
import { StopCode } from '../kernel/stopCodes.js';
import { timeoutWords, type TimeoutAt } from '../kernel/cutWords.js';
import type { CallRecord } from '../trace/types.js';

/** The figures a stop is told with: a run's (BrakeState), or a tree's or an agent's totals (no backtracks: 0). */
export type StopFigures = Pick<BrakeState, 'steps' | 'elapsedMs' | 'spentPico' | 'tokensUsed'> & { backtracks?: number };

/**
 * The stop for `code`, told: `figures` written into `facts` beside what the stopping brake set there
 * (`label`: what stopped it, as `tool search`). The one way every stop, a run's or a tree's, is described.
 */
export function toldStop(code: StopCode, limits: BrakeLimits, told: { facts: Float64Array; figures: StopFigures; label?: string }): Stop {
  const { facts, figures } = told;
  facts[Fact.Steps] = figures.steps;
  facts[Fact.ElapsedMs] = figures.elapsedMs;
  facts[Fact.SpentPico] = figures.spentPico;
  facts[Fact.TokensUsed] = figures.tokensUsed;
  facts[Fact.Backtracks] = figures.backtracks ?? 0;
  return stopOf(code, limits, facts, told.label ?? '');
}

export class RunStops {
  /** What the stopping brake saw beyond the run's figures, by Fact: set before stop(). */
  readonly facts: Float64Array;
  /** The run's last call (a summary call's: `lastIsSummary`): a timeout right after it names what its record shows (cut at the deadline, or a tool call run on past it: kernel/cutWords.ts timeoutWords). */
  private lastCall: CallRecord | undefined;
  private lastIsSummary = false;

  /** `facts`: an array to keep them in (a run's that ended: spareParts.ts), zeroed; else a new one. */
  constructor(
    private readonly limits: BrakeLimits,
    private readonly state: BrakeState,
    facts?: Float64Array,
  ) {
    this.facts = facts === undefined ? new Float64Array(Fact.Size) : facts.fill(0);
  }

  /** The run stops for `code` (`label`: what stopped it, as `tool search`). */
  stop(code: StopCode, label = ''): Stop {
    if (code === StopCode.Timeout && label === '') label = this.timeoutWords({ elapsedMs: this.state.elapsedMs, timeoutMs: this.limits[Limit.TimeoutMs]! });
    return toldStop(code, this.limits, { facts: this.facts, figures: this.state, label });
  }

  /**
   * What a timeout before the run's next call names of its last call, the time `at` (the run's own; in a
   * tree, the tree's time and timeout, tree/budget.ts): cut, or run on past the deadline (kernel/cutWords.ts timeoutWords).
   */
  timeoutWords(at: TimeoutAt): string {
    return timeoutWords(this.lastCall, this.lastIsSummary, at);
  }

  /** The run made `call` (recorded, or as its record will be once its tool calls are over; `summary`: a summary call). */
  called(call: CallRecord, summary: boolean): void {
    this.lastCall = call;
    this.lastIsSummary = summary;
  }

  /** stop(code), unless the brake said StopCode.None. */
  stopIf(code: StopCode): Stop | null {
    return code === StopCode.None ? null : this.stop(code);
  }
}
