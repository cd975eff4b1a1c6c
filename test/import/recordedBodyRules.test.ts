/**
 * Recorded HTTP exchanges (JSONL of exchanges, VCR cassettes) held to the rules the other readers hold
 * their input to, through `loopcost import` (exit 2, the file, line and the source's own field):
 *   - a JSON key given twice (JSON.parse keeps the last silently) is refused wherever JSON sits: an exchange
 *     line, a cassette's body string, an SSE event, an AWS event-stream payload or a Bedrock chunk's event;
 *   - a YAML key given twice in a cassette is named at its field, as a scenario file's is;
 *   - usage that breaks a rule every call obeys (cached tokens past the prompt) is named at the body's field
 *     and the exchange's line, not at the converted trace's `calls[0].cachedInputTokens`.
 */
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { tempDir } from '../cli/run.js';
import { importRefused } from './importRefused.js';
import { bedrockCassette } from './eventStreamBytes.js';

const dir = tempDir();

/** `loopcost import` of `text` written as `name`: its stderr (the directory left out), after checking it exits 2. */
const refused = (name: string, text: string | Buffer): Promise<string> => importRefused(dir, name, text);

const CHAT_URL = 'https://api.openai.com/v1/chat/completions';
const REQUEST = '{"model":"gpt-4o","messages":[{"role":"user","content":"hi"}]}';
const CHOICES = '"choices":[{"message":{"role":"assistant","content":"hello"},"finish_reason":"stop"}]';

/** One OpenAI chat exchange line whose response's usage is `usage` (JSON text, written as given). */
function chatLine(usage: string): string {
  return `{"url":"${CHAT_URL}","status":200,"request":${REQUEST},"response":{"id":"x","model":"gpt-4o",${CHOICES},"usage":${usage}}}\n`;
}

const REPEAT_HINT = 'keep the one you mean and delete the other, or record the exchange again: JSON readers keep only the last of a repeated key, silently';

describe('a JSON key given twice', () => {
  it('on an exchange line: refused at its line and field (it was read as the last value, exit 0)', async () => {
    const line = chatLine('{"prompt_tokens":10,"completion_tokens":5,"total_tokens":15,"prompt_tokens":100000}');
    expect(await refused('hx8.jsonl', `${chatLine('{"prompt_tokens":10,"completion_tokens":5}')}${line}`)).toBe(
      `loopcost: hx8.jsonl:line 2 field 'response.usage.prompt_tokens': key "prompt_tokens" is given twice in the same object (keep the one you mean and delete the other: JSON readers keep only the last of a repeated key, silently)\n`,
    );
  });

  it('in an SSE event of a streamed response', async () => {
    const sse = [
      'data: {"id":"x","model":"gpt-4o","choices":[{"index":0,"delta":{"role":"assistant","content":"hello"},"finish_reason":null}]}',
      '',
      'data: {"id":"x","model":"gpt-4o","choices":[{"index":0,"delta":{},"finish_reason":"stop"}],"usage":{"prompt_tokens":10,"completion_tokens":5,"completion_tokens":1}}',
      '',
      'data: [DONE]',
      '',
    ].join('\n');
    const line = `${JSON.stringify({ url: CHAT_URL, status: 200, request: JSON.parse(REQUEST), response: sse })}\n`;
    expect(await refused('sse.jsonl', line)).toBe(
      `loopcost: sse.jsonl:line 1 field 'response(reassembled stream)': stream event at line 3 of the body: key "completion_tokens" is given twice in the same object (at usage.completion_tokens) (${REPEAT_HINT})\n`,
    );
  });

  it("in a cassette's body string: at the field inside the body", async () => {
    const body = `{"id":"x","model":"gpt-4o",${CHOICES},"usage":{"prompt_tokens":10,"completion_tokens":5,"prompt_tokens":9}}`;
    const cassette = stringify({ interactions: [{ request: { method: 'POST', uri: CHAT_URL, body: REQUEST }, response: { status: { code: 200, message: 'OK' }, headers: {}, body: { string: body } } }], version: 1 });
    expect(await refused('body.yaml', cassette)).toBe(
      `loopcost: body.yaml:line 2 field 'interactions[0].response.body.string.usage.prompt_tokens': key "prompt_tokens" is given twice in the same object (in the body string) (${REPEAT_HINT})\n`,
    );
  });


  it('in an AWS event-stream payload, and in the base64 event a Bedrock chunk carries', async () => {
    const event = Buffer.from('{"type":"message_start","message":{"usage":{"input_tokens":1,"input_tokens":2}}}').toString('base64');
    const STREAM = "'interactions[0].response.body(reassembled stream)'";
    expect(await refused('payload.yaml', bedrockCassette([`{"bytes":"${event}","bytes":"${event}"}`]))).toBe(
      `loopcost: payload.yaml:line 2 field ${STREAM}: event-stream message 0: key "bytes" is given twice in the same object (at bytes) (${REPEAT_HINT})\n`,
    );
    expect(await refused('chunk.yaml', bedrockCassette([`{"bytes":"${event}"}`]))).toBe(
      `loopcost: chunk.yaml:line 2 field ${STREAM}: event-stream chunk 0's base64 event: key "input_tokens" is given twice in the same object (at message.usage.input_tokens) (${REPEAT_HINT})\n`,
    );
  });
});

describe('a YAML key given twice in a cassette', () => {
  it('is named at its full field, not as `interactions`', async () => {
    const usage = { promptTokenCount: 10, candidatesTokenCount: 5 };
    const response = { candidates: [{ content: { role: 'model', parts: [{ text: 'hello' }] }, finishReason: 'STOP' }], usageMetadata: usage, modelVersion: 'gemini-2.0-flash' };
    const request = { method: 'POST', uri: 'https://generativelanguage.googleapis.com/v1beta/models/gemini-2.0-flash:generateContent', parsed_body: { contents: [{ role: 'user', parts: [{ text: 'hi' }] }] } };
    const cassette = stringify({ interactions: [{ request, response: { status: { code: 200, message: 'OK' }, headers: {}, parsed_body: response } }], version: 1 });
    const twice = cassette.replace(/^( +)candidatesTokenCount: 5$/m, '$1candidatesTokenCount: 5\n$1candidatesTokenCount: 7');
    const line = twice.split('\n').findIndex((l) => l.includes('candidatesTokenCount: 7')) + 1;
    expect(await refused('dup.yaml', twice)).toBe(
      `loopcost: dup.yaml:line ${line} field 'interactions[0].response.parsed_body.usageMetadata.candidatesTokenCount': key "candidatesTokenCount" is given twice in the same mapping (keep the one you mean and delete the other: YAML readers differ on which one counts)\n`,
    );
  });
});

describe("usage that breaks a call's rules: named at the body's own field and line", () => {
  const RULES_HINT = 'the counts look corrupted or made up: check the file, or export the run again';

  it('OpenAI chat: cached tokens past the prompt', async () => {
    const usage = '{"prompt_tokens":10,"completion_tokens":5,"total_tokens":15,"prompt_tokens_details":{"cached_tokens":50}}';
    expect(await refused('hx2.jsonl', `${chatLine('{"prompt_tokens":10,"completion_tokens":5}')}${chatLine(usage)}`)).toBe(
      `loopcost: hx2.jsonl:line 2 field 'response.usage.prompt_tokens_details.cached_tokens': cached tokens (50) exceed the input tokens (10) they are part of (${RULES_HINT})\n`,
    );
  });

  it("DeepSeek's prompt_cache_hit_tokens, and reasoning past the output, at their own fields", async () => {
    expect(await refused('ds.jsonl', chatLine('{"prompt_tokens":10,"completion_tokens":5,"prompt_cache_hit_tokens":11}'))).toContain(
      "ds.jsonl:line 1 field 'response.usage.prompt_cache_hit_tokens': cached tokens (11) exceed",
    );
    expect(await refused('rs.jsonl', chatLine('{"prompt_tokens":10,"completion_tokens":5,"completion_tokens_details":{"reasoning_tokens":6}}'))).toContain(
      "rs.jsonl:line 1 field 'response.usage.completion_tokens_details.reasoning_tokens': reasoning tokens (6) exceed",
    );
  });

  it('Anthropic: 1-hour cache writes past all cache writes', async () => {
    const response = {
      id: 'msg_1',
      type: 'message',
      role: 'assistant',
      model: 'claude-sonnet-4-5',
      content: [{ type: 'text', text: 'hello' }],
      stop_reason: 'end_turn',
      usage: { input_tokens: 5, output_tokens: 3, cache_creation_input_tokens: 10, cache_creation: { ephemeral_1h_input_tokens: 40 } },
    };
    const line = JSON.stringify({ url: 'https://api.anthropic.com/v1/messages', status: 200, request: { model: 'claude-sonnet-4-5', max_tokens: 100, messages: [{ role: 'user', content: 'hi' }] }, response });
    expect(await refused('an.jsonl', `${line}\n`)).toContain("an.jsonl:line 1 field 'response.usage.cache_creation_input_tokens': cache read (0) + cache write (40) tokens exceed the input tokens (15)");
  });
});
