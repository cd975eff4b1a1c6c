/**
 * An independent count of the model calls and tokens in a VCR cassette, written apart from loopcost's
 * importer (it imports nothing from src/ or dist/) so that the two can check each other
 * (scripts/wild-sample.mjs). It does not rebuild calls: it finds each model-call exchange by its path,
 * gathers every usage object its response carries (a JSON body, SSE events, AWS event-stream frames),
 * merges them in order (later fields win; Gemini's chunks each carry the whole usage so far, so the last
 * one is taken) and sums the tokens, by the providers' documented meanings:
 *   input  = the prompt, cached part included (Anthropic-style usage and Bedrock add cache reads and
 *            writes back, since their input count excludes them);
 *   output = completion tokens, reasoning included (Gemini: totalTokenCount minus the prompt, which is
 *            candidates + thoughts, derived here from the total rather than from the parts);
 *   cached = cache reads; reasoning = reasoning / thinking tokens.
 * A call counts zero when it failed: HTTP status ≥ 400, an error body or error event, a prompt blocked,
 * or a stream that never reached its end. A background Responses call counts the usage of the last poll
 * that carries it.
 */
import { gunzipSync } from 'node:zlib';
import { parse } from 'yaml';

const CALL_PATHS = [
  [/\/chat\/completions$/, 'chat'],
  [/\/responses(\/compact)?$/, 'responses'],
  [/\/messages$/, 'anthropic'],
  [/:(stream)?generatecontent$/, 'gemini'],
  [/\/converse(-stream)?$/, 'bedrock'],
  [/\/invoke(-with-response-stream)?$/, 'anthropic'],
  [/:(stream)?rawpredict$/, 'anthropic'],
  [/\/v2\/chat$/, 'cohere'],
];

const num = (v) => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
const obj = (v) => (v !== null && typeof v === 'object' && !Array.isArray(v) && !(v instanceof Uint8Array) ? v : undefined);

function header(side, name) {
  for (const [k, v] of Object.entries(side?.headers ?? {})) if (k.toLowerCase() === name) return String(Array.isArray(v) ? v[0] : v);
  return '';
}

/** The raw body: an object (parsed_body), a string or bytes, gzip undone. */
function rawBody(side) {
  if (side.parsed_body !== undefined) return side.parsed_body;
  let b = side.body;
  if (obj(b) && 'string' in b) b = b.string;
  if (b instanceof Uint8Array) {
    const buf = Buffer.from(b);
    if (buf[0] === 0x1f && buf[1] === 0x8b) return gunzipSync(buf).toString('utf8');
    return header(side, 'content-type').includes('eventstream') ? buf : buf.toString('utf8');
  }
  if (typeof b === 'string' && /^[A-Za-z0-9+/=\s]+$/.test(b.trim()) && b.trim().length > 16) {
    const buf = Buffer.from(b.trim(), 'base64');
    if (buf[0] === 0x1f && buf[1] === 0x8b) return gunzipSync(buf).toString('utf8');
  }
  return b;
}

/** The JSON values of a body: one object, the `data:` payloads of SSE text, the frames of an event stream. */
function values(body) {
  if (Buffer.isBuffer(body)) {
    const out = [];
    for (let at = 0; at + 16 <= body.length; ) {
      const total = body.readUInt32BE(at);
      const headers = body.readUInt32BE(at + 4);
      const text = body.toString('utf8', at + 12, at + 12 + headers);
      const payload = body.toString('utf8', at + 12 + headers, at + total - 4);
      let v;
      try {
        v = JSON.parse(payload);
      } catch {
        v = undefined;
      }
      if (text.includes('exception')) out.push({ error: payload });
      else if (obj(v) && typeof v.bytes === 'string') out.push(JSON.parse(Buffer.from(v.bytes, 'base64').toString('utf8')));
      else if (v !== undefined) out.push({ ...v, __event: /messageStop|metadata|messageStart|contentBlock\w+/.exec(text)?.[0] });
      at += total;
    }
    return out;
  }
  if (typeof body !== 'string') return body === undefined || body === null ? [] : Array.isArray(body) ? body : [body];
  try {
    const v = JSON.parse(body);
    return Array.isArray(v) ? v : [v];
  } catch {
    return body
      .split(/\r?\n/)
      .filter((l) => l.startsWith('data:') && l.slice(5).trim() !== '[DONE]')
      .flatMap((l) => {
        try {
          return [JSON.parse(l.slice(5))];
        } catch {
          return [];
        }
      });
  }
}

/** Every usage object of one value, in document order (its own usage, nested message / response usage). */
function usagesOf(v) {
  const o = obj(v);
  if (!o) return [];
  const found = [];
  for (const key of ['usage', 'usageMetadata']) if (obj(o[key])) found.push(o[key]);
  if (obj(o.x_groq) && obj(o.x_groq.usage)) found.push(o.x_groq.usage);
  for (const key of ['message', 'response']) if (obj(o[key]) && obj(o[key].usage)) found.push(o[key].usage);
  return found;
}

/** Did the exchange reach its end without failing? (Independent of how the importer decides it.) */
function completed(api, vals, streamed) {
  if (vals.length === 0) return false;
  for (const v of vals) {
    if (obj(v) && v.error !== undefined && v.error !== null && !usagesOf(v).length) return false;
    if (obj(v) && (v.type === 'error' || v.type === 'response.failed')) return false;
    if (obj(v) && obj(v.promptFeedback) && v.promptFeedback.blockReason && !(v.candidates ?? []).length) return false;
  }
  if (!streamed) return true;
  const has = (pred) => vals.some((v) => obj(v) && pred(v));
  switch (api) {
    case 'chat':
      return has((v) => (v.choices ?? []).some((c) => c?.finish_reason) || obj(v.usage) || obj(v.x_groq?.usage));
    case 'responses':
      return has((v) => v.type === 'response.completed' || v.type === 'response.incomplete');
    case 'anthropic':
      return has((v) => v.type === 'message_start') && has((v) => v.type === 'message_delta' || v.type === 'message_stop');
    case 'gemini':
      return has((v) => (v.candidates ?? []).some((c) => c?.finishReason));
    case 'bedrock':
      return has((v) => v.__event === 'messageStop' || v.__event === 'metadata');
    default:
      return false;
  }
}

/** Tokens of the merged usage of one call. */
function tokens(api, u) {
  if (api === 'cohere') return { input: num(u.billed_units?.input_tokens), output: num(u.billed_units?.output_tokens), cached: 0, reasoning: 0 };
  if ('promptTokenCount' in u || 'candidatesTokenCount' in u) {
    // Gemini: totalTokenCount = prompt + tool-use prompt + candidates + thoughts, so output is the rest.
    const input = num(u.promptTokenCount) + num(u.toolUsePromptTokenCount);
    const output = 'totalTokenCount' in u ? num(u.totalTokenCount) - input : num(u.candidatesTokenCount) + num(u.thoughtsTokenCount);
    return { input, output, cached: num(u.cachedContentTokenCount), reasoning: num(u.thoughtsTokenCount) };
  }
  if ('inputTokens' in u) {
    return { input: num(u.inputTokens) + num(u.cacheReadInputTokens) + num(u.cacheWriteInputTokens), output: num(u.outputTokens), cached: num(u.cacheReadInputTokens), reasoning: 0 };
  }
  if ('prompt_tokens' in u) {
    return { input: num(u.prompt_tokens), output: num(u.completion_tokens), cached: num(u.prompt_tokens_details?.cached_tokens ?? u.prompt_cache_hit_tokens), reasoning: num(u.completion_tokens_details?.reasoning_tokens) };
  }
  if (api === 'anthropic') {
    const writes = 'cache_creation_input_tokens' in u ? num(u.cache_creation_input_tokens) : num(u.cache_creation?.ephemeral_5m_input_tokens) + num(u.cache_creation?.ephemeral_1h_input_tokens);
    return { input: num(u.input_tokens) + num(u.cache_read_input_tokens) + writes, output: num(u.output_tokens), cached: num(u.cache_read_input_tokens), reasoning: 0 };
  }
  return { input: num(u.input_tokens), output: num(u.output_tokens), cached: num(u.input_tokens_details?.cached_tokens), reasoning: num(u.output_tokens_details?.reasoning_tokens) };
}

/**
 * `{kind: 'not-http'}` for recordings of websocket frames or gRPC samples; else
 * `{kind: 'http', calls, input, output, cached, reasoning}` over its model-call exchanges.
 */
export function countCassette(text) {
  const doc = parse(text, { schema: 'yaml-1.1', maxAliasCount: 100 });
  const interactions = Array.isArray(doc?.interactions) ? doc.interactions : [];
  if (interactions.length > 0 && interactions.every((i) => !obj(i?.request) || typeof i.request.uri !== 'string')) return { kind: 'not-http' };
  const polls = new Map();
  for (const i of interactions) {
    const m = /\/responses\/(resp_\w+)/.exec(i?.request?.uri ?? '');
    if (m && String(i.request.method).toUpperCase() === 'GET') {
      const vals = values(rawBody(i.response ?? {}));
      const u = vals.flatMap(usagesOf).filter((x) => Object.keys(x).length > 0);
      if (u.length > 0) polls.set(m[1], Object.assign({}, ...u));
    }
  }
  const total = { kind: 'http', calls: 0, input: 0, output: 0, cached: 0, reasoning: 0 };
  for (const i of interactions) {
    const req = i?.request;
    if (!obj(req) || String(req.method ?? 'POST').toUpperCase() !== 'POST' || typeof req.uri !== 'string') continue;
    const path = new URL(req.uri).pathname.toLowerCase().replace(/\/+$/, '');
    const api = CALL_PATHS.find(([re]) => re.test(path))?.[1];
    if (api === undefined) continue;
    const reqBody = values(rawBody(req))[0];
    if (obj(reqBody)?.jsonrpc) continue;
    if (/\/invoke|rawpredict/.test(path) && !obj(reqBody)?.anthropic_version) continue;
    if (api === 'anthropic' && path.endsWith('/messages') && !Array.isArray(obj(reqBody)?.messages) && !path.endsWith('/v1/messages')) continue;
    total.calls += 1;
    const status = num(obj(i.response?.status)?.code ?? i.response?.status);
    if (status >= 400) continue;
    const raw = rawBody(i.response ?? {});
    const streamed = Buffer.isBuffer(raw) || (typeof raw === 'string' && /^\s*(data|event|:)/.test(raw)) || (typeof raw === 'string' && raw.trim().startsWith('['));
    let vals = values(raw);
    const first = obj(vals[0]);
    if (api === 'responses' && first && (first.status === 'queued' || first.status === 'in_progress') && !streamed) {
      const polled = polls.get(first.id);
      if (polled === undefined) continue;
      vals = [{ usage: polled }];
    }
    if (!completed(api, vals, streamed)) continue;
    const usages = vals.flatMap(usagesOf);
    if (usages.length === 0) continue;
    // Gemini chunks each carry the whole usage so far (the last one is the call's); the other APIs send
    // parts (Anthropic: input in message_start, output in message_delta), merged in order.
    const t = tokens(api, api === 'gemini' ? usages[usages.length - 1] : Object.assign({}, ...usages));
    total.input += t.input;
    total.output += t.output;
    total.cached += t.cached;
    total.reasoning += t.reasoning;
  }
  return total;
}
