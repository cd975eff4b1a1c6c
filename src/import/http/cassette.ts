/**
 * VCR cassettes (vcrpy / pytest-recording YAML):
 *   interactions[].request.{method, uri, headers, body | parsed_body}
 *   interactions[].response.{status: {code, message}, headers, body: {string} | parsed_body}
 * and Ruby VCR's layout, read the same way (one model; only the list key and the date differ):
 *   http_interactions[].request.{method, uri, headers, body: {encoding, string}}
 *   http_interactions[].response.{status: {code, message}, headers, body: {encoding, string}}
 *   http_interactions[].recorded_at (an HTTP date), bodies often `!binary` base64 (cassetteYaml.ts)
 * Bodies are decoded by cassetteBody.ts (JSON, streamed SSE text or event-stream bytes, base64, gzip …);
 * the YAML is read with the readers' alias and depth limits (cassetteYaml.ts).
 *
 * The API of each interaction comes from its path and body (detect.ts); exchanges that are not model
 * calls (file downloads, search APIs, MCP traffic, embeddings, …) are skipped and listed in the notes of
 * the run they fall in. A cassette with no model call at all is refused (one of no interactions is told
 * so); one written as JSON reads as its YAML would. An issue names its field's own line where the YAML
 * holds the field (atFieldLines). A cassette may hold several
 * runs; build.ts splits them and sources get `#n`. An interaction's `recorded_at`, else its response
 * `date` header, else the response body's own time (responseTime.ts), dates the run (recordedAt).
 */
import { UserError, type InputIssue } from '../../errors.js';
import type { Trace } from '../../trace/types.js';
import { inputError } from '../common/issues.js';
import { describeValue, isJsonObject } from '../common/jsonValue.js';
import { resolveBackgroundPolls, type Poll } from './backgroundPolls.js';
import { buildTraces, type PositionedNote } from './build.js';
import { bodyOf, headerValue, type Body, type Located } from './cassetteBody.js';
import { readCassetteYaml, type CassetteYaml } from './cassetteYaml.js';
import { classifyEndpoint, endpointFields, type Endpoint } from './detect.js';
import type { GenerationExchange } from './parseExchange.js';
import { isHttpStatus } from './status.js';
import { isoInstant, LogClock } from '../common/timestamp.js';

export { looksLikeCassette } from '../formats.js';

function issue(loc: Located, field: string, code: string, message: string, hint?: string): UserError {
  return inputError({ ...loc, field }, code, message, hint);
}

function isoOf(ms: number | undefined): string | undefined {
  return ms === undefined ? undefined : isoInstant(ms);
}

/** ISO 8601 time of an HTTP `date` header (RFC 9110; no zone: UTC), seconds precision; undefined when absent or unreadable. */
export function recordedAtOf(headers: unknown, clock = new LogClock()): string | undefined {
  const date = headerValue(headers, 'date');
  return date === undefined ? undefined : isoOf(clock.read(date));
}

/** When an interaction was recorded: Ruby VCR's `recorded_at` (an HTTP date; a YAML timestamp read as a Date), else the response `date` header. */
function interactionTime(raw: Record<string, unknown>, headers: unknown, clock: LogClock): string | undefined {
  const at = raw.recorded_at;
  let own: string | undefined;
  if (typeof at === 'string') own = isoOf(clock.read(at));
  else if (at instanceof Date && !Number.isNaN(at.getTime())) own = isoOf(at.getTime());
  return own ?? recordedAtOf(headers, clock);
}

/** The refusal of an interaction recorded by another kind of recorder (websocket frames, gRPC samples). */
function notHttp(raw: Record<string, unknown>, loc: Located, at: string): UserError | undefined {
  const what =
    'kind' in raw && 'direction' in raw
      ? 'a websocket message (a realtime session recording)'
      : 'request_sample' in raw || 'request_stream' in raw
        ? 'a gRPC message sample (an xAI SDK recording)'
        : undefined;
  if (what === undefined) return undefined;
  return issue(loc, at, 'not_http_cassette', `${at} is ${what}, not an HTTP request`, 'loopcost reads cassettes of HTTP exchanges (vcrpy / pytest-recording / Ruby VCR request/response pairs)');
}

// A bare number that is not a status falls through to the wrong_type issue below.
function statusOf(response: Record<string, unknown>, at: string, loc: Located, lineOf: (keys: string[]) => number | undefined): { status?: number; statusMessage?: string } {
  const statusObj = response.status;
  if (isJsonObject(statusObj)) {
    if (!isHttpStatus(statusObj.code)) {
      throw issue({ ...loc, line: lineOf(['response', 'status', 'code']) }, `${at}.response.status.code`, 'wrong_type', `expected an HTTP status code (100–599), got ${describeValue(statusObj.code)}`);
    }
    return { status: statusObj.code, ...(typeof statusObj.message === 'string' ? { statusMessage: statusObj.message } : {}) };
  }
  if (isHttpStatus(statusObj)) return { status: statusObj };
  if (statusObj !== undefined) throw issue(loc, `${at}.response.status`, 'wrong_type', `expected {code, message}, got ${describeValue(statusObj)}`);
  throw issue({ ...loc, line: lineOf(['response']) }, `${at}.response.status`, 'truncated', 'the response has no status: the cassette looks cut short (vcrpy and Ruby VCR write a status for every response, after its body)', CUT_SHORT_HINT);
}

const CUT_SHORT_HINT = 'use the whole cassette as the recorder wrote it (copy it again, or record it again): a cut-off cassette would bill its last call wrongly';

/**
 * A cassette cut off mid-line (`head -c`): it ends without a line break and without the trailer its
 * recorder writes last (vcrpy's `version: 1`, Ruby VCR's `recorded_with:`). Recorders end the file with a
 * line break; a cut JSON cassette is not valid YAML and is refused as such.
 */
function refuseCutShort(content: string, yaml: CassetteYaml, path: string): void {
  const { data, listKey } = yaml;
  if (content.length === 0 || content.endsWith('\n') || /^\s*[{[]/.test(content)) return;
  if (isJsonObject(data) && ('version' in data || 'recorded_with' in data)) return;
  let line = 1;
  for (let i = content.indexOf('\n'); i !== -1; i = content.indexOf('\n', i + 1)) line++;
  throw new UserError({
    file: path,
    line,
    field: listKey === 'interactions' ? 'version' : 'recorded_with',
    code: 'truncated',
    message: `the file stops mid-line, without the trailer a recorder writes last (vcrpy's \`version: 1\`, Ruby VCR's \`recorded_with:\`): the cassette looks cut short`,
    hint: CUT_SHORT_HINT,
  });
}

/**
 * A cassette cut between two whole interactions (`head -n`) parses, ends with a line break, and every
 * interaction in it is whole: what can tell is the trailer its recorder writes after the last interaction
 * (vcrpy's `version: 1`, Ruby VCR's `recorded_with:`, as refuseCutShort reads it). Without one the cassette
 * was cut short, or written by hand or by another tool: said as a note on every run (not refused), naming
 * the last interaction it holds. (A run cut after a call that asked for a tool says so too: build.ts.)
 */
function missingTrailerNote(yaml: CassetteYaml, interactions: number): string[] {
  const { data } = yaml;
  if (isJsonObject(data) && ('version' in data || 'recorded_with' in data)) return [];
  return [
    `the cassette ends without the trailer a recorder writes after the last interaction (vcrpy's \`version: 1\`, Ruby VCR's \`recorded_with:\`): if it was cut short between two interactions (head -n), the exchanges after interaction ${interactions - 1} are missing`,
  ];
}

interface Collected {
  exchanges: GenerationExchange[];
  skipped: PositionedNote[];
  polls: Map<string, Poll[]>;
  clock: LogClock;
}

/** The request body as JSON, or why it is not (a file upload or form body: fine if the exchange is skipped). */
function peekRequestBody(request: Record<string, unknown>, at: string, loc: Located): { body?: Body; error?: unknown } {
  try {
    return { body: bodyOf(request, `${at}.request`, loc, { json: true }) };
  } catch (error) {
    return { error };
  }
}

/** A skipped interaction named in the notes; a background poll's response kept for the call it polls. */
function noteSkipped(ep: Extract<Endpoint, { kind: 'skip' | 'poll' }>, where: { i: number; at: string; loc: Located; response: Record<string, unknown>; out: Collected }): void {
  const { i, at, loc, response, out } = where;
  const note = ep.kind === 'poll' ? `${ep.reason} (read into the call it polls, not a call of its own)` : `skipped ${ep.reason}`;
  out.skipped.push({ after: out.exchanges.length - 1, note: `interaction ${i}: ${note}` });
  if (ep.kind === 'poll') {
    const body = bodyOf(response, `${at}.response`, loc, { json: true });
    out.polls.set(ep.responseId, [...(out.polls.get(ep.responseId) ?? []), { label: `interaction ${i}`, base: body.base, body: body.value }]);
  }
}

/** The response body as JSON; an error response's need not be JSON (an HTML 502 page): kept as text. */
function responseBodyOf(response: Record<string, unknown>, where: { status: number | undefined; at: string; loc: Located }): Body {
  const { status, at, loc } = where;
  try {
    return bodyOf(response, `${at}.response`, loc, { json: true });
  } catch (err) {
    if (status === undefined || status < 400 || !(err instanceof UserError)) throw err;
    return bodyOf(response, `${at}.response`, loc, { json: false });
  }
}

function readInteraction(raw: unknown, i: number, path: string, yaml: CassetteYaml, out: Collected): void {
  const at = `${yaml.listKey}[${i}]`;
  const line = yaml.lineOf(i);
  const loc: Located = { file: path, ...(line !== undefined ? { line } : {}) };
  const lineOf = (keys: string[]): number | undefined => yaml.lineIn(i, keys, line);
  if (!isJsonObject(raw)) throw issue(loc, at, 'wrong_type', `expected an interaction mapping, got ${describeValue(raw)}`);
  if (!isJsonObject(raw.request)) throw notHttp(raw, loc, at) ?? issue(loc, `${at}.request`, 'missing_field', 'missing request mapping');
  if (!isJsonObject(raw.response)) throw issue(loc, `${at}.response`, 'missing_field', 'missing response mapping');
  const { request, response } = raw;
  if (typeof request.uri !== 'string') {
    throw issue({ ...loc, line: lineOf(['request', 'uri']) }, `${at}.request.uri`, request.uri === undefined ? 'missing_field' : 'wrong_type', `expected the request URI string, got ${describeValue(request.uri)}`);
  }
  const method = request.method === undefined ? undefined : String(request.method);
  // Peek at the request body first: MCP JSON-RPC traffic is skipped whatever its path.
  const peeked = peekRequestBody(request, at, loc);
  const ep = classifyEndpoint(request.uri, method, peeked.body?.value);
  if (ep.kind === 'skip' || ep.kind === 'poll') {
    noteSkipped(ep, { i, at, loc, response, out });
    return;
  }
  if (ep.kind === 'unsupported') throw issue({ ...loc, line: lineOf(['request', 'uri']) }, `${at}.request.uri`, 'unsupported_endpoint', ep.reason);
  if (peeked.body === undefined) throw peeked.error;
  const reqBody = peeked.body;
  const { status, statusMessage } = statusOf(response, at, loc, lineOf);
  const resBody = responseBodyOf(response, { status, at, loc });
  const recordedAt = interactionTime(raw, response.headers, out.clock);
  out.exchanges.push({
    label: `interaction ${i}`,
    file: path,
    ...(line !== undefined ? { line } : {}),
    requestBase: reqBody.base,
    responseBase: resBody.base,
    ...endpointFields(ep),
    ...(status !== undefined ? { status } : {}),
    ...(statusMessage !== undefined ? { statusMessage } : {}),
    ...(recordedAt !== undefined ? { recordedAt } : {}),
    request: reqBody.value,
    response: resBody.value,
  });
}

export function importCassette(content: string, path: string): Trace[] {
  const yaml = readCassetteYaml(content, path);
  const { data, listKey } = yaml;
  refuseCutShort(content, yaml, path);
  const list = isJsonObject(data) ? data[listKey] : undefined;
  if (!Array.isArray(list)) {
    throw new UserError({
      file: path,
      line: 1,
      field: listKey,
      code: 'missing_field',
      message: 'not a VCR cassette: no interactions list',
      hint: 'a cassette starts with `interactions:` (vcrpy) or `http_interactions:` (Ruby VCR) followed by request/response pairs',
    });
  }
  if (list.length === 0) {
    throw new UserError({ file: path, line: yaml.lineOfField(listKey) ?? 1, field: listKey, code: 'empty', message: 'the cassette has no interactions: it recorded no exchange', hint: 'name a cassette recorded while the agent loop ran (its interactions hold the model calls)' });
  }
  try {
    const out: Collected = { exchanges: [], skipped: [], polls: new Map(), clock: new LogClock() };
    list.forEach((raw, i) => readInteraction(raw, i, path, yaml, out));
    const fileNotes = [...missingTrailerNote(yaml, list.length), ...out.clock.notes()];
    return buildTraces(resolveBackgroundPolls(out.exchanges, out.polls), { file: path, format: 'vcr-cassette', skipped: out.skipped, ...(fileNotes.length > 0 ? { fileNotes } : {}) });
  } catch (error) {
    throw atFieldLines(error, path, yaml);
  }
}

/**
 * An issue about a field of the cassette placed on the field's own line when the YAML holds that node
 * (`completion_tokens` on line 86, not the line its interaction starts on); a field of a body held as a
 * string (JSON text in `body.string`) has no node: it keeps its interaction's line.
 */
function atFieldLines(error: unknown, path: string, yaml: CassetteYaml): unknown {
  if (!(error instanceof UserError)) return error;
  const lineOf = (issue: InputIssue) => (issue.file === path && issue.field !== undefined ? yaml.lineOfField(issue.field) : undefined);
  if (error.issues.every((issue) => lineOf(issue) === undefined)) return error;
  return new UserError(error.issues.map((issue) => {
    const line = lineOf(issue);
    return line === undefined ? issue : { ...issue, line };
  }));
}
