/**
 * Which answered steps of a served synthetic run a request still holds, as the agent's view reads them
 * (kernel/context.ts PromptView, synthetic/visibility.ts):
 *   firstKeptStep      the earliest step from which every later one's message is in the request (a window,
 *                      a summary and a backtrack drop steps): found by its tool-call ids, else its text
 *   firstUnmaskedStep  the earliest kept step from which every later one's tool results are as the request
 *                      that first carried them sent them: a result sent otherwise since (masking's placeholder,
 *                      whatever its words) or left out no longer shows what the tool returned
 * Serve never sees a tool's output before the client sends it, so the first text a request carries for a
 * result is what the tool returned: every loop sends a step's results whole at least once (masking keeps
 * the last M ≥ 1 steps' results: kernel/maskBoundary.ts). Each is kept as a short key of its text (two
 * FNV-1a lanes and its length: resultKey), not the text: a session holds a key per tool call, whatever the
 * results' sizes. A step without tool calls has no results to mask: it never moves the boundary.
 */
import { fnv1a } from '../textHash.js';
import { messageText, type ChatMessage } from './request.js';

/** A step a session answered: its tool-call ids, its text (a step without tool calls), each result's key as first sent. */
export interface AnsweredStep {
  toolCallIds: string[];
  text: string;
  /** resultKey of each tool call's result (by position in toolCallIds) in the first request that carried it. */
  firstResults: (string | undefined)[];
}

export function answeredStep(toolCallIds: string[], text: string): AnsweredStep {
  return { toolCallIds, text, firstResults: toolCallIds.map(() => undefined) };
}

/** firstKeptStep of `messages` over the session's `steps` (see the module comment). */
export function firstKeptStep(steps: readonly AnsweredStep[], messages: readonly ChatMessage[]): number {
  const ids = new Set<string>();
  const texts = new Set<string>();
  for (const m of messages) {
    if (m.role !== 'assistant') continue;
    for (const call of m.tool_calls ?? []) ids.add(call.id);
    texts.add(messageText(m));
  }
  let first = steps.length;
  while (first > 0) {
    const step = steps[first - 1]!;
    const present = step.toolCallIds.length > 0 ? step.toolCallIds.some((id) => ids.has(id)) : texts.has(step.text);
    if (!present) break;
    first -= 1;
  }
  return first;
}

/**
 * firstUnmaskedStep of `messages` over the session's `steps`, from `firstKept` on (see the module comment);
 * the key of each result a request carries for the first time is kept (AnsweredStep.firstResults).
 */
export function firstUnmaskedStep(steps: readonly AnsweredStep[], messages: readonly ChatMessage[], firstKept: number): number {
  const sent = new Map<string, string>();
  for (const m of messages) if (m.role === 'tool' && m.tool_call_id !== undefined) sent.set(m.tool_call_id, resultKey(messageText(m)));
  let first = steps.length;
  while (first > firstKept && holdsFirstResults(steps[first - 1]!, sent)) first -= 1;
  return first;
}

/** Whether the request holds each of the step's results as first sent (a first one is kept so). */
function holdsFirstResults(step: AnsweredStep, sent: ReadonlyMap<string, string>): boolean {
  for (let i = 0; i < step.toolCallIds.length; i++) {
    const key = sent.get(step.toolCallIds[i]!);
    if (key === undefined) return false;
    const first = (step.firstResults[i] ??= key);
    if (first !== key) return false;
  }
  return true;
}

/** A short key of a result's text: two FNV-1a lanes of different offset bases, and its length. */
function resultKey(text: string): string {
  return `${fnv1a(text)}:${fnv1a(text, 0x5bd1e995)}:${text.length}`;
}
