/**
 * Whether a run's reasoning re-entered its later prompts, as the recorded requests show it (the trace header's
 * `reasoningInPrompt`: kernel/stepTokens.ts). A call whose response had reasoning (reasoning tokens, or reasoning
 * text, blocks or items) and a later request of the run that copies that call's assistant turn: the copy carries
 * the reasoning back (in the provider's place for it, or only as a signature or encrypted form of it, which the
 * provider may count) or not. A run where some call's reasoning was seen to be left out and none was seen to
 * come back did not send its reasoning back: `reasoningInPrompt: false`. Else it stays unset (the reasoning
 * re-enters): a run that continues server-side (`previous_response_id`), whose copies carry it, or where no
 * copy of a reasoning call was recorded.
 */
import type { ParsedExchange } from './parseExchange.js';
import type { NormMessage, ParsedResponse } from './parsedBodies.js';
import { addedHistory } from './splitRuns.js';

/**
 * What the recorded requests of a run show of its calls' reasoning: which copies left it out, and how many carried
 * it. A copy carrying it in any form (parsedBodies.ts CarriedReasoning: its field, a signature or encrypted form, or
 * `<think>` text) counts as sending it back: whether the provider then counts it is not in the recording
 * (pydantic-ai's cassettes: Gemini 3 on the Gemini API counts the reasoning a thoughtSignature stands for, Gemini
 * 2.5 does not; Groq counts none of gpt-oss's `<think>` text — test/import/reasoningReturn.test.ts).
 */
export interface ReasoningReturn {
  /** Calls with reasoning whose copy in a later request carries none of it (their labels). */
  leftOut: string[];
  /** Calls with reasoning whose copy carries it back (or that a request continues server-side). */
  carried: number;
}

/** The run's header field: `reasoningInPrompt: false` where its reasoning was left out, else nothing (and the note saying why). */
export function reasoningInPromptOf(run: ParsedExchange[]): { field: { reasoningInPrompt?: false }; note?: string } {
  const seen = reasoningReturnOf(run);
  if (seen.leftOut.length === 0 || seen.carried > 0) return { field: {} };
  const calls = seen.leftOut.length === 1 ? `the reasoning of ${seen.leftOut[0]}` : `the reasoning of ${seen.leftOut.length} calls (${seen.leftOut.join(', ')})`;
  return { field: { reasoningInPrompt: false }, note: `reasoningInPrompt false: ${calls} is left out of the next request's copy of its turn (each step holds its output less its reasoning)` };
}

/** For each call of the run with reasoning, whether the next request's copy of its assistant turn carries it. */
export function reasoningReturnOf(run: ParsedExchange[]): ReasoningReturn {
  const seen: ReasoningReturn = { leftOut: [], carried: 0 };
  run.forEach((cur, k) => {
    const next = run[k + 1];
    if (next === undefined || cur.res === undefined || !hadReasoning(cur.res)) return;
    // A request that continues the response server-side keeps its reasoning there: nothing to see.
    if (next.req.previousResponseId !== undefined) {
      seen.carried += 1;
      return;
    }
    const added = addedHistory(cur, next);
    if (added === undefined) return;
    const res = cur.res;
    const copy = copiedTurn(added.map((m) => standingFor(m, res)));
    if (copy.length === 0) return;
    if (copy.some((m) => m.reasoning !== undefined)) seen.carried += 1;
    else seen.leftOut.push(cur.ex.label);
  });
  return seen;
}

/** The response had reasoning: reasoning tokens, or reasoning text, blocks or items. */
function hadReasoning(res: ParsedResponse): boolean {
  return (res.usage.reasoningTokens ?? 0) > 0 || res.reasoningText === true;
}

/**
 * A history item as the copy of the call's turn reads it: an `item_reference` (Responses API) stands for the
 * output item of `res` it names, one of its reasoning items (the reasoning carried back) or a message or tool call
 * of its turn; any other reference, or item, as it is.
 */
function standingFor(m: NormMessage, res: ParsedResponse): NormMessage {
  const ids = res.outputItemIds;
  if (m.role !== 'item_reference' || ids === undefined) return m;
  const named = (of: string[]) => (m.itemIds ?? []).some((id) => of.includes(id));
  if (named(ids.reasoning)) return { ...m, reasoning: 'field' };
  return named(ids.turn) ? { ...m, role: 'assistant' } : m;
}

/**
 * The copy of a call's assistant turn at the head of what a request adds to the history (`added`): its items up
 * to the first user turn or tool result (a Responses request's reasoning and call items, or one message); none
 * when it does not open with an assistant turn (the history was rewritten: no copy to read).
 */
function copiedTurn(added: NormMessage[]): NormMessage[] {
  const end = added.findIndex((m) => m.role === 'user' || m.role === 'tool' || m.role === 'system' || m.toolResults.length > 0);
  const copy = end < 0 ? added : added.slice(0, end);
  return copy.some((m) => m.role === 'assistant') ? copy : [];
}
