/**
 * The rules every run obeys whatever format it came from, written once: the magnitude of counts,
 * amounts and latencies (past them a figure is inexact), the cross-field rules of a call's usage, and
 * the nesting of tool arguments. The native reader applies them to each record as it reads it (with the
 * record's line); every importer's runs are checked with `traceRuleIssues` before they are handed out,
 * and the trajectory importers apply `callRuleViolations` to name the source's own field.
 *
 * Cross-field rules of a call (all parts are included in their whole, as every provider reports them):
 *   cachedInputTokens + cacheWriteTokens + cacheWrite1hTokens ≤ inputTokens  (a cache read or write is
 *   part of the prompt: more would be charged for tokens never sent), and reasoningTokens ≤ outputTokens.
 * A call the provider refused for its length (failed.contextLengthExceeded) carries no usage, cost nor
 * tool calls, is no answer (not final, backtrack nor unparseable), gives numbers past the window when it
 * gives all three (kernel/providerWindow.ts: prompt + max_tokens > window), and is its run's last call,
 * in a run whose end is not `completed` (the refusal ended the run). A final answer completes its run
 * (loop/session.ts endStep): no call follows a call marked `final`. A failed call's status is an HTTP
 * status (a whole number 100–599) and no 2xx (isFailureStatus), and a failed call is no final answer.
 * A tool call the run never reached (`unreached`: its AbortSignal fired between the tool calls of one
 * call) ran nothing: no result, latency nor error, and every tool call after it was not reached either.
 */
import type { InputIssue } from '../errors.js';
import { MAX_ARGUMENTS_DEPTH, MAX_COUNT, MAX_LATENCY_MS, MAX_USD, pathPastDepth } from '../io/limits.js';
import { MAX_RUN_COST_TEXT } from '../money.js';
import { isHttpStatus } from '../import/http/status.js';
import { providerRefuses } from '../kernel/providerWindow.js';
import { recordedSettingsViolations } from './recordedSettings.js';
import { reachedToolCalls } from './toolsRun.js';
import { afterFinalViolation, AFTER_REFUSAL_HINT, afterRefusalViolation, callAfterRefusal, callsAfterFinal, completedAfterRefusal, REFUSED, refusedCallIndex } from './callOrder.js';
import type { CallRecord, ContextLengthExceeded, RecordedSettings, ToolCallRecord, Trace, TraceEnd, TraceHeader } from './types.js';

export { afterFinalViolation, AFTER_REFUSAL_HINT, afterRefusalViolation, callAfterRefusal, callsAfterFinal, completedAfterRefusal, refusedCallIndex } from './callOrder.js';

/** One broken rule: the native field it is about (e.g. `cachedInputTokens`), a code and a message; a hint when RULES_HINT does not fit it. */
export interface RuleViolation {
  field: string;
  code: 'too_large' | 'too_small' | 'setting_without_effect' | 'inconsistent_usage' | 'too_deep' | 'end_before_start' | 'call_after_refusal' | 'inconsistent_refusal' | 'inconsistent_status' | 'completed_after_refusal' | 'inconsistent_failure' | 'inconsistent_unreached' | 'inconsistent_abort' | 'call_after_final' | 'inconsistent_outcome';
  message: string;
  hint?: string;
}

export const RULES_HINT = 'the counts look corrupted or made up: check the file, or export the run again';

/**
 * How a message shows a field's number: as its line wrote it, where the reader knows (the native reader,
 * for a line found bad: JSON.parse reads 9007199254740993 as 9007199254740992), else as read.
 */
export interface WrittenNumbers {
  writtenAt?: (field: string) => string | undefined;
}

const AS_READ: WrittenNumbers = {};

function shownNumber(field: string, value: number, numbers: WrittenNumbers): string {
  return numbers.writtenAt?.(field) ?? String(value);
}

/** The count is a whole number that a JSON number holds exactly (≤ 2^53 − 1). */
export function countTooLarge(field: string, value: number, numbers = AS_READ): RuleViolation | undefined {
  return value > MAX_COUNT ? { field, code: 'too_large', message: `${shownNumber(field, value, numbers)} is more than ${MAX_COUNT} (2^53 − 1), the largest count held exactly` } : undefined;
}

/** A recorded cost in USD past the most a run's spend is summed exactly (2^53 − 1 picodollars). */
export function amountTooLarge(field: string, value: number, numbers = AS_READ): RuleViolation | undefined {
  return value > MAX_USD ? { field, code: 'too_large', message: `$${shownNumber(field, value, numbers)} is more than ${MAX_RUN_COST_TEXT} (2^53 − 1 picodollars), the most that is summed exactly` } : undefined;
}

function latencyTooLarge(field: string, value: number, numbers: WrittenNumbers): RuleViolation | undefined {
  return value > MAX_LATENCY_MS ? { field, code: 'too_large', message: `${shownNumber(field, value, numbers)} ms is more than 2^53 ms` } : undefined;
}

/** Time cannot run backwards: an end (or a later event) before its start. */
export function endBeforeStart(field: string, start: number | bigint, end: number | bigint, what = 'ends before it starts'): RuleViolation | undefined {
  return end < start ? { field, code: 'end_before_start', message: `${what} (${end} < ${start}): time cannot run backwards` } : undefined;
}

function defined(violations: (RuleViolation | undefined)[]): RuleViolation[] {
  return violations.filter((v): v is RuleViolation => v !== undefined);
}

function pushDefined(out: RuleViolation[], violation: RuleViolation | undefined): void {
  if (violation !== undefined) out.push(violation);
}

/**
 * The usage rules of one call (fields named as in the native format). Read for every call: no closures, no
 * arrays but the result. `numbers`: how the line wrote them, for a line found bad (parseNative.ts).
 */
export function callRuleViolations(call: CallRecord, numbers = AS_READ): RuleViolation[] {
  const out: RuleViolation[] = [];
  // Each count read by name (a loop over the names makes every read a generic keyed load).
  if (call.inputTokens !== undefined) pushDefined(out, countTooLarge('inputTokens', call.inputTokens, numbers));
  if (call.cachedInputTokens !== undefined) pushDefined(out, countTooLarge('cachedInputTokens', call.cachedInputTokens, numbers));
  if (call.cacheWriteTokens !== undefined) pushDefined(out, countTooLarge('cacheWriteTokens', call.cacheWriteTokens, numbers));
  if (call.cacheWrite1hTokens !== undefined) pushDefined(out, countTooLarge('cacheWrite1hTokens', call.cacheWrite1hTokens, numbers));
  pushDefined(out, countTooLarge('outputTokens', call.outputTokens, numbers));
  if (call.reasoningTokens !== undefined) pushDefined(out, countTooLarge('reasoningTokens', call.reasoningTokens, numbers));
  if (call.webSearchRequests !== undefined) pushDefined(out, countTooLarge('webSearchRequests', call.webSearchRequests, numbers));
  if (call.latencyMs !== undefined) pushDefined(out, latencyTooLarge('latencyMs', call.latencyMs, numbers));
  if (call.startMs !== undefined) pushDefined(out, latencyTooLarge('startMs', call.startMs, numbers));
  if (call.recordedCostUsd !== undefined) pushDefined(out, amountTooLarge('recordedCostUsd', call.recordedCostUsd, numbers));
  if (call.failed?.status !== undefined && !isFailureStatus(call.failed.status)) out.push(statusViolation(call.failed.status));
  if (call.failed !== undefined && call.final === true && call.failed.contextLengthExceeded === undefined) out.push(FINAL_FAILED_CALL);
  if (call.failed?.contextLengthExceeded !== undefined) refusalViolations(call, out, numbers);
  if (call.failed?.estimated === true) unreadViolations(call, out);
  const cached = call.cachedInputTokens ?? 0;
  const written = (call.cacheWriteTokens ?? 0) + (call.cacheWrite1hTokens ?? 0);
  if (call.inputTokens !== undefined && cached > call.inputTokens) {
    out.push({ field: 'cachedInputTokens', code: 'inconsistent_usage', message: `cached tokens (${cached}) exceed the input tokens (${call.inputTokens}) they are part of` });
  } else if (call.inputTokens !== undefined && cached + written > call.inputTokens) {
    out.push({
      field: call.cacheWriteTokens !== undefined ? 'cacheWriteTokens' : 'cacheWrite1hTokens',
      code: 'inconsistent_usage',
      message: `cache read (${cached}) + cache write (${written}) tokens exceed the input tokens (${call.inputTokens}) they are part of`,
    });
  }
  if (call.reasoningTokens !== undefined && call.reasoningTokens > call.outputTokens) {
    out.push({ field: 'reasoningTokens', code: 'inconsistent_usage', message: `reasoning tokens (${call.reasoningTokens}) exceed the output tokens (${call.outputTokens}) they are part of` });
  }
  const tools = call.toolCalls ?? [];
  for (let j = 0; j < tools.length; j++) {
    const tool = tools[j]!;
    const deep = pathPastDepth(tool.arguments, MAX_ARGUMENTS_DEPTH);
    if (deep !== undefined) out.push({ field: `toolCalls[${j}].arguments`, code: 'too_deep', message: `nests deeper than ${MAX_ARGUMENTS_DEPTH} levels of arrays and objects (at ${deep.slice(0, 60)}${deep.length > 60 ? '…' : ''})` });
    pushDefined(out, countTooLarge(`toolCalls[${j}].resultTokens`, tool.resultTokens, numbers));
    if (tool.latencyMs !== undefined) pushDefined(out, latencyTooLarge(`toolCalls[${j}].latencyMs`, tool.latencyMs, numbers));
    if (j > 0 && tool.unreached !== true && tools[j - 1]!.unreached === true) out.push(reachedAfterUnreached(j));
    if (tool.unreached === true) unreachedViolations(tool, j, out);
  }
  return out;
}

/** What a call sent and never read (failed.estimated: billed at the loop's prompt estimate alone, its output 0, agent/failedCalls.ts) may not carry: any of its response. */
function unreadViolations(call: CallRecord, out: RuleViolation[]): void {
  for (const field of ['outputTokens', 'reasoningTokens', 'webSearchRequests'] as const) {
    const value = call[field] ?? 0;
    if (value > 0) out.push({ field, code: 'inconsistent_usage', message: `is ${value} on a call sent and never read (failed.estimated): no response was read, so none of it is known or billed`, hint: 'write 0, as the loop does: such a call is billed at its prompt estimate alone; or leave failed.estimated out if its response was read' });
  }
}

/** What a tool call the run never reached may not carry: it ran nothing. */
const NOT_ON_UNREACHED = ['latencyMs', 'error', 'startedAgentId', 'startedAgentIds'] as const;

function unreachedViolations(tool: ToolCallRecord, j: number, out: RuleViolation[]): void {
  const hint = 'leave unreached out of a tool call that ran; one the run never reached has resultTokens 0 and no latencyMs, error, startedAgentId nor startedAgentIds';
  const never = 'but the run never reached this tool call (unreached): it ran nothing';
  if (tool.resultTokens !== 0) out.push({ field: `toolCalls[${j}].resultTokens`, code: 'inconsistent_unreached', message: `is ${tool.resultTokens}, ${never}`, hint });
  for (const field of NOT_ON_UNREACHED) {
    if (tool[field] !== undefined && tool[field] !== null) out.push({ field: `toolCalls[${j}].${field}`, code: 'inconsistent_unreached', message: `is set, ${never}`, hint });
  }
}

function reachedAfterUnreached(j: number): RuleViolation {
  return {
    field: `toolCalls[${j}]`,
    code: 'inconsistent_unreached',
    message: `is not marked unreached, but toolCalls[${j - 1}] is: the run stopped at the first tool call it never reached, so it reached none after it`,
    hint: 'mark unreached every tool call from the first one the run never reached to the last',
  };
}

/** Whether the run stopped between the tool calls of `call` (some it never reached): the step never ended, so a `final` mark completes nothing. */
export function cutShort(call: CallRecord): boolean {
  return reachedToolCalls(call) < (call.toolCalls?.length ?? 0);
}

/** The fields a refused call may not carry: the provider billed it nothing and answered nothing. */
const NOT_ON_A_REFUSAL = ['inputTokens', 'cachedInputTokens', 'cacheWriteTokens', 'cacheWrite1hTokens', 'reasoningTokens', 'webSearchRequests', 'recordedCostUsd', 'toolCalls'] as const;

/** The marks of a response (docs/trace-format.md), none of which a refused call can bear: there was no response. */
const NO_RESPONSE_TO_MARK = { final: 'gave no final answer', backtrack: 'abandoned no step', unparseable: 'gave no response that could not be used' } as const;
const RESPONSE_MARKS = ['final', 'backtrack', 'unparseable'] as const;


/** A call the provider refused for its length (failed.contextLengthExceeded): its numbers, and no usage, cost nor answer. */
function refusalViolations(call: CallRecord, out: RuleViolation[], numbers: WrittenNumbers): void {
  const refusal: ContextLengthExceeded = call.failed!.contextLengthExceeded!;
  if (refusal.promptTokens !== undefined) pushDefined(out, countTooLarge('failed.contextLengthExceeded.promptTokens', refusal.promptTokens, numbers));
  if (refusal.maxOutputTokens !== undefined) pushDefined(out, countTooLarge('failed.contextLengthExceeded.maxOutputTokens', refusal.maxOutputTokens, numbers));
  if (refusal.contextWindowTokens !== undefined) pushDefined(out, countTooLarge('failed.contextLengthExceeded.contextWindowTokens', refusal.contextWindowTokens, numbers));
  pushDefined(out, refusalNotPastWindow(refusal));
  const refused = `${REFUSED}: it billed nothing and answered nothing`;
  if (call.outputTokens !== 0) out.push({ field: 'outputTokens', code: 'inconsistent_usage', message: `is ${call.outputTokens}, but ${refused}: write 0` });
  for (const field of NOT_ON_A_REFUSAL) {
    if (call[field] !== undefined) out.push({ field, code: 'inconsistent_usage', message: `is set, but ${refused}: leave it out (the refused prompt's size goes in failed.contextLengthExceeded.promptTokens)` });
  }
  for (const mark of RESPONSE_MARKS) {
    if (call[mark] !== true) continue;
    const hint = `leave ${mark} out of the refused call: the refusal ends the run (provider_refused)`;
    out.push({ field: mark, code: 'inconsistent_refusal', message: `is true, but ${REFUSED}: it answered nothing, so it ${NO_RESPONSE_TO_MARK[mark]}`, hint });
  }
}

/**
 * A refusal's three numbers that are not past the window (a provider refuses only prompt + max_tokens >
 * window: kernel/providerWindow.ts). With one of them not given nothing is said: the max_tokens a log does
 * not give may be what passed the window.
 */
export function refusalNotPastWindow({ promptTokens, maxOutputTokens, contextWindowTokens }: ContextLengthExceeded): RuleViolation | undefined {
  if (promptTokens === undefined || maxOutputTokens === undefined || contextWindowTokens === undefined) return undefined;
  if (providerRefuses(contextWindowTokens, promptTokens, maxOutputTokens)) return undefined;
  return {
    field: 'failed.contextLengthExceeded',
    code: 'inconsistent_refusal',
    message: `says prompt ${promptTokens} + max_tokens ${maxOutputTokens} = ${promptTokens + maxOutputTokens} tokens, which is not past its context window of ${contextWindowTokens}: a provider refuses only a request past the window`,
    hint: "write the numbers the provider's error gave (leave out one it did not give), or, when the call failed for another reason, record it as a plain failed call (no contextLengthExceeded)",
  };
}

/** An HTTP status of success (2xx): the provider answered, so it is no failed call's status. */
export function isSuccessStatus(status: number): boolean {
  return status >= 200 && status <= 299;
}

/**
 * A failed call's status, the one rule for it (the reader, the importers, the real loop's recorder): an
 * HTTP status (a whole number 100–599: import/http/status.ts) that is no success. Anything else is left
 * out by whoever writes the record (a stream that failed after its 200, an adapter's 0 or -1), refused by the reader.
 */
export function isFailureStatus(status: unknown): status is number {
  return isHttpStatus(status) && !isSuccessStatus(status);
}

function statusViolation(status: number): RuleViolation {
  const success = isSuccessStatus(status);
  return {
    field: 'failed.status',
    code: 'inconsistent_status',
    message: success
      ? `is ${status}, a success, on a failed call: a failed call's status is the error the provider answered with (4xx, 5xx)`
      : `is ${status}, which is no HTTP status (a whole number from 100 to 599)`,
    hint: "write the error's status, or leave status out when the call failed after a 2xx response (a stream cut off midway, an error in a 200 body) or the log gives none",
  };
}

/** A plain failed call marked final: it gave no answer (a refusal's marks are refusalViolations'). */
const FINAL_FAILED_CALL: RuleViolation = {
  field: 'final',
  code: 'inconsistent_failure',
  message: 'is true on a failed call: the call failed, so it gave no final answer',
  hint: 'leave final out of the failed call (mark the answer that ended the run), or leave failed out if the call was answered',
};

export function headerRuleViolations(header: TraceHeader, numbers = AS_READ): RuleViolation[] {
  return defined([
    countTooLarge('systemTokens', header.systemTokens, numbers),
    countTooLarge('goalTokens', header.goalTokens, numbers),
    ...recordedCountViolations(header.recordedSettings ?? {}, numbers),
    ...recordedSettingsViolations(header.recordedSettings ?? {}),
    header.agent?.part === undefined ? undefined : countTooLarge('agent.part', header.agent.part, numbers),
    header.synthetic?.taskDone === false && header.synthetic.doneAtStep !== undefined ? UNDONE_AT_STEP : undefined,
  ]);
}

/** Ground truth of a task never done that names the step it was done at (trace/callOrder.ts doneAfterLastCall: one past the run's calls). */
const UNDONE_AT_STEP: RuleViolation = { field: 'synthetic.doneAtStep', code: 'inconsistent_outcome', message: 'is set, but taskDone is false: a run whose task was never done has no step it was done at', hint: 'set taskDone true if the task was done at that step, or leave doneAtStep out' };

/** The recorded brakes' counts (and the budget in picodollars), each held exactly or refused. */
function recordedCountViolations(settings: RecordedSettings, numbers: WrittenNumbers): (RuleViolation | undefined)[] {
  return RECORDED_COUNTS.map((key) => {
    const value = settings[key];
    return typeof value === 'number' ? countTooLarge(`recordedSettings.${key}`, value, numbers) : undefined;
  });
}

const RECORDED_COUNTS = ['maxSteps', 'maxCostPico', 'maxOutputTokens', 'maxRepeat', 'maxSkips', 'skipWarningTokens', 'maxSameError', 'maxTokens', 'maxBacktracks', 'contextWindow'] as const;

export function endRuleViolations(end: TraceEnd, numbers = AS_READ): RuleViolation[] {
  return defined([
    end.recordedInputTokens === undefined ? undefined : countTooLarge('recordedInputTokens', end.recordedInputTokens, numbers),
    end.recordedOutputTokens === undefined ? undefined : countTooLarge('recordedOutputTokens', end.recordedOutputTokens, numbers),
    end.recordedCalls === undefined ? undefined : countTooLarge('recordedCalls', end.recordedCalls, numbers),
    end.recordedCostUsd === undefined ? undefined : amountTooLarge('recordedCostUsd', end.recordedCostUsd, numbers),
    end.aborted === true && end.outcome !== 'unknown' ? abortWithOutcome(end.outcome) : undefined,
  ]);
}

/** An aborted run is not known to have completed, failed, timed out or hit a limit: the recorder writes it `unknown`. */
function abortWithOutcome(outcome: TraceEnd['outcome']): RuleViolation {
  const hint = 'write outcome unknown for an aborted run (as the runAgentLoop recorder does), or leave aborted out';
  return { field: 'aborted', code: 'inconsistent_abort', message: `is true, but the outcome is ${outcome}: a run its AbortSignal stopped ends with outcome unknown`, hint };
}

/** The rules of a whole run (as an importer built it), as issues naming the run and the native field. */
export function traceRuleIssues(trace: Trace): InputIssue[] {
  const issue = (prefix: string, v: RuleViolation, hint = v.hint ?? RULES_HINT): InputIssue => ({ file: trace.source, field: `${prefix}${v.field}`, code: v.code, message: v.message, hint });
  const after = callAfterRefusal(trace.calls);
  const refused = refusedCallIndex(trace.calls);
  const completed = refused < 0 ? undefined : completedAfterRefusal(trace.end, `calls[${refused}]`);
  return [
    ...headerRuleViolations(trace.header).map((v) => issue('header.', v)),
    ...trace.calls.flatMap((call, k) => callRuleViolations(call).map((v) => issue(`calls[${k}].`, v))),
    ...(after === undefined ? [] : [issue(`calls[${after}].`, afterRefusalViolation(`calls[${after - 1}]`), AFTER_REFUSAL_HINT)]),
    ...callsAfterFinal(trace.calls).map((k) => issue(`calls[${k}].`, afterFinalViolation(`calls[${k - 1}]`))),
    ...endRuleViolations(trace.end).map((v) => issue('end.', v)),
    ...(completed === undefined ? [] : [issue('end.', completed)]),
  ];
}
