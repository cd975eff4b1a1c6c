/**
 * A cassette cut short (`head -c`, a partial download) is refused as looking truncated, never billed as
 * if whole: a cut inside a response's usage read its last call with a token count cut off too, and the
 * interactions after it were silently gone. Two signs: the file stops mid-line without the trailer a
 * recorder writes last (vcrpy's `version: 1`, Ruby VCR's `recorded_with:`), or a response has no status
 * (vcrpy and Ruby VCR write one for every response; pydantic-ai's cassettes write it after the body).
 * Whole cassettes, and hand-written ones without a trailer that end with a line break, still read.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { UserError } from '../../src/errors.js';
import { importText } from '../../src/import/importText.js';
import { userErrorOf } from '../helpers.js';

const VCRPY = 'test/fixtures/cassettes/vertex-generate-content.yaml';
const RUBY = 'test/fixtures/cassettes/ruby-vcr-anthropic-tool-2-interactions.yml';

function lineCount(text: string): number {
  return text.split('\n').length;
}

describe('a cassette cut short', () => {
  it('a cut inside usageMetadata is refused at the line it stops on, naming the missing trailer', () => {
    const text = readFileSync(VCRPY, 'utf8');
    const cut = text.slice(0, text.indexOf('candidatesTokenCount: 8') + 'candidatesTokenCount: '.length);
    const err = userErrorOf(() => importText(cut, VCRPY));
    expect(err.issues[0]).toMatchObject({ file: VCRPY, line: lineCount(cut), field: 'version', code: 'truncated' });
    expect(err.message).toMatch(/stops mid-line, without the trailer .*`version: 1`.*looks cut short/);
  });

  it('every cut of a vcrpy or a Ruby VCR cassette that stops mid-line is a UserError, never a trace', () => {
    for (const path of [VCRPY, RUBY]) {
      const text = readFileSync(path, 'utf8');
      const trailer = Math.max(text.lastIndexOf('\nversion:'), text.lastIndexOf('\nrecorded_with:'));
      expect(trailer).toBeGreaterThan(0);
      // A cut inside the trailer itself loses nothing.
      for (let end = 1; end <= trailer; end += 3) {
        if (text[end - 1] === '\n') continue;
        let threw: unknown;
        try {
          importText(text.slice(0, end), path);
        } catch (error) {
          threw = error;
        }
        expect(threw, `${path} cut at byte ${end}`).toBeInstanceOf(UserError);
      }
    }
  });

  it('a response with no status is refused as looking truncated, at its line', () => {
    const lines = readFileSync(VCRPY, 'utf8').split('\n');
    expect(lines.slice(20, 23).map((l) => l.trim())).toEqual(['status:', 'code: 200', 'message: OK']);
    const text = [...lines.slice(0, 20), ...lines.slice(23)].join('\n');
    const err = userErrorOf(() => importText(text, VCRPY));
    expect(err.issues[0]).toMatchObject({ file: VCRPY, line: 21, field: 'interactions[0].response.status', code: 'truncated' });
    expect(err.message).toMatch(/the response has no status: the cassette looks cut short/);
  });

  it('whole cassettes read; so does one without a trailer that ends with a line break, and one written as JSON', () => {
    expect(importText(readFileSync(VCRPY, 'utf8'), VCRPY)[0]!.calls).toHaveLength(1);
    expect(importText(readFileSync(RUBY, 'utf8'), RUBY).length).toBeGreaterThan(0);
    const noTrailer = readFileSync(VCRPY, 'utf8').replace(/version: 1\n$/, '');
    expect(noTrailer.endsWith('ON_DEMAND\n')).toBe(true);
    expect(importText(noTrailer, VCRPY)[0]!.calls).toHaveLength(1);
    const json = JSON.stringify({ interactions: (parse(noTrailer) as { interactions: unknown }).interactions });
    expect(importText(json, 'c.json')[0]!.calls).toHaveLength(1);
  });
});
