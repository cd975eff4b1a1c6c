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
import { recordedStrategyOf } from '../replay/recordedStrategy.js';
import type { Trace } from '../trace/types.js';

/** A run replayed as it ran: the strategy its loop ran under, and its source (ReplaySource.given: how many of its calls it has given, its summary calls included). */
export interface AsRanRun {
  strategy: ContextStrategy;
  source: ReplaySource;
}

/** `run` replayed as it ran, when it is to be (its header states a strategy, `strategy` is full history); else undefined. */
export function asRanRun(run: Trace, strategy: ContextStrategy): AsRanRun | undefined {
  const ran = recordedStrategyOf(run, strategy);
  return ran === undefined ? undefined : { strategy: ran, source: new ReplaySource(run, { summariesRecorded: true }) };
}
