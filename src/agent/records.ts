/** The real loop's records for the recorder: a response as a native call record, and the run's end. */
import type { Stop } from '../brakes/stopReasons.js';
import { picoToUsd } from '../money.js';
import type { CallUsage } from '../pricing/types.js';
import { isFailureStatus } from '../trace/rules.js';
import type { CallRecord, ToolCallRecord, TraceEnd } from '../trace/types.js';
import { recordedArguments } from './tools.js';

/** A call as written before its tools run (the recorder's `pending`): trace/liveRecording.ts. */
export { pendingCall } from '../trace/liveRecording.js';
import { withPartialRun } from './thrownRun.js';
import { ModelCallError, type AgentRunResult, type ModelTurn, type TraceRecorder } from './types.js';

/** The recorder of a run given none: it keeps nothing. */
export const NO_RECORDER: TraceRecorder = { header() {}, call() {}, end() {} };

/** `result` once `recorder` has recorded the run's `end`; an end it cannot write (a full disk: recorder.ts) throws what it threw, `result` attached as `partialRun` (thrownRun.ts). */
export function endRecorded(recorder: Pick<TraceRecorder, 'end'>, end: TraceEnd, result: AgentRunResult): AgentRunResult {
  try {
    recorder.end(end);
  } catch (error) {
    throw withPartialRun(error, result);
  }
  return result;
}

export function usageFields(usage: ModelTurn['usage']): Partial<CallRecord> {
  return {
    ...(usage.inputTokens === undefined ? {} : { inputTokens: usage.inputTokens }),
    ...(usage.cachedInputTokens ? { cachedInputTokens: usage.cachedInputTokens } : {}),
    ...(usage.cacheWriteTokens ? { cacheWriteTokens: usage.cacheWriteTokens } : {}),
    ...(usage.cacheWrite1hTokens ? { cacheWrite1hTokens: usage.cacheWrite1hTokens } : {}),
    ...(usage.reasoningTokens ? { reasoningTokens: usage.reasoningTokens } : {}),
    ...(usage.webSearchRequests ? { webSearchRequests: usage.webSearchRequests } : {}),
  };
}

/** A call's usage as billed, as a call record's usage fields (a replay of the record bills it the same). */
export function billedFields(usage: CallUsage): Pick<CallRecord, 'inputTokens' | 'cachedInputTokens' | 'cacheWriteTokens' | 'cacheWrite1hTokens' | 'outputTokens' | 'reasoningTokens'> {
  const { input, cached, cacheWrite, cacheWrite1h, output, reasoning } = usage;
  return { ...usageFields({ inputTokens: input, cachedInputTokens: cached, cacheWriteTokens: cacheWrite, cacheWrite1hTokens: cacheWrite1h, outputTokens: output, reasoningTokens: reasoning }), outputTokens: output };
}

/**
 * The response as the loop takes it: one naming a tool with no name (`""`) is unparseable — no usable tool
 * call nor answer, a step that makes no progress, its tool calls dropped (never run, never answered: a
 * provider refuses a history holding a nameless call) — as the recording states it, a tool's name being
 * at least one character there. So the run and any replay of its recording take the same response.
 */
export function readableTurn(turn: ModelTurn): ModelTurn {
  if (turn.toolCalls.every((call) => typeof call.name === 'string' && call.name !== '')) return turn;
  return { ...turn, toolCalls: [], marks: { unparseable: true } };
}

/**
 * The tool calls a provider sent without an id (`""`, or none: openaiResponse.ts reads it as `""`) named
 * `call_<call>_<j>` — the call's index among the run's calls (0-based, as its recording orders them) and the
 * tool call's — as traceModel names a recorded one without an id; suffixed `_2`, `_3`, … past an id the run
 * already used. `usedIds` holds the run's ids so far (this response's added). The conversation sent back
 * (`tool_call_id`), the tools and the recording all take the turn so named, so a strict provider accepts the
 * next request and a replay of the recording answers the same ids. A turn whose calls all have ids is as it was.
 */
export function withCallIds(turn: ModelTurn, callIndex: number, usedIds: Set<string>): ModelTurn {
  for (const call of turn.toolCalls) if (call.id !== '') usedIds.add(call.id);
  if (turn.toolCalls.every((call) => typeof call.id === 'string' && call.id !== '')) return turn;
  const toolCalls = turn.toolCalls.map((call, j) => {
    if (typeof call.id === 'string' && call.id !== '') return call;
    const base = `call_${callIndex}_${j}`;
    let id = base;
    for (let n = 2; usedIds.has(id); n++) id = `${base}_${n}`;
    usedIds.add(id);
    return { ...call, id };
  });
  return { ...turn, toolCalls };
}

/** The response as a native call record (tool results filled in as the tools run; 0 for any that never ran). */
export function callRecordOf(turn: ModelTurn, latencyMs: number): CallRecord {
  const record: CallRecord = { type: 'call', ...usageFields(turn.usage), outputTokens: turn.usage.outputTokens, latencyMs };
  if (turn.toolCalls.length > 0) {
    // An empty id names no call: left out, as the format has it (an id is at least one character).
    record.toolCalls = turn.toolCalls.map((call): ToolCallRecord => ({ name: call.name, arguments: recordedArguments(call.arguments), resultTokens: 0, ...(call.id ? { id: call.id } : {}) }));
  }
  const marks = turn.marks ?? {};
  if (marks.final) record.final = true;
  if (marks.backtrack) record.backtrack = true;
  if (marks.compaction) record.compaction = true;
  if (marks.unparseable) record.unparseable = true;
  return record;
}

/**
 * A failed call's `failed`: the provider's status when it gave one that is a failure's (trace/rules.ts
 * isFailureStatus: an adapter's 200, 0, -1 or 1000 is left out, as the importers leave out a 2xx), and its
 * message (a refusal adds its numbers).
 */
export function failedOf(status: number | undefined, message: string): NonNullable<CallRecord['failed']> {
  return { ...(isFailureStatus(status) ? { status } : {}), message };
}

/**
 * The recorded end: what a replay of the recording says of it (a brake's stop replays as that brake); an
 * abort is marked `aborted` (kernel/gaveUp.ts runAborted reads the mark, never the status's words).
 */
export function endRecord(stop: Stop): TraceEnd {
  if (stop.reason === 'completed') return { type: 'end', outcome: 'completed' };
  if (stop.reason === 'trace_end' || stop.reason === 'provider_refused') return { type: 'end', outcome: 'error', status: stop.detail };
  if (stop.reason === 'aborted') return { type: 'end', outcome: 'unknown', status: stop.detail, aborted: true };
  return { type: 'end', outcome: 'limit', status: `${stop.reason}: ${stop.detail}` };
}

/**
 * `record` stating the cost the loop billed it at (its prices, metered: `costPico`), in USD as the importers
 * write a source's cost (money.ts picoToUsd: the exact decimal): a replay under other prices sets the table's
 * price beside it (pricing/recordedCost.ts PriceGapCheck) and warns of a gap.
 */
export function billed(record: CallRecord, costPico: number): CallRecord {
  record.recordedCostUsd = picoToUsd(costPico);
  return record;
}

/**
 * A failed call's record: the usage the provider returned (else none), and a compaction call's mark (no step:
 * kernel countsAsStep); `aborted`, the run's AbortSignal fired; an error that is no model failure (and no abort) is thrown on.
 */
export function failedRecordOf(error: unknown, latencyMs: number, aborted: boolean): CallRecord {
  if (!(error instanceof ModelCallError) && !aborted) throw error;
  const usage = error instanceof ModelCallError ? error.options.usage : undefined;
  const status = error instanceof ModelCallError ? error.options.status : undefined;
  const message = aborted ? 'aborted by the caller' : (error as Error).message;
  return { type: 'call', ...(usage === undefined ? {} : usageFields(usage)), outputTokens: usage?.outputTokens ?? 0, latencyMs, ...(error instanceof ModelCallError && error.options.compaction ? { compaction: true } : {}), failed: failedOf(status, message) };
}
