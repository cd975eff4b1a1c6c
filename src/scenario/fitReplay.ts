/**
 * How `fit` replays a recorded run: as its loop ran it. A run whose recording states the context strategy
 * its loop ran under (header `context`: the runAgentLoop recorder's window, masking, summary or tool-result
 * cap) sent its prompts as that strategy shaped them, so it is replayed under it, driven as
 * replay/recordedStrategy.ts replayAsRan drives such a run (usage as sent, its compaction calls the
 * strategy's summary calls): each call's prompt view is then the prompt the strategy built, which is what
 * the recorded prompt is compared with (fitFacts.ts). A run that states none is replayed under full
 * history. `watch` sees the calls given (fitFacts.ts notes each one's prompt view). Pure.
 */
import type { BrakeConfig } from '../brakes/config.js';
import type { ContextStrategy } from '../context/strategy.js';
import type { PromptView } from '../kernel/promptView.js';
import { runLoop } from '../loop/run.js';
import { ReplaySource } from '../loop/replaySource.js';
import { sourceFacts } from '../loop/sourceFacts.js';
import type { RunOutcome, StepSource } from '../loop/types.js';
import type { ModelPricing } from '../pricing/types.js';
import { recordedStrategyOf } from '../replay/recordedStrategy.js';
import type { CallRecord, Trace } from '../trace/types.js';

const FULL_HISTORY: ContextStrategy = { kind: 'full' };

/** What a replay's watcher is told of each call given: its prompt view, and whether a recorded summary call came before it. */
export type CallWatcher = (view: PromptView, call: CallRecord, afterSummary: boolean) => void;

/** `trace` replayed as its loop ran it under `brakes` (its context strategy as stated, the cache as recorded). */
export function replayAsRecorded(trace: Trace, pricing: ModelPricing, run: { brakes: BrakeConfig; watch?: CallWatcher }): RunOutcome {
  const recorded = recordedStrategyOf(trace, FULL_HISTORY);
  const replay = new ReplaySource(trace, { summariesRecorded: recorded !== undefined });
  let summarised = false;
  const source: StepSource = {
    // The recording's facts (loop/sourceFacts.ts): its reasoning re-enters its prompts or not, as its header says.
    ...sourceFacts(replay),
    next(view: PromptView) {
      const call = replay.next();
      if (call) run.watch?.({ ...view }, call, summarised);
      return call;
    },
    exhaustedReason: () => replay.exhaustedReason(),
  };
  if (replay.recordedSummary !== undefined) {
    const summary = replay.recordedSummary;
    source.recordedSummary = () => {
      const call = summary();
      if (call !== null) summarised = true;
      return call;
    };
    source.callsLeft = () => replay.callsLeft();
  }
  return runLoop(source, {
    brakes: run.brakes,
    strategy: recorded ?? FULL_HISTORY,
    cache: 'recorded',
    pricing,
    systemTokens: trace.header.systemTokens,
    goalTokens: trace.header.goalTokens,
    ...(recorded === undefined ? {} : { usageAsSent: true }),
  });
}
