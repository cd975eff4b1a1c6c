/**
 * JSONL of raw provider exchanges, one per line:
 *   {"request": <request body>, "response": <response body>, "status"?: <HTTP status>, "url"?: <request URL>,
 *    "method"?: "POST", "latencyMs"?: <number>, "firstTokenMs"?: <number>}
 * A streamed response is the body as received (SSE text) or the list of its parsed chunks / events.
 * The API comes from the `url` path (any host; the host is the provider hint) when given, else from the
 * body shapes. Every problem names the file, the 1-based line and the field. A line carries no time: a run
 * is dated by its responses' own (responseTime.ts).
 */
import { UserError } from '../../errors.js';
import type { Trace } from '../../trace/types.js';
import { inputError } from '../common/issues.js';
import { fileTextSyntaxError, nonNumberHint } from '../common/jsonSyntaxError.js';
import { jsonTextError } from '../common/jsonDocument.js';
import { DUPLICATE_KEY_HINT, parsedJsonTextProblem, type JsonTextProblem } from '../../io/jsonText.js';
import type { SyntaxHints } from '../../io/jsonSyntax.js';
import { describeValue, isJsonObject } from '../common/jsonValue.js';
import { buildTraces, type PositionedNote } from './build.js';
import { Reader } from './bodyReader.js';
import { classifyEndpoint, detectShape, detectStreamShape, endpointFields } from './detect.js';
import type { GenerationExchange } from './parseExchange.js';
import { isStreamBody, streamEvents } from './stream/events.js';
import { isHttpStatus } from './status.js';

export { looksLikeExchangeLine } from '../formats.js';

/** Where a line sits, and how it fails: a UserError naming the file, the line and the field. */
interface LineAt {
  path: string;
  line: number;
  fail: (field: string | undefined, code: string, message: string, hint?: string) => never;
}

/** What a line records besides its bodies' API: the fields every exchange of the file carries. */
type CommonFields = Omit<GenerationExchange, 'shape' | 'provider' | 'compact'>;

export function importExchangesJsonl(content: string, path: string): Trace[] {
  const exchanges: GenerationExchange[] = [];
  const skipped: PositionedNote[] = [];
  content.split(/\r?\n/).forEach((text, i) => {
    if (text.trim() === '') return;
    const line = i + 1;
    const fail = (field: string | undefined, code: string, message: string, hint?: string): never => {
      throw inputError({ file: path, line, field }, code, message, hint);
    };
    const at: LineAt = { path, line, fail };
    const rec = exchangeRecord(text, at);
    const common = commonFields(rec, at);
    if (typeof rec.url !== 'string') {
      exchanges.push(detectedExchange(rec, common, at));
      return;
    }
    const ep = classifyEndpoint(rec.url, rec.method as string | undefined, rec.request);
    if (ep.kind === 'skip' || ep.kind === 'poll') skipped.push({ after: exchanges.length - 1, note: `line ${line}: skipped ${ep.reason}` });
    else if (ep.kind === 'unsupported') fail('url', 'unsupported_endpoint', ep.reason);
    else exchanges.push({ ...common, ...endpointFields(ep) });
  });
  if (exchanges.length === 0 && skipped.length === 0) {
    throw new UserError({ file: path, code: 'empty_input', message: 'no exchanges in the file', hint: 'one {"request", "response"} JSON object per line' });
  }
  return buildTraces(exchanges, { file: path, format: 'http-exchanges', skipped });
}

/** What to do about a line that is no JSON, by what is wrong (src/import/common/jsonSyntaxError.ts). */
const LINE_HINTS: SyntaxHints = {
  nonNumber: nonNumberHint('record the exchange again'),
  endsEarly: 'each line must be one complete JSON object; was the file truncated?',
  other: 'each line must be one complete JSON object: fix the syntax at the column shown, or record the exchange again',
};

/** What to do about a line JSON.parse read but the rule of every JSON reader refuses. */
const JSON_TEXT_HINTS: Record<JsonTextProblem['code'], string> = {
  duplicate_key: DUPLICATE_KEY_HINT,
  too_deep: 'no provider body nests this deep: the line is damaged or hostile',
  too_large: 'write a number a double holds, or record the exchange again',
};

/** The line as a JSON object with a request body object and a response. */
function exchangeRecord(text: string, { path, line, fail }: LineAt): Record<string, unknown> {
  let obj: unknown;
  try {
    obj = JSON.parse(text);
  } catch (err) {
    // Named at its column and the field it sits in (e.g. `response.usage` for a line cut inside usage).
    throw fileTextSyntaxError(text, err, { file: path, firstLine: line, noun: 'line', subject: 'line ', hints: LINE_HINTS });
  }
  if (!isJsonObject(obj)) fail(undefined, 'wrong_type', `expected a JSON object with request and response, got ${describeValue(obj)}`);
  // The rule of every JSON reader (src/io/jsonText.ts): a key given twice, nesting past the limit, or a number past a double's range, is refused.
  const problem = parsedJsonTextProblem(text, obj, { numbers: true });
  if (problem !== undefined) throw jsonTextError(problem, text, path, JSON_TEXT_HINTS[problem.code], line);
  const rec = obj as Record<string, unknown>;
  if (!isJsonObject(rec.request)) {
    fail('request', rec.request === undefined ? 'missing_field' : 'wrong_type', rec.request === undefined ? 'missing request body' : `expected the request body object, got ${describeValue(rec.request)}`);
  }
  if (!('response' in rec)) fail('response', 'missing_field', 'missing response body', 'every line needs {"request": …, "response": …}');
  return rec;
}

/** The line's label, bodies, status and timings, each checked (url and method too, used by the caller). */
function commonFields(rec: Record<string, unknown>, { path, line, fail }: LineAt): CommonFields {
  let status: number | undefined;
  if (rec.status !== undefined && rec.status !== null) {
    if (!isHttpStatus(rec.status)) {
      fail('status', 'wrong_type', `expected an HTTP status code (100–599), got ${describeValue(rec.status)}`);
    }
    status = rec.status as number;
  }
  if (rec.url !== undefined && typeof rec.url !== 'string') fail('url', 'wrong_type', `expected a URL string, got ${describeValue(rec.url)}`);
  if (rec.method !== undefined && typeof rec.method !== 'string') fail('method', 'wrong_type', `expected a string, got ${describeValue(rec.method)}`);
  const millis = (key: 'latencyMs' | 'firstTokenMs'): number | undefined => {
    const value = rec[key];
    if (value === undefined) return undefined;
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
      fail(key, 'wrong_type', `expected a non-negative number of milliseconds, got ${describeValue(value)}`);
    }
    return value as number;
  };
  const latencyMs = millis('latencyMs');
  const firstTokenMs = millis('firstTokenMs');
  return {
    label: `line ${line}`,
    file: path,
    line,
    requestBase: 'request',
    responseBase: 'response',
    ...(status !== undefined ? { status } : {}),
    request: rec.request,
    response: rec.response,
    ...(latencyMs !== undefined ? { latencyMs } : {}),
    ...(firstTokenMs !== undefined ? { firstTokenMs } : {}),
  };
}

/** A line without a URL: its API told from the bodies' shapes (the provider a guess). */
function detectedExchange(rec: Record<string, unknown>, common: CommonFields, { path, line, fail }: LineAt): GenerationExchange {
  const detected = isStreamBody(rec.response)
    ? (detectStreamShape(streamEvents(rec.response, new Reader({ file: path, line, base: 'response' })).events) ?? detectShape(rec.request, undefined))
    : detectShape(rec.request, rec.response);
  if (detected === undefined) {
    fail('request', 'unknown_shape', 'cannot tell which provider API these bodies belong to', 'add "url" (the request URL) to the line');
  }
  return { ...common, shape: detected!.shape, provider: detected!.provider, providerGuessed: true, compact: false };
}
