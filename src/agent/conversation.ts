/**
 * The conversation a real loop keeps, step for step beside the session's context tracker: each step is
 * the model's message and its tool results. The prompt sent is the system prompt, the goal and the steps
 * the strategy keeps (the tracker's firstKeptStep), so the loop sends what the view sizes.
 */
import type { PromptView } from '../kernel/context.js';
import type { AgentMessage, ModelToolCall } from './types.js';

export class Conversation {
  private readonly steps: AgentMessage[][] = [];
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

  /** The prompt for the view: system, goal, the kept steps. */
  prompt(view: PromptView): AgentMessage[] {
    const kept = this.steps.slice(view.firstKeptStep).flat();
    return [{ role: 'system', content: this.system }, { role: 'user', content: this.goal }, ...kept];
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

/**
 * A tool result cut to about `capTokens` tokens (the strategy's tool-result cap; the tracker counts it
 * as exactly the cap): the leading share of its characters, marked as cut.
 */
export function capToolOutput(output: string, tokens: number, capTokens: number): string {
  if (!(tokens > capTokens)) return output;
  const keep = Math.floor((output.length * capTokens) / tokens);
  return `${output.slice(0, keep)}\n[… cut to ${capTokens} of ${tokens} tokens]`;
}
