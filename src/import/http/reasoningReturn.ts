/**
 * Whether a run's reasoning re-entered its later prompts, as the recorded requests show it (the trace header's
 * `reasoningInPrompt`: kernel/stepTokens.ts). A call whose response had reasoning (reasoning tokens, or reasoning
 * text, blocks or items) and a later request of the run that copies that call's assistant turn: the copy carries
 * the reasoning back (in the provider's place for it, or only as a signature or encrypted form of it, which the
 * provider may count; Gemini 2.x counts none of a thoughtSignature's: carriesReasoning) or not. A run where some
 * call's reasoning was seen to be left out and none was seen to come back did not send its reasoning back:
 * `reasoningInPrompt: false`. Else it stays unset (the reasoning
 * re-enters): a run that continues server-side (`previous_response_id`), whose copies carry it, or where no
 * copy of a reasoning call was recorded.
 */
import type { ParsedExchange } from './parseExchange.js';
import type { NormMessage, ParsedResponse } from './parsedBodies.js';
import { bareModelName } from '../../pricing/bareModelName.js';
import { addedHistory } from './splitRuns.js';

/**
 * What the recorded requests of a run show of its calls' reasoning: which copies left it out, and how many carried
 * it. A copy carrying it in any form (parsedBodies.ts CarriedReasoning: its field, a signature or encrypted form, or
 * `<think>` text) counts as sending it back, save a signature alone to the Gemini 2.x family (carriesReasoning,
 * below); whether the provider then counts the rest is not in the recording (Groq counts none of gpt-oss's
 * `<think>` text — test/import/reasoningReturn.test.ts).
 */
export interface ReasoningReturn {
  /** Calls with reasoning whose copy in a later request carries none of it (their labels). */
  leftOut: string[];
  /** Calls with reasoning whose copy carries it back (or that a request continues server-side). */
  carried: number;
  /** Of `leftOut`, the copies that carried only a signature the model does not count (Gemini 2.x), and the model. */
  signedOnly: { labels: string[]; model?: string };
}

/** The run's header field: `reasoningInPrompt: false` where its reasoning was left out, else nothing (and the note saying why). */
export function reasoningInPromptOf(run: ParsedExchange[]): { field: { reasoningInPrompt?: false }; note?: string } {
  const seen = reasoningReturnOf(run);
  if (seen.leftOut.length === 0 || seen.carried > 0) return { field: {} };
  const { labels, model } = seen.signedOnly;
  const uncounted = `only a signature of it, of which ${model} counts none`;
  const why =
    labels.length === seen.leftOut.length
      ? `is sent back in the next request's copy of its turn as ${uncounted}`
      : `is left out of the next request's copy of its turn${labels.length > 0 ? `, or (${labels.join(', ')}) sent back as ${uncounted}` : ''}`;
  return { field: { reasoningInPrompt: false }, note: `reasoningInPrompt false: the reasoning of ${labelled(seen.leftOut)} ${why} (each step holds its output less its reasoning)` };
}

/** `interaction 0`, or `2 calls (interaction 0, interaction 2)`. */
function labelled(labels: string[]): string {
  return labels.length === 1 ? labels[0]! : `${labels.length} calls (${labels.join(', ')})`;
}

/** For each call of the run with reasoning, whether the next request's copy of its assistant turn carries it. */
export function reasoningReturnOf(run: ParsedExchange[]): ReasoningReturn {
  const seen: ReasoningReturn = { leftOut: [], carried: 0, signedOnly: { labels: [] } };
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
    // The model that reads the copy: the next call's (as served, else as asked for), else this one's.
    const model = next.res?.model ?? next.req.model ?? cur.req.model ?? res.model;
    if (copy.some((m) => carriesReasoning(m, model))) {
      seen.carried += 1;
      return;
    }
    seen.leftOut.push(cur.ex.label);
    if (model !== undefined && copy.some((m) => m.reasoning === 'opaque')) seen.signedOnly = { labels: [...seen.signedOnly.labels, cur.ex.label], model };
  });
  return seen;
}

/**
 * Gemini 2.0 and 2.5 (any variant), by the model's bare name (bareModelName: lower case, without a route such as
 * `models/`, `google/` or Vertex's `projects/…/publishers/google/models/`).
 */
const SIGNATURE_UNCOUNTED = /^gemini-2([.-]|$)/;

/**
 * The copy's turn carries the call's reasoning back: in any form (field, signature or encrypted form, `<think>`
 * text), except a signature alone (`opaque`) sent to a model of the Gemini 2.x family (SIGNATURE_UNCOUNTED), which
 * counts none of what it stands for: there it carries none. Thought text (`thought: true` parts) carries it for every
 * model. Measured on pydantic-ai's cassettes, how Δ input (recorded prompt − the growth model's) moves from a
 * reasoning call to the next: Gemini 2.5 with only a thoughtSignature sent back (11 runs, 13 pairs) moves −22 to
 * −405 with the header unset (the growth model runs ahead by the reasoning), +8 to +13 with `false` (the framing);
 * Gemini 3 on the Gemini API (11 runs, 20 pairs) moves +4 to +26 unset, +39 to +216 with `false`: it counts it.
 */
function carriesReasoning(m: NormMessage, model: string | undefined): boolean {
  if (m.reasoning === undefined) return false;
  return m.reasoning !== 'opaque' || model === undefined || !SIGNATURE_UNCOUNTED.test(bareModelName(model));
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
