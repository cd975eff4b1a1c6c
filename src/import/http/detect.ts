/**
 * Which API an HTTP exchange speaks, read from the request path and body — never from the host, so that
 * OpenAI-compatible providers (Cerebras, Hugging Face, Ollama, z.ai, a self-hosted gateway) and Vertex AI
 * paths are read like the originals. The host only gives the provider hint (providerHint.ts).
 *
 * Model calls, by path (any host, any prefix):
 *   …/chat/completions → Chat Completions; …/responses (…/responses/compact) → Responses;
 *   …/messages with a `messages` body → Anthropic Messages; …/models/<m>:generateContent and
 *   :streamGenerateContent (Gemini API and Vertex AI `/v1beta1/projects/…/publishers/google/models/…`);
 *   :rawPredict / :streamRawPredict and Bedrock …/invoke(-with-response-stream) with an Anthropic body;
 *   Bedrock …/model/<id>/converse and /converse-stream; Cohere …/v2/chat.
 * A path no rule names is a model call when its request body has a model-call shape (detectRequestShape).
 *
 * A GET of `…/responses/<id>` is a `poll`: the later state of a background Responses call (see
 * backgroundPolls.ts).
 * Skipped (each skip is recorded in the run's notes, never silent): MCP JSON-RPC traffic, any non-POST
 * request (downloads of images, PDFs, web pages; model lists; deletions), and POSTs that are not model
 * calls — embeddings, token counts, files and uploads, caches, moderation, conversations, realtime session
 * set-up, search APIs and anything else whose body is not a model call.
 * Refused (`unsupported`): model calls in an API loopcost does not read (legacy text completions, Bedrock
 * invoke of a non-Anthropic model), since skipping them would under-count the run.
 */
import { isJsonObject } from '../common/jsonValue.js';
import { bedrockModelFromPath } from './bedrock.js';
import type { Shape } from './parsedBodies.js';
import { providerHint, type ProviderHint } from './providerHint.js';
import type { StreamEvent } from './stream/events.js';

export type Endpoint =
  | { kind: 'generation'; shape: Shape; provider: string; providerVia: ProviderHint['via']; host: string; modelFromUri?: string; compact: boolean; note?: string }
  | { kind: 'skip'; reason: string }
  /** A GET of a Responses API response by id: the later state of a background (`background: true`) call. */
  | { kind: 'poll'; responseId: string; reason: string }
  | { kind: 'unsupported'; host: string; reason: string };

/** A generation endpoint as an exchange's fields: its API, provider and how they were recognised. */
export function endpointFields(ep: Extract<Endpoint, { kind: 'generation' }>): {
  shape: Shape;
  provider: string;
  providerIsHost?: true;
  compact: boolean;
  modelFromUri?: string;
  endpointNote?: string;
} {
  return {
    shape: ep.shape,
    provider: ep.provider,
    ...(ep.providerVia === 'host' ? { providerIsHost: true as const } : {}),
    compact: ep.compact,
    ...(ep.modelFromUri !== undefined ? { modelFromUri: ep.modelFromUri } : {}),
    ...(ep.note !== undefined ? { endpointNote: ep.note } : {}),
  };
}

export function isJsonRpc(body: unknown): boolean {
  return isJsonObject(body) && body.jsonrpc === '2.0';
}

/** POST paths that are not model calls (matched after the model-call paths). */
const NON_GENERATION: { pattern: RegExp; what: string }[] = [
  { pattern: /(\/responses\/input_tokens|\/messages\/count_tokens|:countTokens|\/count-tokens|\/tokenize|\/detokenize)$/i, what: 'token count' },
  { pattern: /(\/embeddings?|:embedContent|:batchEmbedContents|:predict|\/rerank)$/i, what: 'embedding' },
  { pattern: /\/cachedContents(\/|$)/i, what: 'context-cache management' },
  { pattern: /\/(files|uploads?|fileSearchStores|vector_stores)(\/|:|$)/i, what: 'file or store management' },
  { pattern: /\/(models|moderations|conversations|batches|fine_tuning|audio|images)(\/|$)/i, what: 'non-generation endpoint' },
  { pattern: /\/realtime\//i, what: 'realtime session set-up (the session itself is not HTTP)' },
];

export function classifyEndpoint(uri: string, method: string | undefined, requestBody: unknown): Endpoint {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return { kind: 'skip', reason: `request to ${uri} (not a URL)` };
  }
  const host = url.hostname.toLowerCase();
  const path = url.pathname.replace(/\/+$/, '');
  const where = `${host}${path}`;
  if (isJsonRpc(requestBody)) {
    return { kind: 'skip', reason: `MCP/JSON-RPC ${String((requestBody as Record<string, unknown>).method ?? 'message')} to ${host}` };
  }
  const verb = (method ?? 'POST').toUpperCase();
  const polled = /\/responses\/(resp_[A-Za-z0-9]+)$/.exec(path)?.[1];
  if (verb === 'GET' && polled !== undefined) return { kind: 'poll', responseId: polled, reason: `poll of background response ${polled}` };
  if (verb !== 'POST') return { kind: 'skip', reason: `${verb} ${where} (not a model call)` };
  return postEndpoint({ host, path, where, hint: providerHint(url) }, isJsonObject(requestBody) ? requestBody : {});
}

/** Where a POST went: its host, path (no trailing slash), both as one string, and the provider hint of its URL. */
interface PostTarget {
  host: string;
  path: string;
  where: string;
  hint: ProviderHint;
}

/** A generation endpoint at `to` speaking `shape`. */
type Generation = (shape: Shape, extra?: { modelFromUri?: string | undefined; compact?: boolean; note?: string }) => Endpoint;

/** Generation endpoints at `to`: the provider from its hint, the host; a model named by the path, a compaction, a note when given. */
function generationAt(to: PostTarget): Generation {
  return (shape, extra = {}) => ({
    kind: 'generation',
    shape,
    provider: to.hint.provider,
    providerVia: to.hint.via,
    host: to.host,
    compact: extra.compact ?? false,
    ...(extra.modelFromUri !== undefined ? { modelFromUri: extra.modelFromUri } : {}),
    ...(extra.note !== undefined ? { note: extra.note } : {}),
  });
}

/**
 * A POST with request body `req`: a model call by the rule of its path (modelCallByPath); else a path of no
 * model call skipped, a legacy text completion refused, a model call by its body's shape, or skipped.
 */
function postEndpoint(to: PostTarget, req: Record<string, unknown>): Endpoint {
  const { host, path, where } = to;
  const gen = generationAt(to);
  const byPath = modelCallByPath(to, req, gen);
  if (byPath !== undefined) return byPath;
  const known = NON_GENERATION.find((n) => n.pattern.test(path));
  if (known !== undefined) return { kind: 'skip', reason: `${known.what}: ${where} (not a model call)` };
  if (/\/completions$/i.test(path) && 'prompt' in req) {
    return { kind: 'unsupported', host, reason: `legacy text completions API ${path} (only chat/completions, responses, messages, generateContent, converse)` };
  }
  const byBody = detectRequestShape(req);
  if (byBody !== undefined) return gen(byBody, { note: `API read from the request body (${byBody}) at ${where}` });
  return { kind: 'skip', reason: `POST ${where} (not a model call)` };
}

/** The endpoint a model-call path names (Bedrock invoke of a body loopcost does not read: skipped or refused), else undefined. */
function modelCallByPath({ host, path, where }: PostTarget, req: Record<string, unknown>, gen: Generation): Endpoint | undefined {
  const anthropicBody = 'anthropic_version' in req && Array.isArray(req.messages);
  if (/\/chat\/completions$/i.test(path)) return gen('openai-chat');
  if (/\/responses\/compact$/i.test(path)) return gen('openai-responses', { compact: true });
  if (/\/responses$/i.test(path)) return gen('openai-responses');
  if (/\/v1\/messages$/i.test(path) || (/\/messages$/i.test(path) && Array.isArray(req.messages))) return gen('anthropic');
  const googleModel = /\/models\/([^/:]+):[A-Za-z]+$/.exec(path)?.[1];
  if (/:(stream)?generateContent$/i.test(path)) return gen('gemini', { modelFromUri: googleModel });
  if (/:(stream)?rawPredict$/i.test(path) && anthropicBody) return gen('anthropic', { modelFromUri: googleModel });
  const bedrockModel = bedrockModelFromPath(`${path}/`);
  if (/\/model\/[^/]+\/converse(-stream)?$/i.test(path)) return gen('bedrock', { modelFromUri: bedrockModel });
  if (/\/model\/[^/]+\/invoke(-with-response-stream)?$/i.test(path)) {
    if (anthropicBody) return gen('anthropic', { modelFromUri: bedrockModel });
    if (isEmbeddingBody(req)) return { kind: 'skip', reason: `embedding: ${where} (not a model call)` };
    return { kind: 'unsupported', host, reason: `Bedrock invoke of ${bedrockModel ?? 'a model'} with a body loopcost does not read (only Anthropic bodies; or use /converse)` };
  }
  if (/\/v2\/chat$/i.test(path) && Array.isArray(req.messages)) return gen('cohere');
  return undefined;
}

function isEmbeddingBody(req: Record<string, unknown>): boolean {
  return ['inputText', 'texts', 'inputImage', 'embeddingConfig', 'taskType', 'images'].some((k) => k in req);
}

/** The API of a model-call request body on a path no rule names (a gateway's own route), else undefined. */
function detectRequestShape(req: Record<string, unknown>): Shape | undefined {
  if (typeof req.model !== 'string' && !Array.isArray(req.contents)) return undefined;
  if (Array.isArray(req.contents)) return 'gemini';
  if (Array.isArray(req.messages)) return 'anthropic_version' in req || typeof req.system === 'string' ? 'anthropic' : 'openai-chat';
  if ('input' in req && ('instructions' in req || 'previous_response_id' in req || Array.isArray(req.input))) return 'openai-responses';
  return undefined;
}

/**
 * Body-shape detection for exchanges without a URL. Returns the shape and a provider guess, or undefined
 * when the bodies fit no known API.
 */
export function detectShape(request: unknown, response: unknown): { shape: Shape; provider: string } | undefined {
  const res = isJsonObject(response) ? response : {};
  const req = isJsonObject(request) ? request : {};
  if (Array.isArray(res.choices) || res.object === 'chat.completion') {
    return { shape: 'openai-chat', provider: chatProviderGuess(res) };
  }
  if (res.object === 'response' || res.object === 'response.compaction' || (Array.isArray(res.output) && isJsonObject(res.usage) && 'input_tokens' in res.usage)) {
    return { shape: 'openai-responses', provider: 'openai' };
  }
  if (res.type === 'message' && Array.isArray(res.content)) return { shape: 'anthropic', provider: 'anthropic' };
  if (Array.isArray(res.candidates) || isJsonObject(res.usageMetadata)) return { shape: 'gemini', provider: 'google' };
  if (isJsonObject(res.output) && isJsonObject(res.usage) && 'inputTokens' in res.usage) return { shape: 'bedrock', provider: 'aws' };
  if (isJsonObject(res.message) && isJsonObject(res.usage) && 'billed_units' in res.usage) return { shape: 'cohere', provider: 'cohere' };
  // Error responses and streamed bodies: decide from the request.
  if (Array.isArray(req.contents)) return { shape: 'gemini', provider: 'google' };
  if ('input' in req || 'instructions' in req || 'previous_response_id' in req) return { shape: 'openai-responses', provider: 'openai' };
  if (Array.isArray(req.messages)) {
    if ('anthropic_version' in req || typeof req.system === 'string' || (Array.isArray(req.system) && 'max_tokens' in req)) {
      return { shape: 'anthropic', provider: 'anthropic' };
    }
    const blocks = req.messages.flatMap((m) => (isJsonObject(m) && Array.isArray(m.content) ? m.content : []));
    if (blocks.some((b) => isJsonObject(b) && (b.type === 'tool_use' || b.type === 'tool_result'))) {
      return { shape: 'anthropic', provider: 'anthropic' };
    }
    if (blocks.some((b) => isJsonObject(b) && ('toolUse' in b || 'toolResult' in b))) return { shape: 'bedrock', provider: 'aws' };
    return { shape: 'openai-chat', provider: 'openai' };
  }
  return undefined;
}

/** The API of a streamed response body (no URL), from its events' names and chunk shapes. */
export function detectStreamShape(events: StreamEvent[]): { shape: Shape; provider: string } | undefined {
  const names = new Set(events.map((e) => e.name ?? ''));
  if (names.has('message_start') || names.has('content_block_delta')) return { shape: 'anthropic', provider: 'anthropic' };
  if ([...names].some((n) => n.startsWith('response.'))) return { shape: 'openai-responses', provider: 'openai' };
  if (names.has('messageStart') || names.has('contentBlockDelta') || names.has('metadata')) return { shape: 'bedrock', provider: 'aws' };
  const chunks = events.map((e) => e.data).filter(isJsonObject);
  if (chunks.some((c) => Array.isArray(c.candidates) || isJsonObject(c.usageMetadata))) return { shape: 'gemini', provider: 'google' };
  if (chunks.some((c) => Array.isArray(c.choices))) {
    const last = [...chunks].reverse().find((c) => isJsonObject(c.usage)) ?? chunks[0] ?? {};
    return { shape: 'openai-chat', provider: chatProviderGuess({ ...last, ...(chunks.some((c) => 'x_groq' in c) ? { x_groq: {} } : {}) }) };
  }
  return undefined;
}

function chatProviderGuess(res: Record<string, unknown>): string {
  const usage = isJsonObject(res.usage) ? res.usage : {};
  if ('x_groq' in res) return 'groq';
  if ('prompt_cache_hit_tokens' in usage) return 'deepseek';
  if ('cost' in usage || (typeof res.provider === 'string' && typeof res.model === 'string' && res.model.includes('/'))) {
    return 'openrouter';
  }
  return 'openai';
}
