/**
 * The output cap a request sets (its max_tokens), applied to an answer as a provider applies it: a
 * response longer than the cap is cut there — billed at the cap (reasoning first, as reasoning models
 * spend it), its tool calls gone (their arguments would end mid-JSON), no final answer — and answered
 * with `finish_reason: "length"`. The loop then sees what a live one sees: a step that made no progress
 * (unparseable). The one rule of the simulated world and of `serve`: a synthetic agent's provider cuts
 * by it (SyntheticAgent.next, with the max_tokens the loop or the served request sends), and `serve`
 * cuts a recorded answer by it (src/serve/recorded.ts). A replayed trace is not cut: it replays as recorded.
 */
import type { CallRecord } from '../trace/types.js';

/** `record` cut at `cap`, or `record` itself when it fits (or failed: a failed call has no output). */
export function cutAtCap(record: CallRecord, cap: number | undefined): CallRecord {
  if (cap === undefined || record.failed || record.outputTokens <= cap) return record;
  const { toolCalls: _dropped, final: _final, ...rest } = record;
  const cut: CallRecord = { ...rest, outputTokens: cap, unparseable: true };
  if (record.reasoningTokens !== undefined) cut.reasoningTokens = Math.min(record.reasoningTokens, cap);
  return cut;
}
