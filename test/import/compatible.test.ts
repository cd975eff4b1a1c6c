/**
 * Cassettes as recorded in the wild: OpenAI-compatible APIs on any host, Vertex AI and gateway paths,
 * Cohere, cassettes that mix model calls with downloads and search APIs, background Responses calls,
 * recordings of other kinds. Fixtures: real pydantic-ai cassettes (see test/fixtures/cassettes/README.md).
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { importCassette } from '../../src/import/http/cassette.js';
import { classifyEndpoint } from '../../src/import/http/detect.js';
import { providerHint } from '../../src/import/http/providerHint.js';
import { traceSchemas } from '../../src/trace/schema.js';
import type { Trace } from '../../src/trace/types.js';
import { userErrorOf } from '../helpers.js';

const { callSchema, endSchema, headerSchema } = traceSchemas();

const fixtureDir = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'cassettes');

function load(content: string, name: string): Trace[] {
  const traces = importCassette(content, name);
  for (const t of traces) {
    headerSchema.parse(t.header);
    for (const c of t.calls) callSchema.parse(c);
    endSchema.parse(t.end);
  }
  return traces;
}
const fixture = (name: string): Trace[] => load(readFileSync(join(fixtureDir, name), 'utf8'), name);

/** A one-interaction cassette. */
function cassette(uri: string, request: unknown, response: unknown, extra: { method?: string; status?: number } = {}): string {
  return stringify({
    interactions: [
      {
        request: { method: extra.method ?? 'POST', uri, body: JSON.stringify(request) },
        response: { status: { code: extra.status ?? 200, message: 'OK' }, body: { string: JSON.stringify(response) } },
      },
    ],
  });
}
const CHAT_OK = { id: 'c1', object: 'chat.completion', model: 'm', choices: [{ index: 0, message: { role: 'assistant', content: 'hi' }, finish_reason: 'stop' }], usage: { prompt_tokens: 11, completion_tokens: 2 } };

describe('OpenAI-compatible APIs on other hosts: the API from the path, the host as the provider hint', () => {
  it('Cerebras, the Hugging Face router and Ollama cloud', () => {
    const [cerebras] = fixture('compat-cerebras.yaml');
    expect(cerebras!.header).toMatchObject({ model: 'llama-3.3-70b', provider: 'cerebras' });
    expect(cerebras!.calls).toEqual([{ type: 'call', inputTokens: 43, outputTokens: 9, final: true }]);
    const [hf] = fixture('compat-huggingface-router.yaml');
    // The router's path names the upstream provider: genai-prices has it as huggingface_together.
    expect(hf!.header).toMatchObject({ model: 'deepseek-ai/DeepSeek-R1', provider: 'huggingface_together' });
    expect(hf!.calls).toEqual([{ type: 'call', inputTokens: 16, outputTokens: 216, final: true }]);
    const ollama = fixture('compat-ollama-cloud-tools.yaml');
    expect(ollama.map((t) => t.header.provider)).toEqual(['ollama.com', 'ollama.com']);
    expect(ollama[1]!.calls[0]).toMatchObject({ inputTokens: 206, outputTokens: 194, toolCalls: [{ name: 'final_result', arguments: { city: 'Paris', country: 'France' } }] });
    expect(ollama[0]!.header.importedFrom?.notes).toContain('provider hint is the host ollama.com (no known provider serves it): prices are found by model name');
  });

  it('Vertex AI publisher paths, and a gateway that names the upstream provider in its path', () => {
    const [vertex] = fixture('vertex-generate-content.yaml');
    expect(vertex!.header).toMatchObject({ model: 'gemini-2.0-flash', provider: 'google' });
    expect(vertex!.calls).toEqual([{ type: 'call', inputTokens: 13, cachedInputTokens: 0, outputTokens: 8, final: true }]);
    const [gateway] = fixture('gateway-google-vertex.yaml');
    expect(gateway!.header).toMatchObject({ model: 'gemini-2.5-flash', provider: 'google' });
    expect(gateway!.calls).toEqual([{ type: 'call', inputTokens: 7, cachedInputTokens: 0, outputTokens: 61, reasoningTokens: 53, final: true }]);
  });

  it('Cohere v2 chat: billed units, tool calls', () => {
    const [t] = fixture('cohere-v2-chat-tool.yaml');
    expect(t!.header).toMatchObject({ model: 'command-r7b-12-2024', provider: 'cohere' });
    expect(t!.calls).toEqual([{ type: 'call', inputTokens: 33, outputTokens: 22, toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris' }, resultTokens: 0 }] }]);
  });

  it('provider hints: the price table\'s host patterns, a gateway path, else the host', () => {
    const hint = (url: string) => providerHint(new URL(url));
    expect(hint('https://api.z.ai/api/paas/v4/chat/completions')).toEqual({ provider: 'zai', via: 'price-table' });
    expect(hint('https://bedrock-mantle.us-east-1.api.aws/openai/v1/responses')).toEqual({ provider: 'aws', via: 'price-table' });
    expect(hint('http://localhost:8787/anthropic/v1/messages')).toEqual({ provider: 'anthropic', via: 'gateway-path' });
    expect(hint('http://localhost:8787/bedrock/model/x/converse')).toEqual({ provider: 'aws', via: 'gateway-path' });
    expect(hint('http://localhost:11434/v1/chat/completions')).toEqual({ provider: 'localhost', via: 'host' });
    expect(hint('https://myorg.snowflakecomputing.com/api/v2/cortex/v1/chat/completions')).toEqual({ provider: 'myorg.snowflakecomputing.com', via: 'host' });
  });

  it('a route no rule names is read from a model-call request body; other POSTs are skipped', () => {
    const chat = classifyEndpoint('https://gw.example.com/llm/invoke', 'POST', { model: 'gpt-4o', messages: [] });
    expect(chat).toMatchObject({ kind: 'generation', shape: 'openai-chat', provider: 'gw.example.com', note: 'API read from the request body (openai-chat) at gw.example.com/llm/invoke' });
    expect(classifyEndpoint('https://api.tavily.com/search', 'POST', { query: 'x' })).toEqual({ kind: 'skip', reason: 'POST api.tavily.com/search (not a model call)' });
    expect(classifyEndpoint('https://api.openai.com/v1/completions', 'POST', { model: 'gpt-3.5-turbo-instruct', prompt: 'x' })).toMatchObject({ kind: 'unsupported' });
    expect(classifyEndpoint('https://bedrock-runtime.us-east-1.amazonaws.com/model/meta.llama3-70b/invoke', 'POST', { prompt: 'x' })).toMatchObject({ kind: 'unsupported' });
    expect(classifyEndpoint('https://bedrock-runtime.us-east-1.amazonaws.com/model/amazon.titan-embed-text-v2%3A0/invoke', 'POST', { inputText: 'x' })).toMatchObject({ kind: 'skip' });
  });

  it('a model call in an API loopcost does not read refuses the file, naming the interaction', () => {
    const text = cassette('https://api.openai.com/v1/completions', { model: 'gpt-3.5-turbo-instruct', prompt: 'Say hi' }, { choices: [{ text: 'hi' }], usage: { prompt_tokens: 2, completion_tokens: 1 } });
    const err = userErrorOf(() => load(text, 'legacy.yaml'));
    expect(err.issues[0]).toMatchObject({ file: 'legacy.yaml', field: 'interactions[0].request.uri', code: 'unsupported_endpoint' });
    expect(err.message).toMatch(/legacy text completions API/);
  });
});

describe('mixed cassettes', () => {
  it('a document download is skipped and listed in the run notes; the model call is kept', () => {
    const [t] = fixture('mixed-document-download.yaml');
    expect(t!.calls).toEqual([{ type: 'call', inputTokens: 713, cachedInputTokens: 0, cacheWriteTokens: 0, cacheWrite1hTokens: 0, outputTokens: 166, final: true }]);
    expect(t!.header.importedFrom?.notes).toEqual(['interaction 0: skipped GET example-files.online-convert.com/document/txt/example.txt (not a model call)']);
  });

  it('binary downloads (an image) between model calls are skipped without being decoded', () => {
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
    const text = stringify(
      {
        interactions: [
          { request: { method: 'GET', uri: 'https://www.gstatic.com/webp/gallery3/1.png', body: null }, response: { status: { code: 200, message: 'OK' }, headers: { 'content-type': ['image/png'] }, body: { string: png } } },
          { request: { method: 'POST', uri: 'https://api.openai.com/v1/chat/completions', body: JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'What is in the image?' }] }) }, response: { status: { code: 200, message: 'OK' }, body: { string: JSON.stringify(CHAT_OK) } } },
        ],
        version: 1, // (vcrpy's trailer: without it the notes say the cassette may be cut short)
      },
      { schema: 'yaml-1.1' },
    );
    const [t] = load(text, 'img.yaml');
    expect(t!.calls).toEqual([{ type: 'call', inputTokens: 11, outputTokens: 2, final: true }]);
    expect(t!.header.importedFrom?.notes).toEqual(['interaction 0: skipped GET www.gstatic.com/webp/gallery3/1.png (not a model call)']);
  });

  it('a cassette with no model call at all stays a clear refusal', () => {
    const err = userErrorOf(() => fixture('search-only-tavily.yaml'));
    expect(err.issues[0]).toMatchObject({ file: 'search-only-tavily.yaml', code: 'no_model_calls' });
    expect(err.issues[0]!.message).toBe('no model call found among its 1 exchange(s), all skipped (interaction 0: skipped POST api.tavily.com/search (not a model call))');
  });

  it('websocket and gRPC recordings are refused as not HTTP', () => {
    const ws = stringify({ version: 1, interactions: [{ kind: 'message', direction: 'received', data: { type: 'session.created' } }] });
    expect(userErrorOf(() => load(ws, 'ws.yaml')).issues[0]).toMatchObject({ file: 'ws.yaml', line: 3, field: 'interactions[0]', code: 'not_http_cassette' });
    const grpc = stringify({ interactions: [{ request_sample: { json: {} }, response_sample: { json: {} } }] });
    expect(userErrorOf(() => load(grpc, 'g.yaml')).message).toMatch(/interactions\[0\] is a gRPC message sample/);
  });
});

describe('calls whose outcome is recorded elsewhere', () => {
  it('a background Responses call takes its usage from the last finished poll', () => {
    const [t] = fixture('background-responses.yaml');
    expect(t!.calls).toEqual([{ type: 'call', inputTokens: 15, cachedInputTokens: 0, outputTokens: 9, reasoningTokens: 0, final: true }]);
    const notes = t!.header.importedFrom?.notes ?? [];
    expect(notes[0]).toMatch(/^interaction 0: background response resp_06a5\w+: its final state read from the poll in interaction 2$/);
    expect(notes.filter((n) => /poll of background response/.test(n))).toHaveLength(2);
  });

  it('a background call never seen finished is a failed call', () => {
    const queued = { id: 'resp_9', object: 'response', status: 'queued', output: [], usage: null };
    const [t] = load(cassette('https://api.openai.com/v1/responses', { model: 'gpt-4o', input: 'hi', background: true }, queued), 'q.yaml');
    expect(t!.calls[0]!.failed).toEqual({ message: 'background response resp_9 was still queued when the recording ended: usage unknown' });
  });

  it('a prompt Gemini blocked is a failed call; the OAuth token exchange before it is skipped', () => {
    const [t] = fixture('vertex-armor-blocked.yaml');
    expect(t!.calls).toEqual([{ type: 'call', inputTokens: 0, outputTokens: 0, failed: { message: 'prompt blocked (MODEL_ARMOR): The prompt violated Prompt Injection and Jailbreak filters.' } }]);
  });
});

describe('recordedAt', () => {
  it('comes from the first response date header, ISO 8601', () => {
    const [t] = fixture('dated-bedrock-converse.yaml');
    expect(t!.header.recordedAt).toBe('2026-05-14T07:44:10Z');
    expect(t!.calls).toEqual([{ type: 'call', inputTokens: 74, cachedInputTokens: 0, outputTokens: 26, latencyMs: 391, final: true }]);
  });

  it('is absent without a date header', () => {
    const [t] = load(cassette('https://api.openai.com/v1/chat/completions', { model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] }, CHAT_OK), 'n.yaml');
    expect(t!.header.recordedAt).toBeUndefined();
  });
});
