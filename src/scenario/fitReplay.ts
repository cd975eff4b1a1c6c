/**
 * How `fit` replays a recorded run: as its loop ran it. A run whose recording states the context strategy
 * its loop ran under (header `context`: the runAgentLoop recorder's window, masking, summary or tool-result
 * cap) sent its prompts as that strategy shaped them, so it is replayed under it with the loop options replay
 * builds for it (replay/recordedStrategy.ts asRanLoopOptions: usage as sent, its compaction calls the strategy's
 * summary calls, the cache a replay with no --cache takes, the summary model's prices from `prices`), on the same
 * source, watched: each call's prompt view is then the prompt the strategy built, which is what the recorded
 * prompt is compared with (fitFacts.ts). A run that states none is replayed under full history. `watch` sees
 * the calls given (fitFacts.ts notes each one's prompt view). Pure.
 */
import type { BrakeConfig } from '../brakes/config.js';
import type { ContextStrategy } from '../context/strategy.js';
import type { PromptView } from '../kernel/promptView.js';
import { runLoop } from '../loop/run.js';
import { ReplaySource } from '../loop/replaySource.js';
import { sourceFacts } from '../loop/sourceFacts.js';
import type { RunOutcome, StepSource } from '../loop/types.js';
import type { ModelPricing, PriceTable } from '../pricing/types.js';
import { asRanLoopOptions, asRanSource, recordedStrategyOf } from '../replay/recordedStrategy.js';
import { defaultCacheMode } from '../replay/replay.js';
import type { CallRecord, Trace } from '../trace/types.js';

const FULL_HISTORY: ContextStrategy = { kind: 'full' };

/** What a replay's watcher is told of each call given: its prompt view, and whether a recorded summary call came before it. */
export type CallWatcher = (view: PromptView, call: CallRecord, afterSummary: boolean) => void;

/**
 * `trace` replayed as its loop ran it under `brakes` (its context strategy as stated, the cache as a replay with
 * no --cache takes it). `prices`: the table a stated summary model's prices are read from (fit's --prices); none:
 * priced as the run's model (only a budget brake's stop reads them: fitBrakeStops.ts).
 */
export function replayAsRecorded(trace: Trace, pricing: ModelPricing, run: { brakes: BrakeConfig; watch?: CallWatcher; prices?: PriceTable | undefined }): RunOutcome {
  const recorded = recordedStrategyOf(trace, FULL_HISTORY);
  if (recorded === undefined) {
    const source = watched(new ReplaySource(trace), run.watch);
    return runLoop(source, { brakes: run.brakes, strategy: FULL_HISTORY, cache: 'recorded', pricing, systemTokens: trace.header.systemTokens, goalTokens: trace.header.goalTokens });
  }
  return runLoop(watched(asRanSource(trace), run.watch), asRanLoopOptions(trace, recorded, { brakes: run.brakes, pricing, cache: defaultCacheMode(trace), prices: run.prices }));
}

/** `replay` as a source whose calls `watch` sees as they are given, each with the prompt view it answers; the rest of it (its facts, its end, its refusals) as it is. */
function watched(replay: ReplaySource, watch: CallWatcher | undefined): StepSource {
  let summarised = false;
  const source: StepSource = {
    // The recording's facts (loop/sourceFacts.ts): its reasoning re-enters its prompts or not, as its header says.
    ...sourceFacts(replay),
    next(view: PromptView) {
      const call = replay.next();
      if (call) watch?.({ ...view }, call, summarised);
      return call;
    },
    exhaustedReason: () => replay.exhaustedReason(),
    exhaustedDetail: () => replay.exhaustedDetail(),
    endedBeforeNextCall: () => replay.endedBeforeNextCall(),
    callsLeft: () => replay.callsLeft(),
    refusal: () => replay.refusal(),
  };
  if (replay.recordedSummary !== undefined) {
    const summary = replay.recordedSummary;
    source.recordedSummary = () => {
      const call = summary();
      if (call !== null) summarised = true;
      return call;
    };
  }
  return source;
}
