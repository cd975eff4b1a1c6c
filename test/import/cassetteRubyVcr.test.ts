/**
 * Ruby VCR cassettes (`http_interactions:`, `recorded_at`, `!binary` bodies) are read like vcrpy's.
 * Fixtures: test/fixtures/cassettes/ruby-vcr-*.yml (crmne/ruby_llm; sources in that folder's README).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { detectFormat } from '../../src/import/formats.js';
import { importCassette } from '../../src/import/http/cassette.js';
import { readCassetteYaml } from '../../src/import/http/cassetteYaml.js';
import { importText } from '../../src/import/importText.js';
import type { Trace } from '../../src/trace/types.js';
import { cli } from '../cli/run.js';
import { userErrorOf } from '../helpers.js';

const dir = join('test', 'fixtures', 'cassettes');
const EXCERPT = 'ruby-vcr-anthropic-tool-2-interactions.yml';
const text = (name: string): string => readFileSync(join(dir, name), 'utf8');
const load = (name: string, content = text(name)): Trace[] => importCassette(content, name);

describe('a Ruby VCR cassette (http_interactions)', () => {
  it('is recognised as a cassette, not refused as an unknown format', () => {
    expect(detectFormat(text(EXCERPT), EXCERPT)).toBe('cassette');
    expect(importText(text(EXCERPT), EXCERPT)).toHaveLength(1);
  });

  it('imports the anthropic excerpt: 2 calls, 633/75 then 748/42, a tool call, no cache', () => {
    const [t, more] = load(EXCERPT);
    expect(more).toBeUndefined();
    expect(t!.header).toMatchObject({ model: 'claude-haiku-4-5-20251001', provider: 'anthropic', importedFrom: { format: 'vcr-cassette' } });
    expect(t!.calls.map((c) => [c.inputTokens, c.outputTokens, c.cachedInputTokens, c.cacheWriteTokens])).toEqual([
      [633, 75, 0, 0],
      [748, 42, 0, 0],
    ]);
    expect(t!.calls[0]!.toolCalls).toEqual([{ name: 'weather', arguments: { latitude: '52.5200', longitude: '13.4050' }, resultTokens: expect.any(Number) }]);
    expect(t!.calls[1]!.final).toBe(true);
    expect(t!.end).toMatchObject({ outcome: 'completed', recordedCalls: 2 });
  });

  it('is dated by recorded_at, also when the response has no date header', () => {
    expect(load(EXCERPT)[0]!.header.recordedAt).toBe('2026-08-19T14:34:39Z');
    const undated = text(EXCERPT).replace(/^ {6}Date:\n {6}- .*\n/gm, '');
    expect(undated).not.toMatch(/Date:/);
    expect(load(EXCERPT, undated)[0]!.header.recordedAt).toBe('2026-08-19T14:34:39Z');
  });

  it('is priced as of the day it was recorded', async () => {
    const json = JSON.parse((await cli('replay', join(dir, EXCERPT), '--format', 'json')).stdout) as { prices: { note: string } };
    expect(json.prices.note).toBe('1 run priced as of the day recorded (2026-08-19)');
  });

  it('names Ruby field paths and lines in its errors', () => {
    const broken = text(EXCERPT).replace('code: 200', 'code: 2000');
    const err = userErrorOf(() => load(EXCERPT, broken));
    expect(err.issues[0]).toMatchObject({ field: 'http_interactions[0].response.status.code', line: 15, code: 'wrong_type' });
  });
});

describe('Ruby VCR !binary bodies (base64, ASCII-8BIT)', () => {
  it('are read as bytes, like !!binary', () => {
    const yaml = readCassetteYaml('http_interactions:\n- response:\n    body:\n      string: !binary |-\n        eyJhIjoxfQ==\n', 'b.yml');
    const body = ((yaml.data as { http_interactions: { response: { body: { string: unknown } } }[] }).http_interactions[0]!.response.body.string);
    expect(body).toBeInstanceOf(Uint8Array);
    expect(Buffer.from(body as Uint8Array).toString('utf8')).toBe('{"a":1}');
  });

  it('Gemini generateContent: thoughts, a function call', () => {
    const [t] = load('ruby-vcr-gemini-tools.yml');
    expect(t!.header).toMatchObject({ model: 'gemini-2.5-flash', provider: 'google', recordedAt: '2026-08-19T14:34:20Z' });
    expect(t!.calls.map((c) => [c.inputTokens, c.outputTokens, c.reasoningTokens ?? 0])).toEqual([
      [103, 136, 106],
      [190, 21, 0],
    ]);
    expect(t!.calls[0]!.toolCalls?.map((c) => c.name)).toEqual(['weather']);
  });

  it("OpenRouter chat: parallel tool calls and OpenRouter's recorded cost", () => {
    const [t] = load('ruby-vcr-openrouter-parallel-tools.yml');
    expect(t!.header).toMatchObject({ model: 'anthropic/claude-haiku-4.5', provider: 'openrouter', recordedAt: '2026-06-08T18:46:35Z' });
    expect(t!.calls.map((c) => [c.inputTokens, c.outputTokens, c.recordedCostUsd])).toEqual([
      [701, 98, 0.001191],
      [893, 83, 0.001308],
    ]);
    expect(t!.calls[0]!.toolCalls?.map((c) => c.name)).toEqual(['weather', 'best_language_to_learn']);
  });
});
