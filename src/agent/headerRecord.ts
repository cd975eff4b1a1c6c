/** The real loop's recording header: the model, the prompt's fixed sizes, the task and the brakes it ran under. */
import { TRACE_SCHEMA, type TraceHeader } from '../trace/types.js';
import type { AgentLoopOptions } from './types.js';

/** The header a live run's recording opens with (`systemTokens`, `goalTokens`: as counted for its session). */
export function liveHeaderRecord(options: AgentLoopOptions, sizes: { systemTokens: number; goalTokens: number }): TraceHeader {
  const { brakes } = options;
  return {
    type: 'header',
    schema: TRACE_SCHEMA,
    model: options.model.name,
    ...(options.model.provider === undefined ? {} : { provider: options.model.provider }),
    systemTokens: sizes.systemTokens,
    goalTokens: sizes.goalTokens,
    origin: 'recorded',
    ...(options.task === undefined ? {} : { task: options.task }),
    recordedSettings: {
      ...(brakes.maxSteps === undefined ? {} : { maxSteps: brakes.maxSteps }),
      ...(brakes.maxCostPico === undefined ? {} : { maxCostUsd: brakes.maxCostPico / 1e12 }),
      ...(brakes.timeoutMs === undefined ? {} : { timeoutSeconds: brakes.timeoutMs / 1000 }),
    },
    live: true,
  };
}
