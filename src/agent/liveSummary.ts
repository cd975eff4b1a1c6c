/**
 * The real loop's summary call (agent/loop.ts): the call the session found due, made through the model and
 * billed by the one meter every call goes through. Apart from the run that makes it, as the things it needs
 * of that run (SummaryRun: what a failed call needs, failedCalls.ts CallsRun, and more).
 */
import type { Stop } from '../brakes/stopReasons.js';
import type { SummaryDue } from '../loop/summary.js';
import type { CallRecord } from '../trace/types.js';
import { summaryInstruction, type Conversation } from './conversation.js';
import { CUT_SUMMARY_CALL, cutCallRecord, cutByDeadline, type CallDeadline } from './deadline.js';
import { atEstimateIfUnread, refusedCall, type CallsRun } from './failedCalls.js';
import { billed, billedFields, failedRecordOf, usageFields } from './records.js';
import { checkedTurn, checkFailure } from './turnCheck.js';
import { usageAsCounted, type UsageCounting } from './unreportedUsage.js';
import { sentCall } from '../trace/liveRecording.js';
import { ModelCallError, ModelExhausted, type ModelTurn, type ToolSpec } from './types.js';

/** What the summary path needs of the run it is part of. */
export interface SummaryRun extends CallsRun {
  readonly conversation: Conversation;
  /** The run's tools, as every call of the run sends them (the summary call sends them too, with a tool choice of none). */
  readonly toolSpecs: readonly ToolSpec[];
  /** The deadline of the call made now (deadline.ts), at the timeout the brake before a call compares. */
  deadline(): CallDeadline;
  /** The summary call was cut at its deadline: `what` is named in the detail of the timeout that stops the run. */
  cut(what: string): void;
  /** What the run notes for its caller (AgentRunResult `notes`): a summary that answered no text. */
  readonly notes: string[];
  /** What a response's usage not reported is counted with (unreportedUsage.ts), as for every call of the run. */
  readonly counting: UsageCounting;
}

/**
 * The summary call the session found due (its brakes passed on its estimate), made through the model:
 * the prompt it replaces plus a request to summarise, capped at S tokens. It sends the run's tools, as the
 * calls before it did, with a tool choice of none (the model must answer text): its prompt is then the prompt
 * it replaces, whose prefix the provider's cache holds, as replay prices it (kernel/meter.ts
 * summaryCachedPrefixTokens) and as the session's estimate sized it; a tool call the model answers anyway is
 * billed with the turn and not run. Written as sent before it is made
 * (a sent line at its estimate, marked compaction: a run killed during it keeps the call the provider may
 * bill, failedCalls.ts sendCall). Billed (not a step) as the model reported its usage — an output not
 * reported counted, a prompt no call of the run can have dropped, as for every call (unreportedUsage.ts) —
 * by the one meter every call goes through — by the estimate, as replay bills it, when the response
 * reports no prompt size — and its text stands for the older steps from now on. One
 * that answers no text (none, or only blanks) replaces nothing: it is billed and recorded as a compaction
 * call marked `unparseable`, the older steps are kept (as a replay of the recording keeps them, loop/summary.ts),
 * the run notes it (`notes`), and no summary is made again before the next call (no call of summaries alone).
 * Its time (the loop's lap) is its own, recorded and counted at it, as a replay counts a recorded
 * compaction call's. Not retried: a failed summary call is paid as any failed call (what its error
 * reported; one sent and never read — the adapter says so, or cut at its deadline or by the caller's abort —
 * at its estimate, marked estimated; else nothing) and ends the run as a model that gave up; one its provider
 * refused for its length ends it provider_refused, paid nothing. Given the deadline a model call is given
 * (deadline.ts), one cut there is recorded as it ran until cut, paid at its estimate, and the brakes before
 * the next call stop the run `timeout`. Under `--context-window model` the brake stops the run before a
 * summary call past the summary model's window (session.beforeSummary).
 */
export async function summarizeLive(run: SummaryRun, due: SummaryDue): Promise<Stop | null> {
  const { session, options } = run;
  const braked = session.beforeSummary(due);
  if (braked) return braked;
  const spec = options.context.strategy!.summary!;
  const deadline = run.deadline();
  run.recorder.sent?.({ ...sentCall(due.size.promptEstimate), compaction: true }); // On disk before it is made, as every model call.
  let turn: ModelTurn;
  try {
    turn = await options.model.call({
      messages: [...run.conversation.prompt(due.view), { role: 'user', content: summaryInstruction(spec.summaryTokens) }],
      tools: run.toolSpecs,
      toolChoice: 'none',
      maxOutputTokens: spec.summaryTokens,
      purpose: 'summary',
      promptEstimateTokens: due.size.promptEstimate, // What a stand-in provider sizes it by (traceModel), as replay's simulated one does.
      ...(spec.model === undefined ? {} : { model: spec.model }),
      ...(deadline.signal === undefined ? {} : { signal: deadline.signal }),
    });
  } catch (error) {
    return failedSummary(run, due, error, deadline.cut);
  } finally {
    deadline.end();
  }
  const { text, usage } = usageAsCounted(checkedTurn(turn, options.model, 'summary'), run.counting);
  const summary = text ?? '';
  const empty = summary.trim() === '';
  const steps = session.state.steps;
  billSummary(run, due, { type: 'call', ...usageFields(usage), outputTokens: usage.outputTokens, latencyMs: run.lap(), ...(empty ? { unparseable: true } : {}) });
  if (empty) run.notes.push(emptySummaryNote(steps));
  else run.conversation.summarize(summary);
  return null;
}

/**
 * What the run notes of a summary call answered with no text (after `steps` steps): billed and recorded (a
 * compaction call marked unparseable), but nothing stands for the older steps, so they stay (loop/summary.ts).
 */
export function emptySummaryNote(steps: number): string {
  return `the summary call after ${steps} ${steps === 1 ? 'step' : 'steps'} answered no text: the older steps were kept (nothing compacted); the call was billed and recorded`;
}

/** The summary call `due` failed with `error` (`cut`: its deadline fired): how the run goes on, if it does (null: the brakes before the next call stop it). */
function failedSummary(run: SummaryRun, due: SummaryDue, error: unknown, cut: boolean): Stop | null {
  const { session, options } = run;
  if (error instanceof ModelExhausted && !run.aborted()) return session.exhausted(error.reason, error.detail);
  if (error instanceof ModelCallError) checkFailure(error, options.model, 'summary');
  if (error instanceof ModelCallError && error.options.refusal && !run.aborted()) return refusedCall(run, error, error.options.refusal, due.view, true);
  const cutOff = cutByDeadline(cut, error, run.aborted());
  const failed = cutOff ? cutCallRecord(run.lap()) : failedRecordOf(error, run.lap(), run.aborted());
  atEstimateIfUnread(failed, error, cutOff || run.aborted(), () => due.size.promptEstimate); // Sent, never read: at the estimate its brakes priced.
  billSummary(run, due, failed);
  if (cutOff) {
    run.cut(CUT_SUMMARY_CALL);
    return null;
  }
  return run.aborted() ? session.aborted() : session.modelGaveUp(`summary call failed: ${failed.failed!.message}; not retried`);
}

/**
 * The summary call paid (session.recordSummary: its time counted at it) and recorded as a compaction call with
 * the usage billed and its time, so the recording replays (full history) to the run's figures, stating the cost
 * billed (records.ts billed).
 */
function billSummary(run: SummaryRun, due: SummaryDue, response: CallRecord): void {
  const { usage, costPico } = run.session.recordSummary(due, response);
  run.recorder.call(billed({ type: 'call', ...billedFields(usage), latencyMs: response.latencyMs!, compaction: true, ...(response.unparseable ? { unparseable: true } : {}), ...(response.failed ? { failed: response.failed } : {}) }, costPico));
}
