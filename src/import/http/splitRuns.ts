/**
 * Splitting the parsed exchanges of a file into agent runs. A request continues the current run when all
 * hold:
 *   1. same provider and API shape, and the same requested model (a handoff to another model or provider
 *      starts a new run);
 *   2. it extends the conversation: its history starts with the previous request's history (strictly
 *      longer after a successful response; possibly equal after a failed one, i.e. a retry), or — Responses
 *      API — it chains on a response of the run (`previous_response_id`) or carries a compaction item the
 *      run produced.
 * A text answer with no tool call then ends a run (`splitAtAnswers`).
 */
import type { ParsedExchange } from './parseExchange.js';
import type { NormMessage } from './parsedBodies.js';

function isPrefix(prefix: string[], of: string[]): boolean {
  return prefix.length <= of.length && prefix.every((p, i) => of[i] === p);
}

interface Run {
  items: ParsedExchange[];
  responseIds: Set<string>;
  itemIds: Set<string>;
}

function continues(run: Run, cur: ParsedExchange): boolean {
  const prev = run.items[run.items.length - 1];
  if (prev === undefined) return false;
  if (prev.ex.shape !== cur.ex.shape) return false;
  if (!prev.ex.providerGuessed && !cur.ex.providerGuessed && prev.ex.provider !== cur.ex.provider) return false;
  if (prev.req.model !== undefined && cur.req.model !== undefined && prev.req.model !== cur.req.model) return false;
  if (cur.req.previousResponseId !== undefined) return run.responseIds.has(cur.req.previousResponseId);
  if (cur.req.messages.some((m) => (m.itemIds ?? []).some((id) => run.itemIds.has(id)))) return true;
  if (!isPrefix(prev.fingerprint, cur.fingerprint)) return false;
  return prev.failed !== undefined || cur.fingerprint.length > prev.fingerprint.length;
}

/**
 * What request `next` adds to the history of `cur`, the run's request before it: all of its items when it
 * continues a response server-side (`previous_response_id`), else the items past `cur`'s when its history
 * extends `cur`'s; undefined when it does not (a request joined to the run by an item id it carries, after a
 * compaction, or a rewritten history): then nothing in it is known to follow `cur`'s call.
 */
export function addedHistory(cur: ParsedExchange, next: ParsedExchange): NormMessage[] | undefined {
  if (next.req.previousResponseId !== undefined) return next.req.messages;
  if (!isPrefix(cur.fingerprint, next.fingerprint)) return undefined;
  return next.req.messages.slice(cur.req.messages.length);
}

export function splitRuns(parsed: ParsedExchange[]): ParsedExchange[][] {
  const runs: Run[] = [];
  for (const p of parsed) {
    let run = runs[runs.length - 1];
    if (run === undefined || !continues(run, p)) {
      run = { items: [], responseIds: new Set(), itemIds: new Set() };
      runs.push(run);
    }
    run.items.push(p);
    if (p.res?.id !== undefined) run.responseIds.add(p.res.id);
    for (const id of p.res?.producedItemIds ?? []) run.itemIds.add(id);
  }
  return runs.map((r) => r.items);
}

/**
 * A text answer with no tool call ends an agent run; when the conversation goes on after it (the user's
 * next turn), what follows is a new run. Compaction calls are not answers.
 */
export function splitAtAnswers(run: ParsedExchange[]): ParsedExchange[][] {
  const out: ParsedExchange[][] = [];
  let current: ParsedExchange[] = [];
  run.forEach((p, k) => {
    current.push(p);
    const answered = !p.failed && p.res !== undefined && p.res.toolCalls.length === 0 && p.res.hasText && !p.ex.compact;
    if (answered && k < run.length - 1) {
      out.push(current);
      current = [];
    }
  });
  if (current.length > 0) out.push(current);
  return out;
}
