/**
 * The overhead the next prompt's estimate adds after a summary call, where each prompt is billed as it was
 * sent (a live loop; a recording replayed as its loop ran it: LoopOptions `usageAsSent`). Written once for
 * every engine that runs such a session: the real loop (src/agent) and the readable replay of its recording
 * (replay/recordedStrategy.ts, tree/treeReplay.ts) both drive src/loop/session.ts, which applies it; the
 * compiled replay never meters usage as sent (it hands those recordings to the readable loop), and its other
 * replays under a summary strategy bill a prompt at its view plus the recorded overhead of full history
 * (kernel/meter.ts), so there the overhead the last call showed is carried on, as before.
 *
 * What a prompt is billed beyond the view the context counts (its overhead, billed − view) is the framing
 * of its head (system prompt, goal, tool schemas, a summary's message) plus, for each step it holds, that
 * step's correction: what the step was billed in the prompt beyond what the context counts of it (its
 * messages' framing, a message re-sent shorter or longer than its model reported it). A summary drops the
 * older steps: their corrections leave the prompt with them. So the overhead is apportioned as the calls show
 * it: each call that did not fail brings at most one step the earlier calls did not hold (the step its
 * predecessor opened), whose correction is what the call showed beyond the head and the steps already
 * apportioned; a call that brings none shows the head anew. After a summary, the next prompt's overhead is
 * the head plus the corrections of the steps it keeps — the newest, billed in no prompt yet, counted at 0 as
 * any call counts the step it has not seen billed — and the head changes by the summary's message framing:
 * the first summary adds SUMMARY_FRAMING_TOKENS (unless every prompt so far was billed at exactly what the
 * context counts, as a loop bills responses that report no usage: such a provider is taken to bill the
 * summary's message so too); a later one replaces the previous summary's message, whose framing (with the
 * newest step's correction, which the first call after a summary cannot tell apart from it) the head holds
 * since that call showed it. Everything here is what a live loop knows: the prompts' billed sizes and the
 * context's counts.
 */

/**
 * The summary's message framing a loop estimates before it has sent one: `Summary of the earlier steps: `
 * (SUMMARY_PREFIX, the real loop's wrapper, agent/conversation.ts: 6 tokens with the OpenAI tokenizers) and
 * the chat format's 4 tokens of a message (3 + its role). Once a summary was sent, what it showed is used.
 */
export const SUMMARY_FRAMING_TOKENS = 10;

/** The wrapper the real loop sends a summary's text in (agent/conversation.ts), counted in SUMMARY_FRAMING_TOKENS. */
export const SUMMARY_PREFIX = 'Summary of the earlier steps: ';

export class SentOverhead {
  /** corrections[i] = the corrections of steps 0..i−1 (prefix sums), known for the first `known` steps. */
  private corrections = new Float64Array(65);
  private known = 0;
  /** The overhead of the prompt's head: what a prompt holding no step would show. */
  private head = 0;
  /** A summary was made since the last call that did not fail: that call shows its message's framing in the head. */
  private summarized = false;
  /** Some prompt was billed beyond what the context counts of it. */
  private framed = false;

  /**
   * A call that did not fail was billed `shownTokens` beyond its prompt, which held steps `firstKeptStep` to
   * `historySteps` − 1 (PromptView's): the step it was the first to hold gets its correction, else the head is shown anew.
   */
  shown(view: { firstKeptStep: number; historySteps: number }, shownTokens: number): void {
    const steps = view.historySteps;
    if (this.known > steps) this.known = steps; // A backtrack dropped the steps past the prompt.
    this.reserve(steps);
    const c = this.corrections;
    const held = c[this.known]! - c[view.firstKeptStep < this.known ? view.firstKeptStep : this.known]!;
    if (steps > this.known && !this.summarized) {
      for (let i = this.known; i < steps - 1; i++) c[i + 1] = c[i]!;
      c[steps] = c[steps - 1]! + shownTokens - this.head - held;
    } else {
      for (let i = this.known; i < steps; i++) c[i + 1] = c[i]!;
      this.head = shownTokens - held;
    }
    this.known = steps;
    this.summarized = false;
    if (shownTokens !== 0) this.framed = true;
  }

  /**
   * A summary was made: the next prompt holds the head, the summary's message and steps `firstKeptStep` to `historySteps` − 1.
   * `replacesSummary`: the prompt held an earlier summary, whose framing the head holds. Returns the overhead the next prompt's estimate adds.
   */
  summary(view: { firstKeptStep: number; historySteps: number }, replacesSummary: boolean): number {
    if (!replacesSummary && this.framed) this.head += SUMMARY_FRAMING_TOKENS;
    this.summarized = true;
    const known = this.known < view.historySteps ? this.known : view.historySteps;
    const first = view.firstKeptStep < known ? view.firstKeptStep : known;
    return this.head + this.corrections[known]! - this.corrections[first]!;
  }

  private reserve(steps: number): void {
    if (steps + 1 <= this.corrections.length) return;
    const next = new Float64Array(Math.max(steps + 1, this.corrections.length * 2));
    next.set(this.corrections.subarray(0, this.known + 1));
    this.corrections = next;
  }
}
