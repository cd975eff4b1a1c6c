/**
 * One generation exchange (request + response, as a container format hands it over) → its parsed,
 * provider-neutral form: the request and response bodies read by the parser of their API shape, an HTTP
 * failure recognised, and a fingerprint of the request history for run splitting.
 */
import { isJsonObject } from '../common/jsonValue.js';
import { clip } from '../common/text.js';
import { parseAnthropicRequest, parseAnthropicResponse } from './anthropic.js';
import { parseBedrockRequest, parseBedrockResponse } from './bedrock.js';
import { Reader } from './bodyReader.js';
import { parseGeminiRequest, parseGeminiResponse } from './gemini.js';
import { parseChatRequest, parseChatResponse } from './openaiChat.js';
import { parseResponsesRequest, parseResponsesResponse } from './openaiResponses.js';
import type { ParsedRequest, ParsedResponse, Shape } from './parsedBodies.js';

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
  modelFromUri?: string;
  compact: boolean;
  status?: number;
  statusMessage?: string;
  request: unknown;
  response: unknown;
  latencyMs?: number;
}

/** A parsed exchange: the request, and the response or the failure. */
export interface ParsedExchange {
  ex: GenerationExchange;
  req: ParsedRequest;
  res?: ParsedResponse;
  failed?: { status?: number; message: string };
  fingerprint: string[];
}

export function parseExchange(ex: GenerationExchange): ParsedExchange {
  const rq = new Reader({ file: ex.file, ...(ex.line !== undefined ? { line: ex.line } : {}), base: ex.requestBase });
  const rs = new Reader({ file: ex.file, ...(ex.line !== undefined ? { line: ex.line } : {}), base: ex.responseBase });
  if (isJsonObject(ex.request) && ex.request.stream === true) {
    rq.fail(
      'stream',
      'unsupported_streaming',
      'streamed responses are not supported',
      'record the agent with stream=false (the response body must be one JSON object with usage)',
    );
  }
  const req = parseRequest(ex, rq);
  const failed = failureOf(ex);
  const res = failed ? undefined : parseResponse(ex, rs);
  return { ex, req, ...(res ? { res } : {}), ...(failed ? { failed } : {}), fingerprint: fingerprint(req) };
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
  }
}

function parseResponse(ex: GenerationExchange, r: Reader): ParsedResponse {
  switch (ex.shape) {
    case 'openai-chat':
      return parseChatResponse(ex.response, r);
    case 'openai-responses':
      return parseResponsesResponse(ex.response, r);
    case 'anthropic':
      return parseAnthropicResponse(ex.response, r);
    case 'gemini':
      return parseGeminiResponse(ex.response, r);
    case 'bedrock':
      return parseBedrockResponse(ex.response, r);
  }
}

/** HTTP status ≥ 400, or a 2xx body that is only an error object. */
function failureOf(ex: GenerationExchange): { status?: number; message: string } | undefined {
  const body = ex.response;
  const errorOnly =
    isJsonObject(body) && body.error !== undefined && body.error !== null && !('usage' in body) && !('usageMetadata' in body);
  if ((ex.status === undefined || ex.status < 400) && !errorOnly) return undefined;
  return { ...(ex.status !== undefined ? { status: ex.status } : {}), message: errorMessage(body, ex) };
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
