/**
 * The output cap a request sets (`max_completion_tokens`, or the older `max_tokens`), applied to an
 * answer as a provider applies it: a response longer than the cap is cut there — billed at the cap
 * (reasoning first, as reasoning models spend it), its tool calls gone (their arguments would end
 * mid-JSON), no final answer — and answered with `finish_reason: "length"`. The loop then sees what a
 * live one sees: a step that made no progress (unparseable).
 */
import type { CallRecord } from '../trace/types.js';
import type { ChatRequest } from './request.js';

export function outputCapOf(request: ChatRequest): number | undefined {
  return request.max_completion_tokens ?? request.max_tokens ?? undefined;
}

/** `record` cut at `cap`, or `record` itself when it fits (or failed: a failed call has no output). */
export function cutAtCap(record: CallRecord, cap: number | undefined): CallRecord {
  if (cap === undefined || record.failed || record.outputTokens <= cap) return record;
  const { toolCalls: _dropped, final: _final, ...rest } = record;
  const cut: CallRecord = { ...rest, outputTokens: cap, unparseable: true };
  if (record.reasoningTokens !== undefined) cut.reasoningTokens = Math.min(record.reasoningTokens, cap);
  return cut;
}
