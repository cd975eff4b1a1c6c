/**
 * A run of provider exchanges whose container gives no time (a cassette whose recorder filtered the `date`
 * header out, as pydantic-ai's in ../shared do; a JSONL exchange log) is dated by its responses' own
 * creation time (src/import/http/responseTime.ts), so it is priced as of the day it ran: an o3 call of
 * 2025-06-01 (before o3's price cut of 2025-06-10) was priced as of the table's release day, "1 run has no
 * recording date". A cassette's `date` header still dates first; an Anthropic body, which has no time, leaves
 * the run undated.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importCassette } from '../../src/import/http/cassette.js';
import { importExchangesJsonl } from '../../src/import/http/exchanges.js';
import { cli, tempDir } from '../cli/run.js';

/** 2025-06-01T10:00:00Z in unix seconds. */
const JUNE_1 = 1_748_772_000;
const CHAT_URL = 'https://api.openai.com/v1/chat/completions';
const request = { model: 'o3', messages: [{ role: 'user', content: 'Sum the invoices.' }] };
const usage = { prompt_tokens: 11_400, completion_tokens: 360, total_tokens: 11_760 };
const chatBody = (created?: number) => ({
  id: 'chatcmpl-1',
  object: 'chat.completion',
  ...(created === undefined ? {} : { created }),
  model: 'o3',
  choices: [{ index: 0, message: { role: 'assistant', content: '42' }, finish_reason: 'stop' }],
  usage,
});
const line = (response: unknown, url = CHAT_URL, req: unknown = request) => `${JSON.stringify({ url, request: req, response })}\n`;
const recordedAt = (text: string, importer = importExchangesJsonl) => importer(text, 'run.jsonl')[0]!.header.recordedAt;

describe('exchanges dated by their responses', () => {
  it("a Chat Completions body's created, a streamed one's chunks, a Responses body's created_at, a Vertex createTime", () => {
    expect(recordedAt(line(chatBody(JUNE_1)))).toBe('2025-06-01T10:00:00Z');
    const chunks = [
      { id: 'c', object: 'chat.completion.chunk', created: JUNE_1 + 5, model: 'o3', choices: [{ index: 0, delta: { role: 'assistant', content: '42' } }] },
      { id: 'c', object: 'chat.completion.chunk', created: JUNE_1 + 5, model: 'o3', choices: [{ index: 0, delta: {}, finish_reason: 'stop' }], usage },
    ];
    expect(recordedAt(line(chunks, CHAT_URL, { ...request, stream: true }))).toBe('2025-06-01T10:00:05Z');
    const responses = { id: 'resp_1', object: 'response', created_at: JUNE_1 + 60, status: 'completed', model: 'o3', output: [{ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: '42' }] }], usage: { input_tokens: 100, output_tokens: 5, total_tokens: 105 } };
    expect(recordedAt(line(responses, 'https://api.openai.com/v1/responses', { model: 'o3', input: 'Sum the invoices.' }))).toBe('2025-06-01T10:01:00Z');
    const vertex = 'https://us-central1-aiplatform.googleapis.com/v1/projects/p/locations/us-central1/publishers/google/models/gemini-2.5-flash:generateContent';
    const gemini = { candidates: [{ content: { role: 'model', parts: [{ text: '42' }] }, finishReason: 'STOP' }], usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 1, totalTokenCount: 11 }, modelVersion: 'gemini-2.5-flash', createTime: '2025-06-01T10:02:00.250Z' };
    const contents = { contents: [{ role: 'user', parts: [{ text: 'Sum the invoices.' }] }] };
    expect(recordedAt(line(gemini, vertex, contents))).toBe('2025-06-01T10:02:00.250Z');
    expect(recordedAt(line([gemini], vertex.replace(':generateContent', ':streamGenerateContent'), contents))).toBe('2025-06-01T10:02:00.250Z');
  });

  it('no time (an Anthropic body, created 0 or past the year 9999) leaves the run undated', () => {
    const anthropic = { id: 'msg_1', type: 'message', role: 'assistant', model: 'claude-sonnet-4-5', content: [{ type: 'text', text: '42' }], stop_reason: 'end_turn', usage: { input_tokens: 10, output_tokens: 1 } };
    expect(recordedAt(line(anthropic, 'https://api.anthropic.com/v1/messages', { model: 'claude-sonnet-4-5', max_tokens: 100, messages: request.messages }))).toBeUndefined();
    expect(recordedAt(line(chatBody(0)))).toBeUndefined();
    expect(recordedAt(line(chatBody(253_402_300_800)))).toBeUndefined();
  });

  it("a cassette's date header dates before the body's created", () => {
    const cassette = (headers: string) =>
      `interactions:\n- request:\n    method: POST\n    uri: ${CHAT_URL}\n    body: '${JSON.stringify(request)}'\n  response:\n    status: {code: 200, message: OK}\n${headers}    body: {string: '${JSON.stringify(chatBody(JUNE_1))}'}\nversion: 1\n`;
    expect(recordedAt(cassette(''), importCassette)).toBe('2025-06-01T10:00:00Z');
    expect(recordedAt(cassette("    headers: {date: ['Tue, 03 Jun 2025 08:00:00 GMT']}\n"), importCassette)).toBe('2025-06-03T08:00:00Z');
  });

  it('a dated o3 run is priced as of its day, as --prices-as-of 2025-06-01 prices it, with no "no recording date"', async () => {
    const dir = tempDir();
    const dated = join(dir, 'dated.jsonl');
    const undated = join(dir, 'undated.jsonl');
    writeFileSync(dated, line(chatBody(JUNE_1)));
    writeFileSync(undated, line(chatBody()));
    const cost = async (...argv: string[]) => {
      const r = await cli('replay', ...argv);
      expect(r.code, r.stderr).toBe(0);
      return { cost: /total cost\s+(\S+)/.exec(r.stdout)![1], stdout: r.stdout.replace(/\s+/g, ' ') };
    };
    const own = await cost(dated);
    expect(own.cost).toBe((await cost(dated, '--prices-as-of', '2025-06-01')).cost);
    expect(own.stdout).not.toContain('no recording date');
    const releaseDay = await cost(undated);
    expect(releaseDay.stdout).toContain('1 run has no recording date');
    expect(releaseDay.cost).not.toBe(own.cost);
  });
});
