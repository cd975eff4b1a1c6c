/**
 * Which provider API an HTTP exchange talks to: from the URI when there is one, else from the body shapes.
 *
 * Skipped (not generation endpoints; each skip is recorded in the trace notes, never silent):
 *   - JSON-RPC bodies (MCP server traffic: initialize, tools/list, tools/call, notifications) on any host;
 *   - any non-POST request to a provider host (model lists, cache/file retrieval or deletion);
 *   - Gemini `cachedContents` (context-cache create/update), `:countTokens`, `:embedContent`,
 *     `:batchEmbedContents`, `files`/`upload`;
 *   - Anthropic `/v1/messages/count_tokens`, `/v1/models`, `/v1/files`;
 *   - OpenAI-style `/embeddings`, `/moderations`, `/models`, `/files`, `/uploads`, `/audio/`, `/images/`,
 *     `/vector_stores`, `/responses/input_tokens`.
 * A provider host with any other path (legacy completions, batches, streaming variants) is an
 * `unsupported` endpoint (UserError); an unknown host is `unknown` (UserError "unknown cassette provider").
 */
import { isJsonObject } from '../common/jsonValue.js';
import { bedrockModelFromPath } from './bedrock.js';
import type { Shape } from './parsedBodies.js';

/** Provider ids follow @pydantic/genai-prices (`aws` is Bedrock). */
const HOSTS: { pattern: RegExp; provider: string }[] = [
  { pattern: /^api\.openai\.com$/, provider: 'openai' },
  { pattern: /(^|\.)openrouter\.ai$/, provider: 'openrouter' },
  { pattern: /^api\.groq\.com$/, provider: 'groq' },
  { pattern: /^api\.deepseek\.com$/, provider: 'deepseek' },
  { pattern: /^api\.anthropic\.com$/, provider: 'anthropic' },
  { pattern: /(^|\.)googleapis\.com$/, provider: 'google' },
  { pattern: /^bedrock-runtime(-fips)?\.[a-z0-9-]+\.amazonaws\.com$/, provider: 'aws' },
  { pattern: /(openai\.azure\.com|azure-api\.net|cognitiveservices\.azure\.com|services\.ai\.azure\.com)$/, provider: 'azure' },
  { pattern: /^api\.mistral\.ai$/, provider: 'mistral' },
  { pattern: /^api\.together\.xyz$/, provider: 'together' },
  { pattern: /^api\.fireworks\.ai$/, provider: 'fireworks' },
];

export const KNOWN_HOSTS = [
  'api.openai.com',
  'openrouter.ai',
  'api.groq.com',
  'api.deepseek.com',
  'api.anthropic.com',
  '*.googleapis.com',
  'bedrock-runtime.<region>.amazonaws.com',
  '*.openai.azure.com',
  'api.mistral.ai',
  'api.together.xyz',
  'api.fireworks.ai',
];

export type Endpoint =
  | { kind: 'generation'; shape: Shape; provider: string; host: string; modelFromUri?: string; compact: boolean }
  | { kind: 'skip'; reason: string }
  | { kind: 'unsupported'; host: string; reason: string }
  | { kind: 'unknown'; host: string };

export function isJsonRpc(body: unknown): boolean {
  return isJsonObject(body) && body.jsonrpc === '2.0';
}

export function classifyEndpoint(uri: string, method: string | undefined, requestBody: unknown): Endpoint {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return { kind: 'unknown', host: uri };
  }
  const host = url.hostname.toLowerCase();
  const path = url.pathname.replace(/\/+$/, '');
  if (isJsonRpc(requestBody)) {
    return { kind: 'skip', reason: `MCP/JSON-RPC ${String((requestBody as Record<string, unknown>).method ?? 'message')} to ${host}` };
  }
  const provider = HOSTS.find((h) => h.pattern.test(host))?.provider;
  if (provider === undefined) return { kind: 'unknown', host };
  const verb = (method ?? 'POST').toUpperCase();
  if (verb !== 'POST') return { kind: 'skip', reason: `${verb} ${host}${path} (not a generation call)` };
  const gen = (shape: Shape, extra: { modelFromUri?: string; compact?: boolean } = {}): Endpoint => ({
    kind: 'generation',
    shape,
    provider,
    host,
    compact: extra.compact ?? false,
    ...(extra.modelFromUri !== undefined ? { modelFromUri: extra.modelFromUri } : {}),
  });
  const skip = (what: string): Endpoint => ({ kind: 'skip', reason: `${what}: ${host}${path} (not a generation call)` });

  if (provider === 'google') {
    const model = /\/models\/([^/:]+):/.exec(path)?.[1];
    if (/:generateContent$/.test(path)) return gen('gemini', model !== undefined ? { modelFromUri: model } : {});
    if (/:(rawPredict)$/.test(path) && isJsonObject(requestBody) && 'anthropic_version' in requestBody) {
      return gen('anthropic', model !== undefined ? { modelFromUri: model } : {});
    }
    if (/\/cachedContents/.test(path)) return skip('context-cache management');
    if (/:(countTokens|embedContent|batchEmbedContents)$/.test(path)) return skip('token count / embedding');
    if (/\/(files|upload)(\/|$)/.test(path)) return skip('file upload');
    return { kind: 'unsupported', host, reason: `unsupported Google endpoint ${path} (streaming or batch?)` };
  }
  if (provider === 'aws') {
    const model = bedrockModelFromPath(`${path}/`);
    if (/\/converse$/.test(path)) return gen('bedrock', model !== undefined ? { modelFromUri: model } : {});
    if (/\/invoke$/.test(path) && isJsonObject(requestBody) && 'anthropic_version' in requestBody) {
      return gen('anthropic', model !== undefined ? { modelFromUri: model } : {});
    }
    return { kind: 'unsupported', host, reason: `unsupported Bedrock endpoint ${path} (only /converse and Anthropic /invoke)` };
  }
  if (provider === 'anthropic') {
    if (/\/v1\/messages$/.test(path)) return gen('anthropic');
    if (/\/v1\/messages\/count_tokens$/.test(path)) return skip('token count');
    if (/\/v1\/(models|files)(\/|$)/.test(path)) return skip('model list / file upload');
    return { kind: 'unsupported', host, reason: `unsupported Anthropic endpoint ${path}` };
  }
  // OpenAI and OpenAI-compatible hosts.
  if (/\/chat\/completions$/.test(path)) return gen('openai-chat');
  if (/\/responses\/compact$/.test(path)) return gen('openai-responses', { compact: true });
  if (/\/responses$/.test(path)) return gen('openai-responses');
  if (/\/responses\/input_tokens$/.test(path)) return skip('token count');
  if (/\/(embeddings|moderations|models|files|uploads|audio|images|vector_stores)(\/|$)/.test(path)) {
    return skip('non-generation endpoint');
  }
  return { kind: 'unsupported', host, reason: `unsupported endpoint ${path} (only /chat/completions and /responses)` };
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
  // Error responses: decide from the request.
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

function chatProviderGuess(res: Record<string, unknown>): string {
  const usage = isJsonObject(res.usage) ? res.usage : {};
  if ('x_groq' in res) return 'groq';
  if ('prompt_cache_hit_tokens' in usage) return 'deepseek';
  if ('cost' in usage || (typeof res.provider === 'string' && typeof res.model === 'string' && res.model.includes('/'))) {
    return 'openrouter';
  }
  return 'openai';
}
