/**
 * Modelled latency, for calls and tool calls whose trace carries none (synthetic traces, `curve`):
 * a fixed time per call plus time per input and output token, and a fixed time per tool call. Recorded
 * latencies always win. Without a model, a call without latency takes no virtual time.
 */
export interface LatencyModel {
  perCallMs: number;
  perInputTokenMs: number;
  perOutputTokenMs: number;
  perToolCallMs: number;
}

export function modelledCallLatency(model: LatencyModel | undefined, inputTokens: number, outputTokens: number): number {
  if (!model) return 0;
  return model.perCallMs + inputTokens * model.perInputTokenMs + outputTokens * model.perOutputTokenMs;
}

export function modelledToolLatency(model: LatencyModel | undefined): number {
  return model ? model.perToolCallMs : 0;
}
