/**
 * The real loop's summary call (agent/loop.ts): the call the session found due, made through the model and
 * billed by the one meter every call goes through. Apart from the run that makes it, as the things it needs
 * of that run (SummaryRun).
 */
import type { Stop } from '../brakes/stopReasons.js';
import type { PromptView } from '../kernel/context.js';
import type { LoopSession } from '../loop/session.js';
import type { SummaryDue } from '../loop/summary.js';
import type { WindowRefusal } from '../loop/types.js';
import type { CallRecord } from '../trace/types.js';
import { summaryInstruction, type Conversation } from './conversation.js';
import type { ResolvedAgentOptions } from './loop.js';
import { billed, billedFields } from './records.js';
import { checkedUsage, checkFailure } from './turnCheck.js';
import { ModelCallError, ModelExhausted, type ModelTurn } from './types.js';

/** What the summary path needs of the run it is part of. */
export interface SummaryRun {
  readonly session: LoopSession;
  readonly options: ResolvedAgentOptions;
  readonly conversation: Conversation;
  readonly recorder: { call(record: CallRecord): void };
  aborted(): boolean;
  failedRecord(error: unknown, latencyMs: number): CallRecord;
  refused(error: ModelCallError, refusal: WindowRefusal, view: PromptView, summary: boolean): Stop;
}

/**
 * The summary call the session found due (its brakes passed on its estimate), made through the model:
 * the prompt it replaces plus a request to summarise, capped at S tokens. Billed (not a step) as the
 * model reported its usage, by the one meter every call goes through — by the estimate, as replay bills
 * it, when the response reports no prompt size — and its text stands for the older steps from now on.
 * Not retried: a failed summary call is paid as any failed call (what its error reported, else
 * nothing) and ends the run as a model that gave up; one its provider refused for its length ends it
 * provider_refused, paid nothing. Under `--context-window model` the brake stops the run before a summary
 * call past the summary model's window (session.beforeSummary).
 */
export async function summarizeLive(run: SummaryRun, due: SummaryDue): Promise<Stop | null> {
  const { session, options } = run;
  const braked = session.beforeSummary(due);
  if (braked) return braked;
  const spec = options.context.strategy!.summary!;
  let turn: ModelTurn;
  try {
    turn = await options.model.call({
      messages: [...run.conversation.prompt(due.view), { role: 'user', content: summaryInstruction(spec.summaryTokens) }],
      tools: [],
      maxOutputTokens: spec.summaryTokens,
      purpose: 'summary',
      ...(spec.model === undefined ? {} : { model: spec.model }),
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    });
  } catch (error) {
    if (error instanceof ModelExhausted && !run.aborted()) return session.exhausted(error.reason, error.detail);
    if (error instanceof ModelCallError) checkFailure(error, options.model, 'summary');
    if (error instanceof ModelCallError && error.options.refusal && !run.aborted()) return run.refused(error, error.options.refusal, due.view, true);
    const failed = run.failedRecord(error, 0);
    billSummary(run, due, failed);
    return run.aborted() ? session.aborted() : session.modelGaveUp(`summary call failed: ${failed.failed!.message}; not retried`);
  }
  billSummary(run, due, { type: 'call', ...checkedUsage(turn, options.model, 'summary'), latencyMs: 0 });
  run.conversation.summarize(turn.text ?? '');
  return null;
}

/**
 * The summary call paid (session.recordSummary) and recorded as a compaction call with the usage billed,
 * so the recording replays (full history) to the run's figures, stating the cost billed (records.ts billed); its wall time is counted with the next call's.
 */
function billSummary(run: SummaryRun, due: SummaryDue, response: CallRecord): void {
  const { usage, costPico } = run.session.recordSummary(due, response);
  run.recorder.call(billed({ type: 'call', ...billedFields(usage), latencyMs: 0, compaction: true, ...(response.failed ? { failed: response.failed } : {}) }, costPico));
}
