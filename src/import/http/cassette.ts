/**
 * VCR cassettes (vcrpy / pytest-recording YAML):
 *   interactions[].request.{method, uri, headers, body | parsed_body}
 *   interactions[].response.{status: {code, message}, headers, body: {string} | parsed_body}
 * Bodies may be YAML mappings (`parsed_body`), JSON strings, `!!binary` bytes, base64 text, and gzip /
 * deflate / brotli compressed (per the content-encoding header or the gzip magic number).
 *
 * The provider comes from the URI (see detect.ts for the hosts and for which non-generation interactions
 * are skipped — MCP JSON-RPC traffic, Gemini cachedContents, token counts, non-POST requests; each skip
 * is noted in the trace). A cassette may hold several runs; build.ts splits them and sources get `#n`.
 */
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { isMap, isSeq, LineCounter, parseDocument } from 'yaml';
import { UserError } from '../../errors.js';
import type { Trace } from '../../trace/types.js';
import { inputError } from '../common/issues.js';
import { describeValue, isJsonObject } from '../common/jsonValue.js';
import { buildTraces, type PositionedNote } from './build.js';
import { classifyEndpoint, KNOWN_HOSTS } from './detect.js';
import type { GenerationExchange } from './parseExchange.js';

/** True when the text's first YAML key is `interactions:` (comments and a `---` start allowed). */
export function looksLikeCassette(text: string): boolean {
  for (const raw of text.split(/\r?\n/, 50)) {
    const line = raw.trimEnd();
    if (line === '' || line.startsWith('#') || line === '---' || line.startsWith('%')) continue;
    return /^interactions:(\s|$)/.test(line);
  }
  return false;
}

interface Located {
  file: string;
  line?: number;
}

function issue(loc: Located, field: string, code: string, message: string, hint?: string): UserError {
  return inputError({ ...loc, field }, code, message, hint);
}

function header(headers: unknown, name: string): string | undefined {
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

/**
 * A cassette body as a JSON value: `parsed_body` as is; else `body` (string, `{string: …}`, bytes),
 * decompressed and JSON-parsed. Returns `{value, base}` with the field path the value came from.
 */
function bodyOf(
  side: Record<string, unknown>,
  sidePath: string,
  loc: Located,
  opts: { json: boolean },
): { value: unknown; base: string } {
  if (side.parsed_body !== undefined) return { value: side.parsed_body, base: `${sidePath}.parsed_body` };
  let raw: unknown = side.body;
  let base = `${sidePath}.body`;
  if (isJsonObject(raw) && 'string' in raw) {
    raw = raw.string;
    base = `${base}.string`;
  }
  if (raw === undefined || raw === null) return { value: undefined, base };
  if (isJsonObject(raw) || Array.isArray(raw)) return { value: raw, base };
  if (!opts.json) return { value: raw, base };
  let text: string;
  try {
    const encoding = header(side.headers, 'content-encoding');
    if (raw instanceof Uint8Array) {
      text = decompress(Buffer.from(raw), encoding).toString('utf8');
    } else if (typeof raw === 'string') {
      text = raw;
      const trimmed = raw.trim();
      if (trimmed !== '' && !/^[[{"]/.test(trimmed) && /^[A-Za-z0-9+/=\s]+$/.test(trimmed)) {
        // base64 text (possibly of a gzip stream)
        const bytes = Buffer.from(trimmed, 'base64');
        text = decompress(bytes, encoding).toString('utf8');
      }
    } else {
      throw issue(loc, base, 'wrong_type', `expected a body string or mapping, got ${describeValue(raw)}`);
    }
  } catch (err) {
    if (err instanceof UserError) throw err;
    throw issue(loc, base, 'undecodable_body', `cannot decode the body (${(err as Error).message})`, 'record the cassette with decode_compressed_response=True');
  }
  if (text.trim() === '') return { value: undefined, base };
  try {
    return { value: JSON.parse(text) as unknown, base };
  } catch (err) {
    const hint = /^(data|event):/m.test(text)
      ? 'this looks like a streamed (SSE) response; record the agent with stream=false'
      : 'the body must be one JSON object';
    throw issue(loc, base, 'invalid_json', `body is not valid JSON (${(err as Error).message})`, hint);
  }
}

export function importCassette(content: string, path: string): Trace[] {
  const lineCounter = new LineCounter();
  const doc = parseDocument(content, { schema: 'yaml-1.1', lineCounter, prettyErrors: false });
  if (doc.errors.length > 0) {
    const e = doc.errors[0]!;
    const pos = e.pos?.[0] !== undefined ? lineCounter.linePos(e.pos[0]).line : undefined;
    throw new UserError({
      file: path,
      ...(pos !== undefined ? { line: pos } : {}),
      field: 'interactions',
      code: 'invalid_yaml',
      message: `not valid YAML (${e.message.split('\n')[0]})`,
      hint: 'a VCR cassette is a YAML file with an interactions: list',
    });
  }
  const data: unknown = doc.toJS({ maxAliasCount: 1000 });
  const seqNode = isMap(doc.contents) ? doc.contents.get('interactions', true) : undefined;
  const lineOf = (i: number): number | undefined => {
    if (!isSeq(seqNode)) return undefined;
    const node = seqNode.items[i] as { range?: [number, number, number] } | undefined;
    return node?.range ? lineCounter.linePos(node.range[0]).line : undefined;
  };
  /** Line of a scalar inside interaction i (e.g. request.uri), else the interaction's line. */
  const lineIn = (i: number, keys: string[], fallback: number | undefined): number | undefined => {
    const node = doc.getIn(['interactions', i, ...keys], true) as { range?: [number, number, number] } | undefined;
    return node?.range ? lineCounter.linePos(node.range[0]).line : fallback;
  };
  if (!isJsonObject(data) || !Array.isArray(data.interactions)) {
    throw new UserError({
      file: path,
      line: 1,
      field: 'interactions',
      code: 'missing_field',
      message: 'not a VCR cassette: no interactions list',
      hint: 'a cassette starts with `interactions:` followed by request/response pairs',
    });
  }
  const exchanges: GenerationExchange[] = [];
  const skipped: PositionedNote[] = [];
  data.interactions.forEach((raw, i) => {
    const at = `interactions[${i}]`;
    const line = lineOf(i);
    const loc: Located = { file: path, ...(line !== undefined ? { line } : {}) };
    if (!isJsonObject(raw)) throw issue(loc, at, 'wrong_type', `expected an interaction mapping, got ${describeValue(raw)}`);
    if (!isJsonObject(raw.request)) throw issue(loc, `${at}.request`, 'missing_field', 'missing request mapping');
    if (!isJsonObject(raw.response)) throw issue(loc, `${at}.response`, 'missing_field', 'missing response mapping');
    const request = raw.request;
    const response = raw.response;
    if (typeof request.uri !== 'string') {
      throw issue({ ...loc, line: lineIn(i, ['request', 'uri'], line) }, `${at}.request.uri`, request.uri === undefined ? 'missing_field' : 'wrong_type', `expected the request URI string, got ${describeValue(request.uri)}`);
    }
    const method = request.method === undefined ? undefined : String(request.method);
    const uri = request.uri;
    // Peek at the request body first: MCP JSON-RPC traffic is skipped whatever its host.
    let reqBody: { value: unknown; base: string } | undefined;
    let reqError: unknown;
    try {
      reqBody = bodyOf(request, `${at}.request`, loc, { json: true });
    } catch (err) {
      reqError = err; // a file upload or form body: fine if the endpoint is skipped below
    }
    const ep = classifyEndpoint(uri, method, reqBody?.value);
    if (ep.kind === 'skip') {
      skipped.push({ after: exchanges.length - 1, note: `interaction ${i}: skipped ${ep.reason}` });
      return;
    }
    if (ep.kind === 'unknown') {
      throw issue(
        { ...loc, line: lineIn(i, ['request', 'uri'], line) },
        `${at}.request.uri`,
        'unknown_provider',
        `unknown cassette provider: host ${ep.host}`,
        `supported hosts: ${KNOWN_HOSTS.join(', ')}`,
      );
    }
    if (ep.kind === 'unsupported') throw issue({ ...loc, line: lineIn(i, ['request', 'uri'], line) }, `${at}.request.uri`, 'unsupported_endpoint', ep.reason);
    if (reqBody === undefined) throw reqError;
    const statusObj = response.status;
    let status: number | undefined;
    let statusMessage: string | undefined;
    if (isJsonObject(statusObj)) {
      if (typeof statusObj.code !== 'number') {
        throw issue({ ...loc, line: lineIn(i, ['response', 'status', 'code'], line) }, `${at}.response.status.code`, 'wrong_type', `expected an HTTP status code, got ${describeValue(statusObj.code)}`);
      }
      status = statusObj.code;
      if (typeof statusObj.message === 'string') statusMessage = statusObj.message;
    } else if (typeof statusObj === 'number') {
      status = statusObj;
    } else if (statusObj !== undefined) {
      throw issue(loc, `${at}.response.status`, 'wrong_type', `expected {code, message}, got ${describeValue(statusObj)}`);
    }
    let resBody: { value: unknown; base: string };
    try {
      resBody = bodyOf(response, `${at}.response`, loc, { json: true });
    } catch (err) {
      // An error response's body need not be JSON (an HTML 502 page): keep it as text.
      if (status !== undefined && status >= 400 && err instanceof UserError) {
        resBody = bodyOf(response, `${at}.response`, loc, { json: false });
      } else {
        throw err;
      }
    }
    exchanges.push({
      label: `interaction ${i}`,
      file: path,
      ...(line !== undefined ? { line } : {}),
      requestBase: reqBody.base,
      responseBase: resBody.base,
      shape: ep.shape,
      provider: ep.provider,
      compact: ep.compact,
      ...(ep.modelFromUri !== undefined ? { modelFromUri: ep.modelFromUri } : {}),
      ...(status !== undefined ? { status } : {}),
      ...(statusMessage !== undefined ? { statusMessage } : {}),
      request: reqBody.value,
      response: resBody.value,
    });
  });
  return buildTraces(exchanges, { file: path, format: 'vcr-cassette', skipped });
}
