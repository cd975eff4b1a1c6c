/**
 * Token counts are computed only for text a trace records without a count, once per distinct text: the
 * cache in src/import/tokenCount.ts, seen through the number of tokenizer passes.
 */
import { readFileSync } from 'node:fs';
import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it } from 'vitest';
import { loadTraceFile } from '../../src/import/index.js';
import { importText } from '../../src/import/importText.js';
import { countTokens, countTokensWith, tokenizerCallCount } from '../../src/import/tokenCount.js';

/** The tokenizer passes `work` makes. */
function passesOf(work: () => void): number {
  const before = tokenizerCallCount();
  work();
  return tokenizerCallCount() - before;
}

describe('token counts cached per distinct text', () => {
  it('each distinct text goes through the tokenizer once, with the same count every time', () => {
    const texts = ['cache test: alpha beta', 'cache test: gamma', `cache test long ${'x y z '.repeat(100)}`];
    const counts: number[][] = [];
    const passes = passesOf(() => {
      for (let round = 0; round < 3; round++) counts.push(texts.map((text) => countTokens(text, 'gpt-4o')));
    });
    expect(passes).toBe(texts.length);
    const exact = texts.map((text) => encode(text, { disallowedSpecial: new Set() }).length);
    for (const round of counts) expect(round).toEqual(exact);
  });

  it('long texts of the same length, and one text under two encodings, are counted apart', () => {
    const a = `cache test same length ${'a'.repeat(400)}`;
    const b = `cache test same length ${'b'.repeat(400)}`;
    expect(passesOf(() => [a, b, a, b].forEach((text) => countTokensWith(text, 'o200k_base')))).toBe(2);
    expect(passesOf(() => countTokensWith(a, 'cl100k_base'))).toBe(1);
  });

  it('importing the same OTLP trace again counts no text again, and gives the same runs', () => {
    const path = 'test/fixtures/otel/three-step-tool-error.json';
    // Tool results no other test file reads: test files may share a worker and its token cache.
    const text = readFileSync(path, 'utf8').replaceAll('No such file or directory', 'No such file (tokenCountCache.test)').replaceAll('port: 8080', 'port: 8181');
    let first: unknown;
    let second: unknown;
    expect(passesOf(() => (first = importText(text, path)))).toBeGreaterThan(0);
    expect(passesOf(() => (second = importText(text, path)))).toBe(0);
    expect(second).toEqual(first);
  });

  it('runs that record their token counts (native traces) go through no tokenizer', async () => {
    const before = tokenizerCallCount();
    const runs = await loadTraceFile('scenarios/long-exploration.jsonl');
    expect(runs.length).toBeGreaterThan(0);
    expect(tokenizerCallCount() - before).toBe(0);
  });
});
