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
import type { CarriedReasoning, NormMessage } from './parsedBodies.js';

/**
 * Whether a copy carrying the reasoning in this way counts as sending it back. Each does: a request that carries
 * the reasoning in any form shows no dropping, and whether the provider then counts it is not in the recording
 * (pydantic-ai's cassettes: Gemini 3 on the Gemini API counts the reasoning a thoughtSignature stands for, Gemini
 * 2.5 does not; Groq counts none of gpt-oss's `<think>` text — test/import/reasoningReturn.test.ts).
 */
const CAME_BACK: Record<CarriedReasoning, boolean> = { field: true, opaque: true, tagged: true };

/** What the recorded requests of a run show of its calls' reasoning: how many copies left it out, and how many carried it. */
export interface ReasoningReturn {
  /** Calls with reasoning whose copy in a later request carries none of it (their labels). */
  leftOut: string[];
  /** Calls with reasoning whose copy carries it back. */
  carried: number;
  /** How each copy that carries it does (a continuation server-side: `opaque`). */
  ways: CarriedReasoning[];
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
  const seen: ReasoningReturn = { leftOut: [], carried: 0, ways: [] };
  run.forEach((cur, k) => {
    const next = run[k + 1];
    if (next === undefined || cur.res === undefined || !hadReasoning(cur)) return;
    // A request that continues the response server-side keeps its reasoning there: nothing to see.
    if (next.req.previousResponseId !== undefined) {
      seen.carried += 1;
      seen.ways.push('opaque');
      return;
    }
    const copy = copiedTurn(next.req.messages.slice(cur.req.messages.length));
    if (copy.length === 0) return;
    const way = copy.map((m) => m.reasoning).find((w): w is CarriedReasoning => w !== undefined && CAME_BACK[w]);
    if (way === undefined) seen.leftOut.push(cur.ex.label);
    else {
      seen.carried += 1;
      seen.ways.push(way);
    }
  });
  return seen;
}

/** The response had reasoning: reasoning tokens, or reasoning text, blocks or items. */
function hadReasoning(p: ParsedExchange): boolean {
  return (p.res!.usage.reasoningTokens ?? 0) > 0 || p.res!.reasoningText === true;
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
