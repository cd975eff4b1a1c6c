/**
 * The body of one side of a VCR interaction as a value: `parsed_body` as is; else `body` (a string,
 * `{string: …}`, or `!!binary` bytes), base64-decoded when it is base64 text, decompressed (gzip /
 * deflate / brotli, per content-encoding or the gzip magic number), then:
 *   - JSON → the parsed value;
 *   - Server-Sent Events text → the text (a streamed response, reassembled later);
 *   - AWS event-stream bytes (`application/vnd.amazon.eventstream`) → the bytes;
 *   - anything else → a UserError (`invalid_json`), or the text when `json: false`.
 */
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { UserError } from '../../errors.js';
import { inputError } from '../common/issues.js';
import { describeValue, isJsonObject } from '../common/jsonValue.js';
import { embeddedSyntax, nonNumberHint } from '../common/jsonSyntaxError.js';
import { syntaxHint, type SyntaxHints } from '../../io/jsonSyntax.js';
import { MAX_NESTING_DEPTH, pathPastDepth } from '../../io/limits.js';
import { joinPath } from './bodyReader.js';
import { repeatedKey, REPEATED_KEY_HINT } from './repeatedKey.js';
import { looksLikeSse } from './stream/events.js';
import { looksLikeEventStream } from './stream/eventStream.js';

export interface Located {
  file: string;
  line?: number;
}

export interface Body {
  value: unknown;
  /** Field path the value came from, e.g. `interactions[3].response.body.string`. */
  base: string;
}

/** The first value of a header (case-insensitive name), as text. */
export function headerValue(headers: unknown, name: string): string | undefined {
  if (!isJsonObject(headers)) return undefined;
  for (const [k, v] of Object.entries(headers)) {
    if (k.toLowerCase() !== name) continue;
    const first: unknown = Array.isArray(v) ? v[0] : v;
    if (typeof first === 'string') return first;
    if (first instanceof Uint8Array) return Buffer.from(first).toString('utf8');
  }
  return undefined;
}

function decompress(bytes: Buffer, encoding: string | undefined): Buffer {
  const enc = (encoding ?? '').toLowerCase().trim();
  if (enc === 'gzip' || enc === 'x-gzip' || (bytes[0] === 0x1f && bytes[1] === 0x8b)) return gunzipSync(bytes);
  if (enc === 'deflate') return inflateSync(bytes);
  if (enc === 'br') return brotliDecompressSync(bytes);
  if (enc === 'zstd') throw new Error('zstd-compressed body (not supported by Node 20)');
  return bytes;
}

function issue(loc: Located, field: string, code: string, message: string, hint?: string): UserError {
  return inputError({ ...loc, field }, code, message, hint);
}

/** The decoded bytes or text of a raw body (base64 text and compression undone). */
function decode(raw: unknown, side: Record<string, unknown>, loc: Located, base: string): Buffer | string {
  try {
    const encoding = headerValue(side.headers, 'content-encoding');
    if (raw instanceof Uint8Array) return decompress(Buffer.from(raw), encoding);
    if (typeof raw !== 'string') throw issue(loc, base, 'wrong_type', `expected a body string or mapping, got ${describeValue(raw)}`);
    const trimmed = raw.trim();
    if (trimmed !== '' && !/^[[{"]/.test(trimmed) && /^[A-Za-z0-9+/=\s]+$/.test(trimmed)) {
      return decompress(Buffer.from(trimmed, 'base64'), encoding); // base64 text (possibly of a gzip stream)
    }
    return raw;
  } catch (err) {
    if (err instanceof UserError) throw err;
    throw issue(loc, base, 'undecodable_body', `cannot decode the body (${(err as Error).message})`, 'record the cassette with decode_compressed_response=True');
  }
}

/** Checks a parsed body's nesting against the readers' limit. */
function checkDepth(value: unknown, loc: Located, base: string): unknown {
  const past = pathPastDepth(value);
  if (past !== undefined) {
    throw issue(loc, base, 'too_deep', `the body nests deeper than ${MAX_NESTING_DEPTH} levels (at ${past})`, 'no provider body nests this deep; the file is damaged or hostile');
  }
  return value;
}

/**
 * A body string's parsed value: a key given twice (repeatedKey.ts) is refused at its field inside the body,
 * as nesting past the limit is.
 */
function checkedJson(value: unknown, text: string, loc: Located, base: string): unknown {
  const twice = repeatedKey(text, value);
  if (twice !== undefined) throw issue(loc, joinPath(base, twice.field ?? ''), twice.code, `${twice.message} (in the body string)`, REPEATED_KEY_HINT);
  return checkDepth(value, loc, base);
}

/** What to do about a body string that is no JSON. */
const BODY_HINTS: SyntaxHints = {
  nonNumber: nonNumberHint('record the cassette again'),
  endsEarly: 'the body looks cut short: record the cassette again, or copy it whole',
  other: 'the body must be one JSON object, or a streamed (text/event-stream) body',
};

export function bodyOf(side: Record<string, unknown>, sidePath: string, loc: Located, opts: { json: boolean }): Body {
  if (side.parsed_body !== undefined) return { value: checkDepth(side.parsed_body, loc, `${sidePath}.parsed_body`), base: `${sidePath}.parsed_body` };
  let raw: unknown = side.body;
  let base = `${sidePath}.body`;
  if (isJsonObject(raw) && 'string' in raw) {
    raw = raw.string;
    base = `${base}.string`;
  }
  if (raw === undefined || raw === null) return { value: undefined, base };
  if (isJsonObject(raw) || Array.isArray(raw)) return { value: checkDepth(raw, loc, base), base };
  if (!opts.json) return { value: raw, base };
  const decoded = decode(raw, side, loc, base);
  const contentType = (headerValue(side.headers, 'content-type') ?? '').toLowerCase();
  if (Buffer.isBuffer(decoded) && (contentType.includes('amazon.eventstream') || looksLikeEventStream(decoded))) return { value: new Uint8Array(decoded), base };
  const text = typeof decoded === 'string' ? decoded : decoded.toString('utf8');
  if (text.trim() === '') return { value: undefined, base };
  try {
    return { value: checkedJson(JSON.parse(text) as unknown, text, loc, base), base };
  } catch (err) {
    if (err instanceof UserError) throw err;
    if (looksLikeSse(text)) return { value: text, base };
    const { place, message } = embeddedSyntax(text, err, 'body');
    throw issue(loc, base, 'invalid_json', `body ${message}`, syntaxHint(place, BODY_HINTS));
  }
}
