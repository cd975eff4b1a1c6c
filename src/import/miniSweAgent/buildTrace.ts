/**
 * A valid mini-swe-agent run → its Trace: tool result tokens counted with the model's tokenizer, the
 * final call marked, the failed last API call recorded (or noted), notes, header and end record.
 */
import { TRACE_SCHEMA, type CallRecord, type Trace, type TraceHeader } from '../../trace/types.js';
import { inferProvider } from '../common/provider.js';
import { recordedLimits } from '../common/recordedLimits.js';
import { countTokens, encodingForModel, isApproximateTokenizer } from '../tokenCount.js';
import type { MiniSweAgentRun } from './readTrajectory.js';
import { failedCallRecord, lastCallFailure, miniSweAgentOutcome } from './runEnd.js';
import { servedModelNote } from './servedModel.js';
import { YEAR_10000_UNIX_SECONDS } from '../common/timestamp.js';

export const MINI_SWE_AGENT_FORMAT = 'mini-swe-agent';

export interface MiniSweAgentImportOptions {
  /**
   * The API call that ended a run with an exception (`InternalServerError`, `Timeout`) is counted in
   * `info.model_stats.api_calls` but has no assistant message. `record` (default) appends it as a call with
   * `failed` set and zero usage, so the call count equals `api_calls`; `omit` leaves it out.
   */
  failedCall?: 'record' | 'omit';
}

export function buildMiniSweAgentTrace(run: MiniSweAgentRun, path: string, opts: MiniSweAgentImportOptions = {}): Trace {
  const { model, calls, exitStatus, apiCalls } = run;
  countToolResults(run);
  markFinalCalls(run);
  const notes: string[] = [];
  const served = servedModelNote(run);
  if (served !== undefined) notes.push(served);
  const records = calls.map((draft) => draft.record);
  const sumInput = records.reduce((sum, record) => sum + (record.inputTokens ?? 0), 0);
  const sumOutput = records.reduce((sum, record) => sum + record.outputTokens, 0);
  addFailedLastCall(run, records, notes, opts);
  if (run.clockSkew) {
    notes.push(
      `${run.clockSkew.count} message timestamp(s) run up to ${run.clockSkew.maxSeconds.toFixed(3)} s behind the one before (clock skew between the agent and its environment): those gaps count as 0 ms`,
    );
  }
  if (run.toolResults.length > 0 && isApproximateTokenizer(model)) {
    notes.push(`tool result tokens counted with ${encodingForModel(model)}, an approximation for ${model}`);
  }
  const trace: Trace = {
    source: path,
    header: traceHeader(run, path, notes),
    calls: records,
    end: {
      type: 'end',
      outcome: miniSweAgentOutcome(exitStatus),
      recordedInputTokens: sumInput,
      recordedOutputTokens: sumOutput,
    },
  };
  if (exitStatus !== undefined) trace.end.status = exitStatus;
  if (run.instanceCost !== undefined) trace.end.recordedCostUsd = run.instanceCost;
  if (apiCalls !== undefined) trace.end.recordedCalls = apiCalls;
  return trace;
}

/** Token counts that need the model: each tool result's, counted with the model's tokenizer. */
function countToolResults({ toolResults, calls, model }: MiniSweAgentRun): void {
  for (const { tool, text } of toolResults) {
    calls[tool.callIndex]!.record.toolCalls![tool.toolIndex]!.resultTokens = countTokens(text, model);
  }
}

/**
 * The final call, and the unparseable ones: mini-swe-agent finishes only through a command whose output
 * starts with the submit marker; a reply without any tool call is a format error it answers with a user
 * message and continues after.
 */
function markFinalCalls({ calls, exitStatus }: MiniSweAgentRun): void {
  const lastCall = calls[calls.length - 1];
  for (const draft of calls) {
    const hasTools = (draft.record.toolCalls?.length ?? 0) > 0;
    if (draft === lastCall && (draft.submitMarker || exitStatus === 'Submitted')) draft.record.final = true;
    else if (!hasTools) draft.record.unparseable = true;
  }
}

/** The API call that failed and ended the run: added to `records` (or left out, as `opts` says), and noted. */
function addFailedLastCall(run: MiniSweAgentRun, records: CallRecord[], notes: string[], opts: MiniSweAgentImportOptions): void {
  const { apiCalls } = run;
  const failedText = lastCallFailure(run.exitStatus, run.exitMessage);
  const missingCalls = apiCalls !== undefined ? apiCalls - records.length : 0;
  if (missingCalls === 1 && failedText !== undefined) {
    const failedRecord = failedCallRecord(failedText);
    if ((opts.failedCall ?? 'record') === 'record') {
      records.push(failedRecord);
      notes.push(
        `the last API call failed (${failedText.split(':')[0]}) and has no assistant message: recorded as a failed call with zero usage so the call count matches api_calls`,
      );
    } else {
      notes.push(`the last API call failed (${failedText.split(':')[0]}): omitted, so there is one call fewer than api_calls`);
    }
  } else if (apiCalls !== undefined && missingCalls !== 0) {
    notes.push(`info.model_stats.api_calls is ${apiCalls} but the trajectory holds ${records.length} assistant messages`);
  }
}

/** The run's header: model, prompt tokens, provenance (with `notes`), task, when recorded and the recorded limits. */
function traceHeader(run: MiniSweAgentRun, path: string, notes: string[]): TraceHeader {
  const { model } = run;
  const header: TraceHeader = {
    type: 'header',
    schema: TRACE_SCHEMA,
    model,
    systemTokens: run.systemText !== undefined ? countTokens(run.systemText, model) : 0,
    goalTokens: run.goalText !== undefined ? countTokens(run.goalText, model) : 0,
    origin: 'recorded',
    importedFrom: { format: MINI_SWE_AGENT_FORMAT, path, ...(notes.length > 0 ? { notes } : {}) },
  };
  const provider = inferProvider(model);
  if (provider !== undefined) header.provider = provider;
  if (run.task !== undefined) header.task = run.task;
  const recordedAt = isoTime(run.firstTimestamp);
  if (recordedAt !== undefined) header.recordedAt = recordedAt;
  const recordedSettings = recordedLimits(run.stepLimit, run.costLimit);
  if (recordedSettings !== undefined) header.recordedSettings = recordedSettings;
  return header;
}

/** Unix seconds as ISO 8601 (UTC), for years 1970–9999 only (what the native schema reads back). */
function isoTime(unixSeconds: number | undefined): string | undefined {
  if (unixSeconds === undefined) return undefined;
  return unixSeconds >= 0 && unixSeconds < YEAR_10000_UNIX_SECONDS ? new Date(unixSeconds * 1000).toISOString() : undefined;
}
