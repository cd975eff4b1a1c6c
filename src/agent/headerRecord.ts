/** The real loop's recording header: the model, the prompt's fixed sizes, the task, the brakes it ran under and its cache writes' lifetime. */
import { TRACE_SCHEMA, type TraceHeader } from '../trace/types.js';
import { recordedSettingsOf } from '../trace/recordedSettings.js';
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
    live: true,
  };
}
