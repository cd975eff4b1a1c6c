/**
 * How large a latency model's parts may be. A part is milliseconds per call, per input or output token, or
 * per tool call; a modelled call's latency adds them up (src/kernel/latency.ts), and `generate` writes it
 * into traces, which loopcost reads back only up to MAX_LATENCY_MS (2^53 ms: src/trace/rules.ts). A part of
 * more than a day is no latency anyone models, and keeps every sum of realistic token counts far within
 * what a trace holds (`call=1e300` was written as `1e+300`, and `output-token=1e307` overflowed to `null`).
 */
import { MAX_LATENCY_MS } from '../io/limits.js';
import type { LatencyModel } from './latency.js';

/** Most milliseconds a latency model gives one call, one token or one tool call: a day. */
export const MAX_LATENCY_PART_MS = 86_400_000;

/** The limit as messages say it. */
export const MAX_LATENCY_PART_TEXT = `${MAX_LATENCY_PART_MS} ms (a day)`;

/** Each part of a model under its `--latency-model` (and scenario `latency:`) name. */
export const LATENCY_PART_NAMES: Record<keyof LatencyModel, string> = {
  perCallMs: 'call',
  perInputTokenMs: 'input-token',
  perOutputTokenMs: 'output-token',
  perToolCallMs: 'tool',
};

/** A latency a trace may hold (what loopcost's own reader accepts): finite, 0 to MAX_LATENCY_MS. */
export function isTraceLatency(ms: number): boolean {
  return ms >= 0 && ms <= MAX_LATENCY_MS;
}
