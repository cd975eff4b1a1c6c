/**
 * Virtual time, written once: a recorded latency wins; a call or tool call without one takes what the
 * latency model says (a fixed time per call plus time per input and output token; a fixed time per
 * tool call), or no time without a model.
 */
import type { LatencyModel } from '../loop/latency.js';

/** A call's latency from numbers (0 for every model figure when there is no model). NaN: not recorded. */
export function modelledCallMs(recordedMs: number, perCallMs: number, perInputTokenMs: number, perOutputTokenMs: number, inputTokens: number, outputTokens: number): number {
  return recordedMs === recordedMs ? recordedMs : perCallMs + inputTokens * perInputTokenMs + outputTokens * perOutputTokenMs;
}

/** A tool call's latency. NaN: not recorded. */
export function modelledToolMs(recordedMs: number, perToolCallMs: number): number {
  return recordedMs === recordedMs ? recordedMs : perToolCallMs;
}

export function callLatencyMs(recordedMs: number, model: LatencyModel | undefined, inputTokens: number, outputTokens: number): number {
  if (recordedMs === recordedMs) return recordedMs;
  return model ? modelledCallMs(NaN, model.perCallMs, model.perInputTokenMs, model.perOutputTokenMs, inputTokens, outputTokens) : 0;
}

export function toolLatencyMs(recordedMs: number, model: LatencyModel | undefined): number {
  return modelledToolMs(recordedMs, model ? model.perToolCallMs : 0);
}
