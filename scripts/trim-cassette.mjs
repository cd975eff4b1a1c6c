#!/usr/bin/env node
/**
 * Trims a real VCR cassette — vcrpy's (`interactions:`) or Ruby VCR's (`http_interactions:`, bodies as
 * `{encoding, string}`, often `!binary` base64, each interaction's `recorded_at`) — into a small test
 * fixture of the same kind, keeping what the importer reads byte for byte:
 *   - request: method, uri and body; headers other than content-type dropped;
 *   - response: status, body, and the content-type / content-encoding / date headers (Ruby VCR: and its
 *     `recorded_at`, the interaction's time; `recorded_with` kept);
 *   - `--keep 0,2`: only these interactions;
 *   - `--text-deltas N`: in streamed (SSE) bodies, text-only delta events beyond the first N and last N
 *     of each body are dropped (and Anthropic `ping` events); every other event — tool-call fragments,
 *     usage, finish reasons — is kept verbatim, so usage and tool calls are unchanged;
 *   - `--binary-bytes N`: binary bodies (downloaded images, PDFs, audio) cut to their first N bytes
 *     (those exchanges are skipped by the importer; only their presence matters); bytes that are UTF-8
 *     text (a JSON body Ruby VCR wrote `!binary`, as it writes any non-ASCII body) are kept whole;
 *   - `--drop-events a,b`: SSE events of these types are dropped (e.g. the Responses API's
 *     `response.created` / `response.in_progress`, which repeat the request and carry no usage);
 *   - `--drop-field a,b`: these keys are removed from JSON request bodies (e.g. long tool descriptions).
 * The output starts with a comment naming the source and the options, so every fixture says how it was made.
 *
 * Usage: node scripts/trim-cassette.mjs SOURCE.yaml OUT.yaml --source "repo@commit:path" [options]
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { parse, stringify } from 'yaml';

/** The YAML 1.1 tags plus Ruby's `!binary` (Psych's name for base64 bytes), read as `!!binary` is (src/import/http/cassetteYaml.ts). */
const withRubyBinary = (tags) => {
  const binary = tags.find((t) => typeof t === 'object' && t.tag === 'tag:yaml.org,2002:binary');
  return binary === undefined ? tags : [...tags, { ...binary, tag: '!binary' }];
};

const [src, out, ...rest] = process.argv.slice(2);
if (!src || !out) {
  console.error('usage: trim-cassette.mjs SOURCE OUT --source LABEL [--keep i,j] [--text-deltas N] [--binary-bytes N] [--drop-field k]');
  process.exit(2);
}
const opt = (name) => {
  const i = rest.indexOf(`--${name}`);
  return i >= 0 ? rest[i + 1] : undefined;
};
const keep = opt('keep')?.split(',').map(Number);
const textDeltas = opt('text-deltas') !== undefined ? Number(opt('text-deltas')) : undefined;
const binaryBytes = opt('binary-bytes') !== undefined ? Number(opt('binary-bytes')) : undefined;
const dropFields = new Set((opt('drop-field') ?? '').split(',').filter(Boolean));
const dropEvents = new Set((opt('drop-events') ?? '').split(',').filter(Boolean));
const label = opt('source') ?? src;

const pickHeaders = (headers, names) =>
  Object.fromEntries(Object.entries(headers ?? {}).filter(([k]) => names.includes(k.toLowerCase())));

function isTextDelta(data) {
  if (data === null || typeof data !== 'object') return false;
  if (data.type === 'ping') return true;
  if (data.type === 'content_block_delta') return ['text_delta', 'thinking_delta'].includes(data.delta?.type);
  if (typeof data.type === 'string' && /^response\.(output_text|reasoning_summary_text|reasoning_text)\.delta$/.test(data.type)) return true;
  if (Array.isArray(data.choices)) {
    const [c, ...more] = data.choices;
    if (more.length > 0 || !c || c.finish_reason || data.usage || data.x_groq?.usage) return false;
    return Object.keys(c.delta ?? {}).every((k) => ['content', 'role', 'reasoning_content', 'reasoning', 'reasoning_details', 'refusal', 'channel'].includes(k));
  }
  if (Array.isArray(data.candidates)) {
    const c = data.candidates[0];
    return !!c && !c.finishReason && (c.content?.parts ?? []).every((p) => Object.keys(p).every((k) => ['text', 'thought'].includes(k)));
  }
  return false;
}

/** Bytes that decode as UTF-8 with no NUL: a text body (JSON, SSE) stored as bytes, not a document or an image. */
function isUtf8Text(bytes) {
  try {
    return !new TextDecoder('utf-8', { fatal: true }).decode(bytes).includes('\u0000');
  } catch {
    return false;
  }
}

function trimSse(text) {
  const sep = text.includes('\r\n\r\n') ? '\r\n\r\n' : '\n\n';
  const blocks = text.split(sep);
  const dataOf = (block) => {
    const lines = block.split(/\r?\n/).filter((l) => l.startsWith('data:'));
    try {
      return lines.length ? JSON.parse(lines.map((l) => l.slice(5).trim()).join('\n')) : undefined;
    } catch {
      return undefined;
    }
  };
  const deltaIdx = blocks.map((b, i) => (isTextDelta(dataOf(b)) ? i : -1)).filter((i) => i >= 0);
  const keepEach = textDeltas ?? Infinity;
  const drop = new Set(deltaIdx.filter((i, k) => k >= keepEach && k < deltaIdx.length - keepEach));
  for (const [i, b] of blocks.entries()) if (dataOf(b)?.type === 'ping' || dropEvents.has(dataOf(b)?.type)) drop.add(i);
  return blocks.filter((_, i) => !drop.has(i)).join(sep);
}

function trimBody(side, isResponse) {
  const headers = side.headers ?? {};
  if ('parsed_body' in side) {
    if (!isResponse && side.parsed_body && typeof side.parsed_body === 'object') {
      for (const f of dropFields) delete side.parsed_body[f];
    }
    return side;
  }
  let body = side.body && typeof side.body === 'object' && 'string' in side.body ? side.body.string : side.body;
  if (body instanceof Uint8Array) {
    const bytes = Buffer.from(body);
    const text = bytes[0] === 0x1f && bytes[1] === 0x8b ? gunzipSync(bytes) : bytes;
    if (isResponse && (textDeltas !== undefined || dropEvents.size > 0) && /^(data|event|:)/.test(text.toString('utf8', 0, 10))) {
      body = text.toString('utf8');
      delete side.headers?.['content-encoding'];
    } else if (binaryBytes !== undefined && bytes.length > binaryBytes && !/eventstream/.test(JSON.stringify(headers)) && !isUtf8Text(text)) {
      body = new Uint8Array(bytes.subarray(0, binaryBytes));
    }
  }
  if (typeof body === 'string' && isResponse && (textDeltas !== undefined || dropEvents.size > 0) && /^(data|event|:)/.test(body.trimStart())) body = trimSse(body);
  if (typeof body === 'string' && !isResponse && dropFields.size > 0 && body.trimStart().startsWith('{')) {
    const json = JSON.parse(body);
    for (const f of dropFields) delete json[f];
    body = JSON.stringify(json);
  }
  // A body written `{string: …}` keeps that form and its other keys (Ruby VCR's `encoding`); bytes stay bytes (`!!binary`).
  const wrapped = side.body && typeof side.body === 'object' && 'string' in side.body;
  side.body = wrapped ? { ...side.body, string: body } : typeof body === 'string' ? { string: body } : body;
  return side;
}

const doc = parse(readFileSync(src, 'utf8'), { schema: 'yaml-1.1', customTags: withRubyBinary });
/** Ruby VCR's list (`http_interactions`) when the file has no vcrpy one, as the importer reads it. */
const ruby = doc !== null && typeof doc === 'object' && !('interactions' in doc) && Array.isArray(doc.http_interactions);
if (!ruby && !Array.isArray(doc?.interactions)) {
  console.error(`${src}: no cassette (a cassette starts with \`interactions:\` (vcrpy) or \`http_interactions:\` (Ruby VCR))`);
  process.exit(2);
}
const interactions = (ruby ? doc.http_interactions : doc.interactions)
  .filter((_, i) => keep === undefined || keep.includes(i))
  .map(({ request, response, recorded_at }) => ({
    request: trimBody({ method: request.method, uri: request.uri, headers: pickHeaders(request.headers, ['content-type']), ...('parsed_body' in request ? { parsed_body: request.parsed_body } : { body: request.body }) }, false),
    response: trimBody({ status: response.status, headers: pickHeaders(response.headers, ['content-type', 'content-encoding', 'date']), ...('parsed_body' in response ? { parsed_body: response.parsed_body } : { body: response.body }) }, true),
    ...(ruby && recorded_at !== undefined ? { recorded_at } : {}),
  }));
const comment = `# Trimmed from ${label}\n# by scripts/trim-cassette.mjs ${rest.filter((a, i) => rest[i - 1] !== '--source' && a !== '--source').join(' ')}\n`;
const cassette = ruby ? { http_interactions: interactions, ...(doc.recorded_with === undefined ? {} : { recorded_with: doc.recorded_with }) } : { interactions, version: 1 };
writeFileSync(out, comment + stringify(cassette, { schema: 'yaml-1.1', lineWidth: 0 }));
console.error(`${out}: ${interactions.length} interaction(s), ${readFileSync(out).length} bytes`);
