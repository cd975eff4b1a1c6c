/** The real loop's recording header: the model, the prompt's fixed sizes, the task, the brakes it ran under, its cache writes' lifetime, whether reasoning re-entered its prompts and its context strategy. */
import { contextSpecOf, isIdentity, type ContextStrategy } from '../context/strategy.js';
import { TRACE_SCHEMA, type RecordedContext, type TraceHeader } from '../trace/types.js';
import { recordedSettingsOf } from '../trace/recordedSettings.js';
import { LIVE_LINES_SENT } from '../trace/liveRecording.js';
import type { ResolvedAgentOptions } from './loop.js';

/** The header a live run's recording opens with (`systemTokens`, `goalTokens`: as counted for its session). */
export function liveHeaderRecord(options: ResolvedAgentOptions, sizes: { systemTokens: number; goalTokens: number }): TraceHeader {
  return {
    type: 'header',
    schema: TRACE_SCHEMA,
    model: options.model.name,
    ...(options.model.provider === undefined ? {} : { provider: options.model.provider }),
    systemTokens: sizes.systemTokens,
    goalTokens: sizes.goalTokens,
    origin: 'recorded',
    ...(options.task === undefined ? {} : { task: options.task }),
    // Every brake the run had, exactly: a replay of the recording with them (--preset recorded) stops as the run did.
    recordedSettings: recordedSettingsOf(options.brakes),
    // The lifetime its cache writes were asked for, as its bound took it: a replay bounds them at that price too (kernel/cacheWrites.ts).
    ...(options.cacheWrites === undefined ? {} : { cacheWrites: options.cacheWrites }),
    // Whether its calls' reasoning entered its later prompts, as its estimates took it (false unless its Model sends it back): a replay's growth model takes it so (kernel/stepTokens.ts).
    reasoningInPrompt: options.reasoningInPrompt,
    // The strategy it ran under, unless full history: a replay with full context replays it as the loop ran it (replay/recordedStrategy.ts).
    ...(options.context.strategy === undefined || isIdentity(options.context.strategy) ? {} : { context: recordedContextOf(options.context.strategy) }),
    live: true,
    // Each model call written as sent before it is made (recorder.sent), and one whose tools ran twice (recorder.pending, then call):
    // the mark makes a reader read each line in place of the one before it, and an older reader refuse the file.
    liveLines: LIVE_LINES_SENT,
  };
}

/** A strategy as a header states it (TraceHeader.context). */
export function recordedContextOf(strategy: ContextStrategy): RecordedContext {
  return { spec: contextSpecOf(strategy), ...(strategy.toolResultCap === undefined ? {} : { toolResultCap: strategy.toolResultCap }) };
}
