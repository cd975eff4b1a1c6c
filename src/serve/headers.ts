/** The headers by which a request names its session, trace or run (registry.ts), and how one is read. */

/** A request's headers as node:http gives them (IncomingHttpHeaders), named structurally so the public types need no @types/node. */
export type RequestHeaders = Readonly<Record<string, string | string[] | undefined>>;

export const SESSION_HEADER = 'x-loopcost-session';
export const TRACE_HEADER = 'x-loopcost-trace';
export const RUN_HEADER = 'x-loopcost-run';
/** The longest session id a header may give. */
export const MAX_SESSION_ID = 200;

/** The header `name`'s value as text (textOf), trimmed (the first if given twice); undefined when absent or blank. */
export function header(headers: RequestHeaders, name: string): string | undefined {
  const value = headers[name];
  const text = (Array.isArray(value) ? value[0] : value)?.trim();
  return text === undefined || text === '' ? undefined : textOf(text);
}

/**
 * `id` as a response header gives it back: unchanged when ASCII, else URL-encoded as encodeURIComponent
 * writes it (`%C3%A9` for é), the form `POST /loopcost/sessions/<id>/end` takes. HTTP field values are
 * ASCII (other bytes are obsolete, and read differently by each client); GET /loopcost/sessions lists the id as text.
 */
export function headerValueOf(id: string): string {
  return /^[\t\x20-\x7e]*$/.test(id) ? id : encodeURIComponent(id);
}

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/**
 * A header value as its client wrote it. node:http gives each byte as one character (latin1); a client
 * writing non-ASCII text sends it as UTF-8 (curl, as a terminal types it), so bytes that are valid UTF-8 are read
 * as UTF-8 (`éé`, not `Ã©Ã©`): the id `GET /loopcost/sessions` lists and the end route takes URL-encoded.
 * Bytes that are not (fetch, node:http and Python's http.client send `é` as the one byte 0xE9) are kept as
 * latin1, what they meant: either way the session is `é`.
 */
export function textOf(raw: string): string {
  // eslint-disable-next-line no-control-regex
  if (/^[\x00-\x7f]*$/.test(raw)) return raw;
  try {
    return UTF8.decode(Buffer.from(raw, 'latin1'));
  } catch {
    return raw;
  }
}
