/**
 * One generation exchange (request + response, as a container format hands it over) → its parsed,
 * provider-neutral form: the request and response bodies read by the parser of their API shape, an HTTP
 * failure recognised, and a fingerprint of the request history for run splitting.
 */
import { isJsonObject } from '../common/jsonValue.js';
import { clip } from '../common/text.js';
import { refusalOfErrorBody } from '../common/contextRefusal.js';
import type { FailedCall } from '../../trace/types.js';
import { parseAnthropicRequest, parseAnthropicResponse } from './anthropic.js';
import { parseBedrockRequest, parseBedrockResponse } from './bedrock.js';
import { Reader } from './bodyReader.js';
import { parseGeminiRequest, parseGeminiResponse } from './gemini.js';
import { parseCohereResponse } from './cohere.js';
import { parseChatRequest, parseChatResponse } from './openaiChat.js';
import { parseResponsesRequest, parseResponsesResponse } from './openaiResponses.js';
import type { ParsedRequest, ParsedResponse, Shape } from './parsedBodies.js';
import { assembleStream, type AssembledStream } from './stream/assemble.js';
import { checkUsageRules } from './usageRules.js';
import { isStreamBody } from './stream/events.js';

/** One model-call exchange as a container hands it over (already classified as a generation call). */
export interface GenerationExchange {
  /** Human label for notes, e.g. `interaction 3` or `line 5`. */
  label: string;
  file: string;
  line?: number;
  /** Field paths of the two bodies, e.g. `interactions[3].request.parsed_body`. */
  requestBase: string;
  responseBase: string;
  shape: Shape;
  provider: string;
  /** The provider was guessed from the body shapes (no URL): not used to split runs. */
  providerGuessed?: boolean;
  /** The provider hint is the host name: no known provider serves that host. */
  providerIsHost?: boolean;
  /** How the API was recognised, when not by its path (a gateway's own route). */
  endpointNote?: string;
  /** When the response was received (ISO 8601), from its `date` header. */
  recordedAt?: string;
  modelFromUri?: string;
  compact: boolean;
  status?: number;
  statusMessage?: string;
  request: unknown;
  /** The response body: a JSON value, or a streamed body (SSE text, event-stream bytes, an array of chunks). */
  response: unknown;
  latencyMs?: number;
  /** Time to the first token, when the container recorded it. */
  firstTokenMs?: number;
}

/** A parsed exchange: the request, and the response or the failure. */
export interface ParsedExchange {
  ex: GenerationExchange;
  req: ParsedRequest;
  res?: ParsedResponse;
  failed?: FailedCall;
  /** The response body as read: the JSON body, or the one reassembled from a stream. */
  body: unknown;
  /** The response was streamed and reassembled from its events. */
  streamed?: { framing: AssembledStream['framing']; events: number };
  fingerprint: string[];
}

export function parseExchange(ex: GenerationExchange): ParsedExchange {
  const loc = { file: ex.file, ...(ex.line !== undefined ? { line: ex.line } : {}) };
  const rq = new Reader({ ...loc, base: ex.requestBase });
  const req = parseRequest(ex, rq);
  const httpFailed = ex.status !== undefined && ex.status >= 400;
  const stream = !httpFailed && isStreamBody(ex.response) ? assembleStream(ex.shape, ex.response, new Reader({ ...loc, base: `${ex.responseBase}(reassembled stream)` })) : undefined;
  const body = stream !== undefined ? stream.body : ex.response;
  const failed = failureOf(ex, body);
  const rs = new Reader({ ...loc, base: stream !== undefined ? `${ex.responseBase}(reassembled stream)` : ex.responseBase });
  const parsed = failed ? undefined : parseResponse(ex.shape, body, rs);
  if (parsed) checkUsageRules(ex.shape, parsed.usage, body, rs);
  const res = parsed && withStreamTimings(parsed, ex, stream);
  if (res?.model !== undefined && req.fallbackModels !== undefined && req.model !== undefined && !res.model.startsWith(req.model)) {
    res.notes.push(`served by ${res.model}, one of the router's fallback models for ${req.model} (priced as ${req.model})`);
  }
  return {
    ex,
    req,
    body,
    ...(res ? { res } : {}),
    ...(failed ? { failed } : {}),
    ...(stream !== undefined ? { streamed: { framing: stream.framing, events: stream.events } } : {}),
    fingerprint: fingerprint(req),
  };
}

/** The latency and time to first token a stream (or the container) recorded, kept on the response. */
function withStreamTimings(res: ParsedResponse, ex: GenerationExchange, stream: AssembledStream | undefined): ParsedResponse {
  const latencyMs = res.latencyMs ?? stream?.latencyMs;
  const firstTokenMs = stream?.firstTokenMs ?? ex.firstTokenMs;
  const notes = [...res.notes, ...(stream?.notes ?? [])];
  const totalMs = latencyMs ?? ex.latencyMs;
  if (firstTokenMs !== undefined) notes.push(`time to first token ${firstTokenMs} ms${totalMs !== undefined ? ` of ${totalMs} ms` : ''}`);
  return { ...res, ...(latencyMs !== undefined ? { latencyMs } : {}), notes };
}

function parseRequest(ex: GenerationExchange, r: Reader): ParsedRequest {
  switch (ex.shape) {
    case 'openai-chat':
      return parseChatRequest(ex.request, r);
    case 'openai-responses':
      return parseResponsesRequest(ex.request, r);
    case 'anthropic': {
      const p = parseAnthropicRequest(ex.request, r);
      return p.model === undefined && ex.modelFromUri !== undefined ? { ...p, model: ex.modelFromUri } : p;
    }
    case 'gemini':
      return parseGeminiRequest(ex.request, r, ex.modelFromUri);
    case 'bedrock':
      return parseBedrockRequest(ex.request, r, ex.modelFromUri);
    case 'cohere':
      return parseChatRequest(ex.request, r);
  }
}

function parseResponse(shape: Shape, body: unknown, r: Reader): ParsedResponse {
  switch (shape) {
    case 'openai-chat':
      return parseChatResponse(body, r);
    case 'openai-responses':
      return parseResponsesResponse(body, r);
    case 'anthropic':
      return parseAnthropicResponse(body, r);
    case 'gemini':
      return parseGeminiResponse(body, r);
    case 'bedrock':
      return parseBedrockResponse(body, r);
    case 'cohere':
      return parseCohereResponse(body, r);
  }
}

/** HTTP status ≥ 400, or a 2xx body that is only an error object. */
function failureOf(ex: GenerationExchange, body: unknown): FailedCall | undefined {
  const blocked = geminiBlockedPrompt(body);
  if (blocked !== undefined) return { message: blocked };
  const errorOnly =
    isJsonObject(body) && body.error !== undefined && body.error !== null && !('usage' in body) && !('usageMetadata' in body);
  const httpFailed = ex.status !== undefined && ex.status >= 400;
  if (!httpFailed && !errorOnly) return undefined;
  // The provider's refusal for length (OpenAI's context_length_exceeded, Anthropic's "prompt is too long").
  const refusal = isJsonObject(body) && isJsonObject(body.error) ? refusalOfErrorBody(body.error) : undefined;
  return { ...(httpFailed ? { status: ex.status } : {}), message: errorMessage(body, ex), ...(refusal ? { contextLengthExceeded: refusal } : {}) };
}

/** Gemini refusing the prompt itself (`promptFeedback.blockReason`, no candidates): nothing was generated. */
function geminiBlockedPrompt(body: unknown): string | undefined {
  if (!isJsonObject(body) || !isJsonObject(body.promptFeedback) || typeof body.promptFeedback.blockReason !== 'string') return undefined;
  if (Array.isArray(body.candidates) && body.candidates.length > 0) return undefined;
  const why = typeof body.promptFeedback.blockReasonMessage === 'string' ? `: ${body.promptFeedback.blockReasonMessage}` : '';
  return clip(`prompt blocked (${body.promptFeedback.blockReason})${why}`, 300);
}

function errorMessage(body: unknown, ex: GenerationExchange): string {
  const parts: string[] = [];
  if (isJsonObject(body)) {
    const err = body.error;
    if (typeof err === 'string') parts.push(err);
    if (isJsonObject(err)) {
      if (typeof err.message === 'string') parts.push(err.message);
      const raw = isJsonObject(err.metadata) ? err.metadata.raw : undefined;
      if (typeof raw === 'string') parts.push(raw);
    }
    for (const key of ['message', 'Message']) {
      if (parts.length === 0 && typeof body[key] === 'string') parts.push(body[key] as string);
    }
  } else if (typeof body === 'string' && body.trim() !== '') {
    parts.push(body.trim());
  }
  if (parts.length === 0) parts.push(ex.statusMessage ?? (ex.status !== undefined ? `HTTP ${ex.status}` : 'error response'));
  return clip(parts.join(': '), 300);
}

/** Comparable form of a request history (system text first). Assistant turns compare by tool-call names only. */
function fingerprint(req: ParsedRequest): string[] {
  const norm = (s: string): string => s.replace(/\s+/g, ' ').trim();
  return [
    `system:${norm(req.system)}`,
    ...req.messages
      .filter((m) => m.role !== 'system')
      .map((m) => {
        if (m.role === 'assistant') return `assistant:${m.toolCalls.map((c) => c.name).join(',')}`;
        if (m.toolResults.length > 0) return `${m.role}:${m.toolResults.map((t) => `${t.id ?? ''}=${norm(t.text)}`).join('|')}`;
        if (m.itemIds && m.itemIds.length > 0) return `${m.role}:${m.itemIds.join(',')}`;
        return `${m.role}:${norm(m.text)}`;
      }),
  ];
}
