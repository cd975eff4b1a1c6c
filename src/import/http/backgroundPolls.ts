/**
 * Background Responses calls (`background: true`): the POST answers at once with the response `queued`
 * (no usage yet) and the client then polls `GET /v1/responses/<id>` until it is `completed`. The call is
 * the POST; its usage is in the last poll. So a queued or in-progress response is replaced by the last
 * recorded poll of the same id that finished (completed, incomplete or failed; a polled stream counts
 * when it holds its terminal event), noted on the call; with no finished poll the call is kept as a
 * failed call whose usage is unknown.
 */
import { isJsonObject } from '../common/jsonValue.js';
import type { GenerationExchange } from './parseExchange.js';

export interface Poll {
  label: string;
  base: string;
  body: unknown;
}

const PENDING = new Set(['queued', 'in_progress']);

function finished(body: unknown): boolean {
  if (isJsonObject(body)) return typeof body.status === 'string' && !PENDING.has(body.status);
  return typeof body === 'string' && /^event: response\.(completed|incomplete|failed)$/m.test(body);
}

/** The exchanges with each pending background response replaced by its last finished poll. */
export function resolveBackgroundPolls(exchanges: GenerationExchange[], polls: Map<string, Poll[]>): GenerationExchange[] {
  return exchanges.map((ex) => {
    const body = ex.response;
    if (ex.shape !== 'openai-responses' || !isJsonObject(body) || typeof body.id !== 'string') return ex;
    if (typeof body.status !== 'string' || !PENDING.has(body.status)) return ex;
    const done = [...(polls.get(body.id) ?? [])].reverse().find((p) => finished(p.body));
    if (done === undefined) {
      return { ...ex, response: { error: { message: `background response ${body.id} was still ${body.status} when the recording ended: usage unknown` } } };
    }
    return { ...ex, response: done.body, responseBase: done.base, endpointNote: `background response ${body.id}: its final state read from the poll in ${done.label}` };
  });
}
