/**
 * A session of a tree replayed as its loop ran it: a live recording that states its context strategy (header
 * `context`), replayed under full context, as a lone recording replays (replay/recordedStrategy.ts). Its session
 * runs under that strategy, each call billed as recorded (usage as sent), and its source is the lone replay's
 * (ReplaySource: its compaction calls the strategy's summary calls, made when the strategy makes one due, before
 * the call after them). The tree schedules every recorded call, the compaction calls among them; a scheduled
 * call the source has already given (the call after a summary call, made with it) is not made again.
 */
import type { ContextStrategy } from '../context/strategy.js';
import { ReplaySource } from '../loop/replaySource.js';
import type { StepSource } from '../loop/types.js';
import { recordedStrategyOf } from '../replay/recordedStrategy.js';
import type { CallRecord, Trace } from '../trace/types.js';

/** A run replayed as it ran: the strategy its loop ran under, its source, and how many of its calls the source has given. */
export interface AsRanRun {
  strategy: ContextStrategy;
  source: StepSource;
  /** Calls given so far (its summary calls included). */
  given(): number;
}

/** `run` replayed as it ran, when it is to be (its header states a strategy, `strategy` is full history); else undefined. */
export function asRanRun(run: Trace, strategy: ContextStrategy): AsRanRun | undefined {
  const ran = recordedStrategyOf(run, strategy);
  if (ran === undefined) return undefined;
  const inner = new ReplaySource(run, true);
  let given = 0;
  const counted = (call: CallRecord | null) => {
    if (call !== null) given += 1;
    return call;
  };
  const source: StepSource = {
    readsToolState: inner.readsToolState,
    cacheWrites: inner.cacheWrites,
    next: () => counted(inner.next()),
    recordedSummary: () => counted(inner.recordedSummary!()),
    exhaustedReason: () => inner.exhaustedReason(),
    exhaustedDetail: () => inner.exhaustedDetail(),
    endedBeforeNextCall: () => inner.endedBeforeNextCall(),
    callsLeft: () => inner.callsLeft(),
    refusal: () => inner.refusal(),
  };
  return { strategy: ran, source, given: () => given };
}
