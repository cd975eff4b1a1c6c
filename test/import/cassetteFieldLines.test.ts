/**
 * What a damaged cassette is told: a bad field on its own line (the line the YAML node is on, not the line
 * its interaction starts on), a self-referencing anchor's path cut short as the scenario reader cuts it, an
 * alias bomb before `interactions:` held to the alias limit (it was "not a trace format loopcost reads"),
 * and a cassette of no interactions said to have none (`{"interactions":[]}` was not read as a cassette).
 * Damaged copies of test/fixtures/cassettes/openai-chat-tool-retry.yaml.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { detectFormat } from '../../src/import/formats.js';
import { importText } from '../../src/import/importText.js';
import { userErrorOf } from '../helpers.js';

const PATH = 'test/fixtures/cassettes/openai-chat-tool-retry.yaml';
const TEXT = readFileSync(PATH, 'utf8');
/** Line 86 holds the first response's `completion_tokens: 17`; interaction 0 starts on line 2. */
const COMPLETION_LINE = 86;

function withLine(line: number, text: string): string {
  const lines = TEXT.split('\n');
  lines[line - 1] = text;
  return lines.join('\n');
}

function issuesOf(text: string) {
  return userErrorOf(() => importText(text, PATH)).issues;
}

describe('a bad field of a cassette is placed on its own line', () => {
  it('(the fixture holds the field on that line)', () => expect(TEXT.split('\n')[COMPLETION_LINE - 1]).toBe('        completion_tokens: 17'));
  for (const value of ['-17', '"17"', '.inf']) {
    it(`completion_tokens: ${value}`, () => {
      const [issue] = issuesOf(withLine(COMPLETION_LINE, `        completion_tokens: ${value}`));
      expect(issue).toMatchObject({ file: PATH, line: COMPLETION_LINE, field: 'interactions[0].response.parsed_body.usage.completion_tokens' });
    });
  }
});

describe('aliases and anchors', () => {
  it('a self-referencing anchor: the path is cut short, with its depth', () => {
    const text = TEXT.replace('      host:\n      - api.openai.com\n', '      host: &h\n      - *h\n');
    const [issue] = issuesOf(text);
    expect(issue!.code).toBe('too_deep');
    expect(issue!.field).toMatch(/^interactions\[0\]\.request…\[0\] \(\d+ levels\)$/);
    expect(issue!.field!.length).toBeLessThan(60);
  });

  it('an alias bomb before interactions: is a cassette held to the alias limit', () => {
    const bomb = ['x: &a [1,1,1,1,1,1,1,1,1,1]', ...'bcdefgh'.split('').map((key, i) => `${key}: &${key} [${Array(10).fill(`*${i === 0 ? 'a' : 'bcdefgh'[i - 1]}`).join(',')}]`)];
    const text = `${bomb.join('\n')}\n${TEXT}`;
    expect(detectFormat(text, PATH)).toBe('cassette');
    expect(issuesOf(text).map((issue) => issue.code)).toEqual(['too_many_aliases']);
  });
});

describe('a cassette of no interactions', () => {
  for (const text of ['{"interactions":[]}\n', 'interactions: []\n']) {
    it(JSON.stringify(text), () => {
      expect(issuesOf(text)).toEqual([
        { file: PATH, line: 1, field: 'interactions', code: 'empty', message: 'the cassette has no interactions: it recorded no exchange', hint: expect.any(String) },
      ]);
    });
  }

  it('a cassette written as JSON reads as its YAML does', () => {
    const json = JSON.stringify(parse(TEXT), null, 2);
    expect(detectFormat(json, PATH)).toBe('cassette');
    expect(importText(json, PATH).map((run) => run.calls)).toEqual(importText(TEXT, PATH).map((run) => run.calls));
  });
});
