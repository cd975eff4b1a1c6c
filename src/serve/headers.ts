/** The headers by which a request names its session, trace or run (registry.ts), and how one is read. */
import { invalidRequest } from './apiError.js';

/** A request's headers as node:http gives them (IncomingHttpHeaders), named structurally so the public types need no @types/node. */
export type RequestHeaders = Readonly<Record<string, string | string[] | undefined>>;

export const SESSION_HEADER = 'x-loopcost-session';
export const TRACE_HEADER = 'x-loopcost-trace';
export const RUN_HEADER = 'x-loopcost-run';
/**
 * A trace header sent to a server of a scenario, or a run header to one of traces: each chooses what a
 * new session answers from only on its kind of server, so it would be ignored. A 400 naming the header.
 */
export function refuseOtherSourceHeader(headers: RequestHeaders, servesScenario: boolean): void {
  const [name, other, serves] = servesScenario ? [TRACE_HEADER, RUN_HEADER, 'a scenario file'] : [RUN_HEADER, TRACE_HEADER, 'recorded traces'];
  const value = header(headers, name);
  if (value === undefined) return;
  throw invalidRequest(`${name}: '${value}' has no effect: this server answers from ${serves}, and ${name} chooses ${servesScenario ? 'a trace of a server of traces' : "a scenario's run on a server of a scenario"} (here ${other} does that)`, name, 'header_without_effect');
}

/** The longest session id, once URL-decoded, the header or the end route may give. */
export const MAX_SESSION_ID = 200;

/** The header `name`'s value as text (textOf), trimmed (the first if given twice); undefined when absent or blank. */
export function header(headers: RequestHeaders, name: string): string | undefined {
  const value = headers[name];
  const text = (Array.isArray(value) ? value[0] : value)?.trim();
  return text === undefined || text === '' ? undefined : textOf(text);
}

/**
 * The session a request names: its `x-loopcost-session` header's text (header) URL-decoded exactly once, as
 * the end route's path is (server.ts), so the header, the response's echo and the end route read an id one
 * way: `caf%C3%A9` and `café` name the session `café`, a literal `%` is written `%25`, and what a response
 * echoes (headerValueOf) names the same session sent back in the header or in `POST /loopcost/sessions/<id>/end`.
 * Undefined when absent or blank; a `%` that starts no escape, or escapes that are not UTF-8, are a 400 (which
 * id was meant cannot be told), as an id too long or holding a control character is (decodedSessionId).
 */
export function sessionIdOf(headers: RequestHeaders): string | undefined {
  const text = header(headers, SESSION_HEADER);
  return text === undefined ? undefined : decodedSessionId(text, SESSION_HEADER);
}

/**
 * `text` URL-decoded once, the session id it writes (the header's, the end route's), by one rule for both: a
 * 400 `invalid_session_id` naming `param` when it does not decode, is longer than MAX_SESSION_ID characters
 * once decoded, or holds a control character (`%0A`: an id is listed, logged and sent back as text).
 */
export function decodedSessionId(text: string, param: string): string {
  const id = decodedOnce(text, param);
  if (id.length > MAX_SESSION_ID) throw invalidRequest(`${param} is longer than ${MAX_SESSION_ID} characters (once URL-decoded)`, param, 'invalid_session_id');
  const control = CONTROL.exec(id);
  if (control !== null) throw invalidRequest(controlMessage(param, control[0], control.index), param, 'invalid_session_id');
  return id;
}

function decodedOnce(text: string, param: string): string {
  if (!text.includes('%')) return text;
  try {
    return decodeURIComponent(text);
  } catch {
    throw invalidRequest(`${param}: '${text}' is not a URL-encoded session id (a session id is read URL-decoded once: write a % of it as %25, a character that is not ASCII as its UTF-8 bytes, %C3%A9 for é)`, param, 'invalid_session_id');
  }
}

/** A control character (Unicode Cc: U+0000–U+001F, U+007F–U+009F), tab included. */
const CONTROL = /\p{Cc}/u;

/** Which control character, where, and how it was written (`U+000A, written %0A, at character 4`). */
function controlMessage(param: string, char: string, index: number): string {
  const code = `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
  return `${param} holds a control character, ${code} (written ${encodeURIComponent(char)}), at character ${index + 1} once URL-decoded: a session id is text, listed and echoed as written; leave the character out`;
}

/**
 * `id` as a response header gives it back, decoding once to `id` (sessionIdOf): unchanged when every
 * character is one a URL path segment holds as itself (letters, digits, `-._~!$&'()*+,;=:@`), else
 * URL-encoded as encodeURIComponent writes it (`%C3%A9` for é, `%25` for %, `%2F` for /, `%20` for a space),
 * the form `POST /loopcost/sessions/<id>/end` takes. So the echo names the session sent back either way: a
 * `/`, `?` or `#` written as itself would end the path's id, and a space at either end would be trimmed from
 * the header. HTTP field values are ASCII (other bytes are obsolete, and read differently by each client);
 * GET /loopcost/sessions lists the id as text.
 */
export function headerValueOf(id: string): string {
  return /^[A-Za-z0-9\-._~!$&'()*+,;=:@]*$/.test(id) ? id : encodeURIComponent(id);
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
