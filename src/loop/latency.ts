/**
 * Modelled latency, for calls and tool calls whose trace carries none (synthetic traces, `curve`):
 * a fixed time per call plus time per input and output token, and a fixed time per tool call. Recorded
 * latencies always win. Without a model, a call without latency takes no virtual time. The rule itself
 * is src/kernel/latency.ts.
 */
export interface LatencyModel {
  perCallMs: number;
  perInputTokenMs: number;
  perOutputTokenMs: number;
  perToolCallMs: number;
}
