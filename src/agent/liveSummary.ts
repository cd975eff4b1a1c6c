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
import { refusedCall, type CallsRun } from './failedCalls.js';
import { billed, billedFields, failedRecordOf } from './records.js';
import { checkedUsage, checkFailure } from './turnCheck.js';
import { ModelCallError, ModelExhausted, type ModelTurn } from './types.js';

/** What the summary path needs of the run it is part of. */
export interface SummaryRun extends CallsRun {
  readonly conversation: Conversation;
  /** The deadline of the call made now (deadline.ts), at the timeout the brake before a call compares. */
  deadline(): CallDeadline;
  /** The summary call was cut at its deadline: `what` is named in the detail of the timeout that stops the run. */
  cut(what: string): void;
  /** What the run notes for its caller (AgentRunResult `notes`): a summary that answered no text. */
  readonly notes: string[];
}

/**
 * The summary call the session found due (its brakes passed on its estimate), made through the model:
 * the prompt it replaces plus a request to summarise, capped at S tokens. Billed (not a step) as the
 * model reported its usage, by the one meter every call goes through — by the estimate, as replay bills
 * it, when the response reports no prompt size — and its text stands for the older steps from now on. One
 * that answers no text (none, or only blanks) replaces nothing: it is billed and recorded as a compaction
 * call marked `unparseable`, the older steps are kept (as a replay of the recording keeps them, loop/summary.ts),
 * the run notes it (`notes`), and no summary is made again before the next call (no call of summaries alone).
 * Its time (the loop's lap) is its own, recorded and counted at it, as a replay counts a recorded
 * compaction call's. Not retried: a failed summary call is paid as any failed call (what its error
 * reported, else nothing) and ends the run as a model that gave up; one its provider refused for its
 * length ends it provider_refused, paid nothing. Given the deadline a model call is given (deadline.ts),
 * one cut there is recorded as it ran until cut, paid nothing, and the brakes before the next call stop
 * the run `timeout`. Under `--context-window model` the brake stops the run before a summary call past
 * the summary model's window (session.beforeSummary).
 */
export async function summarizeLive(run: SummaryRun, due: SummaryDue): Promise<Stop | null> {
  const { session, options } = run;
  const braked = session.beforeSummary(due);
  if (braked) return braked;
  const spec = options.context.strategy!.summary!;
  const deadline = run.deadline();
  let turn: ModelTurn;
  try {
    turn = await options.model.call({
      messages: [...run.conversation.prompt(due.view), { role: 'user', content: summaryInstruction(spec.summaryTokens) }],
      tools: [],
      maxOutputTokens: spec.summaryTokens,
      purpose: 'summary',
      ...(spec.model === undefined ? {} : { model: spec.model }),
      ...(deadline.signal === undefined ? {} : { signal: deadline.signal }),
    });
  } catch (error) {
    return failedSummary(run, due, error, deadline.cut);
  } finally {
    deadline.end();
  }
  const text = turn.text ?? '';
  const empty = text.trim() === '';
  const steps = session.state.steps;
  billSummary(run, due, { type: 'call', ...checkedUsage(turn, options.model, 'summary'), latencyMs: run.lap(), ...(empty ? { unparseable: true } : {}) });
  if (empty) run.notes.push(emptySummaryNote(steps));
  else run.conversation.summarize(text);
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
  if (cutByDeadline(cut, error, run.aborted())) {
    billSummary(run, due, cutCallRecord(run.lap()));
    run.cut(CUT_SUMMARY_CALL);
    return null;
  }
  const failed = failedRecordOf(error, run.lap(), run.aborted());
  billSummary(run, due, failed);
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
