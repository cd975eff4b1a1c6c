/**
 * What a session's next prompt is estimated at before it is sent (LoopSession's: its nextPromptEstimate and
 * boundPico, the brakes before a call, a summary call's gate): what the context holds plus the overhead the
 * last call showed, what it was billed beyond the context (tool schemas, framing). Kept by the kernel's rules:
 * the conversation's framing (kernel/compaction.ts framingAfterCall), the overhead after a compaction
 * (kernel/callContext.ts enterCall) and, where prompts are billed as sent, after a summary call
 * (kernel/sentOverhead.ts). Only what a live loop knows: the prompts' billed sizes and the context's counts.
 */
import type { ContextTracker, PromptView } from '../kernel/context.js';
import { framingAfterCall } from '../kernel/compaction.js';
import { enterCall } from '../kernel/callContext.js';
import { promptEstimate } from '../kernel/cost.js';
import { SentOverhead } from '../kernel/sentOverhead.js';

export class PromptOverhead {
  /** Prompt tokens the last call was billed beyond what the context holds (tool schemas, framing): 0 before the first; the framing after a compaction. */
  tokens = 0;
  /** The conversation's framing (kernel/compaction.ts): what its first call was billed beyond the context; NaN before. */
  private framingTokens = NaN;
  /** Prompts billed as sent (`usageAsSent`): their overhead apportioned, for the estimate after a summary (kernel/sentOverhead.ts). */
  private readonly sentOverhead: SentOverhead | undefined;

  constructor(usageAsSent: boolean) {
    this.sentOverhead = usageAsSent ? new SentOverhead() : undefined;
  }

  /** A prompt the context counts at `inputTokens`, as a live loop estimates it: plus the overhead the last call showed. */
  estimate(inputTokens: number): number {
    return promptEstimate(inputTokens, this.tokens);
  }

  /** A call that did not fail was billed `billedTokens` for the prompt `view`: the overhead it showed (the conversation's framing, if it is the first). */
  shown(view: PromptView, billedTokens: number): void {
    this.tokens = billedTokens - view.inputTokens;
    this.framingTokens = framingAfterCall(this.framingTokens, this.tokens);
    this.sentOverhead?.shown(view, this.tokens);
  }

  /** The call (`flags`: kernel/callRecord.ts callFlags) entered the context with `outputTokens` (kernel/callContext.ts enterCall): after a compaction the overhead is the framing. */
  entered(context: ContextTracker, flags: number, outputTokens: number): void {
    this.tokens = enterCall(context, flags, outputTokens, this.tokens, this.framingTokens);
  }

  /**
   * A summary call replaced the older steps of `context` (`replacesSummary`: a previous summary's among them): where prompts are
   * billed as sent, the next estimate's overhead is what the prompt now holds showed (kernel/sentOverhead.ts: not the dropped steps'
   * corrections; the summary's message framing); elsewhere the overhead the last call showed goes on.
   */
  summarized(context: ContextTracker, replacesSummary: boolean): void {
    if (this.sentOverhead) this.tokens = this.sentOverhead.summary(context.view(), replacesSummary);
  }

  /** The run goes on with the conversation of `previous` (LoopSession.continueConversation): its first prompt's overhead `tokens`, the conversation's framing kept. */
  continued(previous: PromptOverhead, tokens: number): void {
    this.tokens = tokens;
    this.framingTokens = previous.framingTokens;
  }
}
