/**
 * The timeout brake reaching into a call in flight. The brake itself is checked before each call
 * (kernel/brakes.ts timedOut, through session.checkBeforeCall); a call that hangs would run on past it
 * until it returned. So each model call (a summary call too: liveSummary.ts) and tool call is given an
 * AbortSignal that fires once the run's time — the elapsed time the brake compares (the run's, or in a tree
 * the tree's) plus the time the call has run, on the loop's clock — is past the timeout by the brake's own
 * rule (timedOut), combined with the caller's own signal. A call cut so (its model or tool threw once the
 * signal fired) is recorded as it ran until cut, and the loop goes back to the brakes before the next call,
 * which stop the run: so its recording, replayed with the same timeout, stops where the run did (see loop.ts).
 *
 * The clock wakes the deadline (Clock.timer: a VirtualClock once it is advanced past it); the rule is read
 * only here, from timedOut. A clock without `timer` cuts nothing (the brake is checked between calls only).
 */
import { timedOut } from '../kernel/brakes.js';
import { CUT_MESSAGE, CUT_TOOL_ERROR } from '../kernel/cutWords.js';
import { Limit } from '../kernel/limits.js';
import type { LoopSession } from '../loop/session.js';
import type { CallRecord, ToolCallRecord } from '../trace/types.js';
import { ModelCallError, type Clock } from './types.js';
import type { ToolRun } from './tools.js';
import { checkedReading } from './valueCheck.js';

/** The words a cut call's record and the stop's detail say (kernel/cutWords.ts: written once, for replay too). */
export { CUT_MESSAGE, CUT_MODEL_CALL, CUT_SUMMARY_CALL, CUT_TOOL_ERROR, cutDetail, cutToolCall, withCut } from '../kernel/cutWords.js';

/** The longest wait one timer is set for (Node's timers hold at most 2^31 − 1 ms): a longer one is waited in parts. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** What the deadline of a call reads: the time the timeout brake compares at its start, and the limit. */
export interface RunTime {
  elapsedMs: number;
  timeoutMs: number;
}

/** A lone run's time and timeout, as its brake before a call compares them (in a tree: TreeMember.runTime). */
export function runTimeOf(session: LoopSession): RunTime {
  return { elapsedMs: session.state.elapsedMs, timeoutMs: session.limits[Limit.TimeoutMs]! };
}

/** A call's deadline: the signal the call is given, whether the deadline fired (`cut`), and `end` once the call is over. */
export interface CallDeadline {
  readonly signal: AbortSignal | undefined;
  readonly cut: boolean;
  /** Stops watching (the call is over); throws what the clock threw while watching (a reading that is no time). */
  end(): void;
}

/** The reason a cut call's signal fires with (its model or tool may throw it). */
export class DeadlineError extends Error {
  constructor() {
    super(CUT_MESSAGE);
    this.name = 'TimeoutError';
  }
}

/**
 * The deadline of a call made at `sinceMs` on `clock` (the loop's mark: the time since it is the call's),
 * `run` its run's time then; `signal`, the caller's. No timeout (or a clock without timer): the caller's signal alone.
 */
export function callDeadline(clock: Clock, sinceMs: number, run: RunTime, signal: AbortSignal | undefined): CallDeadline {
  if (run.timeoutMs === Infinity || clock.timer === undefined) return { signal, cut: false, end() {} };
  const deadline = new AbortController();
  const over = new AbortController();
  let failure: { error: unknown } | undefined;
  const watch = async (timer: NonNullable<Clock['timer']>) => {
    for (;;) {
      const ranMs = checkedReading(clock.now(), sinceMs) - sinceMs;
      if (timedOut(run.elapsedMs + ranMs, run.timeoutMs)) return deadline.abort(new DeadlineError());
      await timer.call(clock, Math.min(run.timeoutMs - run.elapsedMs - ranMs, MAX_TIMER_MS), over.signal);
    }
  };
  watch(clock.timer).catch((error: unknown) => {
    if (!over.signal.aborted) failure = { error };
  });
  return {
    signal: signal === undefined ? deadline.signal : AbortSignal.any([signal, deadline.signal]),
    get cut() {
      return deadline.signal.aborted;
    },
    end() {
      over.abort();
      if (failure) throw failure.error;
    },
  };
}

/** The record of a model call its deadline cut (it threw once its signal fired): the time it ran until cut; no usage (the provider reports none for a request it never answered), so no cost. */
export function cutCallRecord(latencyMs: number): CallRecord {
  return { type: 'call', outputTokens: 0, latencyMs, failed: { message: CUT_MESSAGE } };
}

/** Whether a model call that threw `error` was cut at its deadline (`cut`: it fired): what it threw then, no provider's failure (a ModelCallError) nor the caller's abort, is the cut. */
export function cutByDeadline(cut: boolean, error: unknown, aborted: boolean): boolean {
  return cut && !aborted && !(error instanceof ModelCallError);
}

/**
 * The error `tool`'s record states (`aborted`: the caller's signal fired): one its deadline cut (it threw once
 * its signal had fired: ToolRun `cutOff`) was cut by the timeout brake, whatever it threw — its deadline's
 * reason or an error of its own (a fetch's AbortError, a socket closed under it) — so it is recorded as the cut
 * (CUT_TOOL_ERROR), which every replay reads off the record (kernel/cutWords.ts timeoutWords) and the
 * same-tool-same-error brake compares, live and replayed alike; else what it gave, if anything.
 */
export function recordToolError(tool: ToolCallRecord, ran: ToolRun, aborted: boolean): void {
  const error = ran.cutOff && !aborted ? CUT_TOOL_ERROR : ran.error;
  if (error !== undefined) tool.error = error;
}
