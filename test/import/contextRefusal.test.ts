/**
 * Importers map a provider's refusal of a prompt past the window (docs/trace-format.md
 * `failed.contextLengthExceeded`) where the log records the provider's words for it — and only there:
 * HTTP exchanges (OpenAI's 400 `context_length_exceeded`, Anthropic's 400 invalid_request_error "prompt is
 * too long"), mini-swe-agent (LiteLLM's ContextWindowExceededError ending the run), Claude Code ("Prompt is
 * too long"), OTel spans (the error's text). The imported run replays to `provider_refused`; a refusal the
 * run went on after is kept a plain failed call; other errors are no refusal.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { NO_BRAKES } from '../../src/brakes/config.js';
import { importExchangesJsonl } from '../../src/import/http/exchanges.js';
import { importText } from '../../src/import/importText.js';
import { importMiniSweAgent } from '../../src/import/miniSweAgent.js';
import { replayTrace } from '../../src/replay/replay.js';
import type { Trace } from '../../src/trace/types.js';
import { tempDir } from '../cli/run.js';
import { MINI_TABLE } from '../helpers.js';

const replayed = (trace: Trace) => replayTrace({ ...trace, header: { ...trace.header, model: 'mini' } }, { brakes: NO_BRAKES, strategy: { kind: 'full' }, prices: MINI_TABLE });
const jsonl = (...records: unknown[]) => records.map((r) => JSON.stringify(r)).join('\n') + '\n';

const CHAT_URL = 'https://api.openai.com/v1/chat/completions';
const GOAL = { role: 'user', content: 'List the files.' };
const CALL = { id: 'call_1', type: 'function', function: { name: 'ls', arguments: '{"path": "."}' } };
const toolTurn = [GOAL, { role: 'assistant', tool_calls: [CALL] }, { role: 'tool', tool_call_id: 'call_1', content: 'x'.repeat(400) }];
const answered = { url: CHAT_URL, request: { model: 'gpt-4o-mini', messages: [GOAL] }, response: { id: 'c', object: 'chat.completion', model: 'gpt-4o-mini', choices: [{ index: 0, message: { role: 'assistant', content: null, tool_calls: [CALL] }, finish_reason: 'tool_calls' }], usage: { prompt_tokens: 50, completion_tokens: 12 } } };
const OPENAI_REFUSAL = {
  error: {
    message: "This model's maximum context length is 128000 tokens. However, you requested 130096 tokens (126000 in the messages, 4096 in the completion). Please reduce the length of the messages or completion.",
    type: 'invalid_request_error',
    param: 'messages',
    code: 'context_length_exceeded',
  },
};

describe('HTTP exchanges', () => {
  it("OpenAI's 400 context_length_exceeded: a refused call with the numbers, no usage; the run replays to provider_refused", () => {
    const [t] = importExchangesJsonl(jsonl(answered, { url: CHAT_URL, status: 400, request: { model: 'gpt-4o-mini', messages: toolTurn }, response: OPENAI_REFUSAL }), 'o.jsonl');
    expect(t!.calls[1]).toEqual({ type: 'call', outputTokens: 0, failed: { status: 400, message: expect.stringContaining('maximum context length'), contextLengthExceeded: { promptTokens: 126000, maxOutputTokens: 4096, contextWindowTokens: 128000 } } });
    const run = replayed(t!);
    expect([run.stopReason, run.steps, run.failedCalls, run.stopDetail]).toEqual(['provider_refused', 1, 1, 'the provider refused the call: prompt of 126000 tokens + max_tokens 4096 > context window 128000']);
  });

  it("Anthropic's 400 invalid_request_error \"prompt is too long\"; its input + max_tokens words too", () => {
    const anthropic = (message: string) => ({ url: 'https://api.anthropic.com/v1/messages', status: 400, request: { model: 'claude-sonnet-4-5', max_tokens: 8192, messages: [{ role: 'user', content: 'hi' }] }, response: { type: 'error', error: { type: 'invalid_request_error', message } } });
    const [a] = importExchangesJsonl(jsonl(anthropic('prompt is too long: 210000 tokens > 200000 maximum')), 'a.jsonl');
    expect(a!.calls[0]!.failed!.contextLengthExceeded).toEqual({ promptTokens: 210000, contextWindowTokens: 200000 });
    const [b] = importExchangesJsonl(jsonl(anthropic('input length and `max_tokens` exceed context limit: 188240 + 21333 > 200000, decrease input length or `max_tokens` and try again')), 'b.jsonl');
    expect(b!.calls[0]!.failed!.contextLengthExceeded).toEqual({ promptTokens: 188240, maxOutputTokens: 21333, contextWindowTokens: 200000 });
    expect(replayed(b!).stopReason).toBe('provider_refused');
  });

  it('another 400 is no refusal; a refusal the run went on after (a retry) is kept a plain failed call, said in the notes', () => {
    const other = { url: CHAT_URL, status: 400, request: { model: 'gpt-4o-mini', messages: toolTurn }, response: { error: { message: "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.", type: 'invalid_request_error', code: null } } };
    const [o] = importExchangesJsonl(jsonl(answered, other), 'x.jsonl');
    expect(o!.calls[1]!.failed!.contextLengthExceeded).toBeUndefined();
    expect(o!.calls[1]!.inputTokens).toBe(0);
    const refused = { url: CHAT_URL, status: 400, request: { model: 'gpt-4o-mini', messages: toolTurn }, response: OPENAI_REFUSAL };
    const retried = { ...answered, request: { model: 'gpt-4o-mini', messages: toolTurn } };
    const [r] = importText(jsonl(answered, refused, retried), join(tempDir(), 'r.jsonl'));
    expect(r!.calls.map((call) => call.failed?.contextLengthExceeded)).toEqual([undefined, undefined, undefined]);
    expect(r!.calls[1]!.failed!.message).toContain('maximum context length');
    expect(r!.header.importedFrom!.notes).toContain('call 2: the provider refused it for its length, but the run went on: kept as a plain failed call');
  });
});

describe('mini-swe-agent', () => {
  const path = '../shared/traces/mini-swe-agent/deepseek_reasoner_dev/pvlib__pvlib-python-1072.traj.json.gz';
  const withExit = (exception: string) => {
    const json = JSON.parse(gunzipSync(readFileSync(path)).toString('utf8'));
    const exit = json.messages.at(-1);
    exit.content = exit.extra.exception_str = exception;
    json.info.exit_status = exit.extra.exit_status = /litellm\.(\w+)/.exec(exception)![1];
    return importMiniSweAgent(JSON.stringify(json), 'run.traj.json')[0]!;
  };

  it("LiteLLM's ContextWindowExceededError ending the run: the last call is the refusal; the run replays to provider_refused", () => {
    const t = withExit("litellm.ContextWindowExceededError: litellm.BadRequestError: ContextWindowExceededError: DeepseekException - This model's maximum context length is 65536 tokens. However, you requested 70000 tokens (66000 in the messages, 4000 in the completion).");
    expect(t.calls.at(-1)).toEqual({ type: 'call', outputTokens: 0, failed: { status: 400, message: expect.stringContaining('ContextWindowExceededError'), contextLengthExceeded: { promptTokens: 66000, maxOutputTokens: 4000, contextWindowTokens: 65536 } } });
    const run = replayTrace(t, { brakes: NO_BRAKES, strategy: { kind: 'full' }, prices: MINI_TABLE, pricing: MINI_TABLE.resolve('mini') });
    expect([run.stopReason, run.steps]).toEqual(['provider_refused', t.calls.length - 1]);
  });

  it('the shared runs that ended on a server error are no refusal', () => {
    const t = importMiniSweAgent(gunzipSync(readFileSync(path)).toString('utf8'), path)[0]!;
    expect(t.calls.at(-1)!.failed).toMatchObject({ status: 500 });
    expect(t.calls.at(-1)!.failed!.contextLengthExceeded).toBeUndefined();
  });
});

describe('Claude Code and OTel', () => {
  it('Claude Code\'s "Prompt is too long" API-error message ends its run refused', () => {
    const base = { sessionId: 's-2', cwd: '/w', version: '2.1.39', userType: 'external', isSidechain: false };
    const text = [
      { ...base, type: 'user', uuid: 'u1', timestamp: '2026-01-01T10:00:00.000Z', message: { role: 'user', content: 'hi' } },
      { ...base, type: 'assistant', uuid: 'a1', timestamp: '2026-01-01T10:00:04.000Z', message: { model: 'claude-sonnet-4-5-20250929', id: 'msg_1', role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'Read', input: { file_path: 'a' } }], usage: { input_tokens: 10, output_tokens: 4 } } },
      { ...base, type: 'user', uuid: 'u2', timestamp: '2026-01-01T10:00:05.000Z', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'x' }] } },
      { ...base, type: 'assistant', uuid: 'a2', timestamp: '2026-01-01T10:00:06.000Z', isApiErrorMessage: true, error: 'invalid_request', message: { model: '<synthetic>', id: 'x-1', role: 'assistant', content: [{ type: 'text', text: 'Prompt is too long' }], usage: { input_tokens: 0, output_tokens: 0 } } },
    ]
      .map((line) => JSON.stringify(line))
      .join('\n');
    const [run] = importText(text, join(tempDir(), 's-2.jsonl'));
    expect(run!.calls.at(-1)).toMatchObject({ type: 'call', outputTokens: 0, failed: { message: 'Prompt is too long', contextLengthExceeded: {} } });
    expect(run!.calls.at(-1)!.inputTokens).toBeUndefined();
    const result = replayed(run!);
    expect([result.stopReason, result.stopDetail]).toEqual(['provider_refused', 'the provider refused the call for its length (none of its numbers recorded)']);
  });

  it("an OTel chat span that failed with OpenAI's context_length_exceeded (the exception's text) is the refusal", () => {
    const span = (spanId: string, attributes: unknown[], status: Record<string, unknown> = {}) => {
      const start = spanId === 'a' ? 0n : 2n;
      return { traceId: 't1', spanId, name: 'chat gpt-4o', startTimeUnixNano: String(1_760_000_000_000_000_000n + start * 1_000_000_000n), endTimeUnixNano: String(1_760_000_001_000_000_000n + start * 1_000_000_000n), attributes, status };
    };
    const attr = (key: string, value: Record<string, unknown>) => ({ key, value });
    const chat = [attr('gen_ai.operation.name', { stringValue: 'chat' }), attr('gen_ai.request.model', { stringValue: 'gpt-4o' })];
    const doc = JSON.stringify({
      resourceSpans: [{ scopeSpans: [{ spans: [
        span('b', [...chat, attr('error.type', { stringValue: 'openai.BadRequestError' })], { code: 2, message: `Error code: 400 - ${JSON.stringify(OPENAI_REFUSAL)}` }),
      ] }] }],
    });
    const [run] = importText(doc, 'otel.json');
    expect(run!.calls.at(-1)!.failed!.contextLengthExceeded).toEqual({ promptTokens: 126000, maxOutputTokens: 4096, contextWindowTokens: 128000 });
    expect([replayed(run!).stopReason, replayed(run!).steps]).toEqual(['provider_refused', 0]);
  });
});
