/**
 * The conversation a real loop keeps, step for step beside the session's context tracker: each step is
 * the model's message and its tool results. The prompt sent is the system prompt, the goal, the last
 * summary (context `summary`/`hybrid`) and the steps the strategy keeps (the tracker's firstKeptStep),
 * tool results before the view's firstUnmaskedStep masked (`mask`/`hybrid`), so the loop sends what the
 * view sizes.
 */
import type { PromptView } from '../kernel/context.js';
import { SUMMARY_PREFIX } from '../kernel/sentOverhead.js';
import type { AgentMessage, ModelToolCall } from './types.js';

/** What a masked tool result reads (SWE-agent's form). */
export const MASKED_OUTPUT = 'Old tool output omitted.';

export class Conversation {
  private readonly steps: AgentMessage[][] = [];
  private summary: AgentMessage | null = null;
  /** Every message in order, dropped steps included (what the run said). */
  readonly transcript: AgentMessage[];

  constructor(
    private readonly system: string,
    private readonly goal: string,
  ) {
    this.transcript = [
      { role: 'system', content: system },
      { role: 'user', content: goal },
    ];
  }

  /** The prompt for the view: system, goal, the summary, the kept steps (older tool results masked). */
  prompt(view: PromptView): AgentMessage[] {
    const unmasked = view.firstUnmaskedStep ?? 0;
    const kept = this.steps.slice(view.firstKeptStep).flatMap((step, i) => (view.firstKeptStep + i < unmasked ? step.map(masked) : step));
    const head: AgentMessage[] = [{ role: 'system', content: this.system }, { role: 'user', content: this.goal }];
    if (this.summary) head.push(this.summary);
    return [...head, ...kept];
  }

  /** A summary call answered: its text stands for the steps before the tracker's new firstKeptStep. */
  summarize(text: string): void {
    this.summary = { role: 'user', content: `${SUMMARY_PREFIX}${text}` };
    this.transcript.push(this.summary);
  }

  /** The model's message opens a step (the tracker added one). */
  openStep(text: string | null, toolCalls: ModelToolCall[]): void {
    const message: AgentMessage = toolCalls.length > 0 ? { role: 'assistant', content: text, toolCalls } : { role: 'assistant', content: text };
    this.steps.push([message]);
    this.transcript.push(message);
  }

  /** A backtrack: the previous step leaves the prompt (the tracker dropped it). */
  dropLastStep(): void {
    this.steps.pop();
  }

  /** A response that adds no step (a compaction, a failed call) still belongs to the transcript. */
  note(text: string | null): void {
    if (text !== null && text !== '') this.transcript.push({ role: 'assistant', content: text });
  }

  addToolResult(toolCallId: string, content: string): void {
    const message: AgentMessage = { role: 'tool', toolCallId, content };
    this.steps[this.steps.length - 1]!.push(message);
    this.transcript.push(message);
  }
}

function masked(message: AgentMessage): AgentMessage {
  return message.role === 'tool' ? { ...message, content: MASKED_OUTPUT } : message;
}

/**
 * A tool result cut to about `capTokens` tokens (the strategy's tool-result cap; the tracker counts it
 * as exactly the cap): the leading share of its characters, marked as cut.
 */
export function capToolOutput(output: string, tokens: number, capTokens: number): string {
  if (!(tokens > capTokens)) return output;
  const keep = Math.floor((output.length * capTokens) / tokens);
  return `${output.slice(0, keep)}\n[… cut to ${capTokens} of ${tokens} tokens]`;
}

/** The summary call's request, after the prompt it replaces. */
export const summaryInstruction = (tokens: number) =>
  `Summarise the conversation so far for your own later use, in at most ${tokens} tokens: what was tried, what was learnt, what is left to do.`;

/** What the model reads in place of a repeated action the duplicate-action guard skipped. */
export const SKIP_WARNING = 'This exact action was already run, so it was skipped. Try something different.';
