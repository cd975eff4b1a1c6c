/**
 * scripts/trim-cassette.mjs trims Ruby VCR cassettes (`http_interactions:`, bodies `{encoding, string}` often
 * `!binary`, `recorded_at`) as it trims vcrpy's: the trimmed file is still a Ruby VCR cassette, and the importer
 * reads the same runs from it. Before, the script read `interactions` alone and threw on a Ruby cassette
 * (`doc.interactions` undefined), and `--binary-bytes` cut a JSON body Ruby VCR wrote `!binary` (as it writes
 * any non-ASCII body) to its first bytes.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importCassette } from '../../src/import/http/cassette.js';
import type { Trace } from '../../src/trace/types.js';
import { tempDir } from '../cli/run.js';

const dir = join('test', 'fixtures', 'cassettes');
const RUBY = ['ruby-vcr-anthropic-tool-2-interactions.yml', 'ruby-vcr-gemini-tools.yml', 'ruby-vcr-openrouter-parallel-tools.yml'];
const out = tempDir();

/** The trimmed cassette's text, made by the script with `options`. */
function trimmed(name: string, options: string[]): string {
  const target = join(out, `${options.length}-${name}`);
  execFileSync(process.execPath, ['scripts/trim-cassette.mjs', join(dir, name), target, '--source', `fixture:${name}`, ...options], { stdio: 'pipe' });
  return readFileSync(target, 'utf8');
}

/** What the importer reads of a cassette, its source named the same. */
const runsOf = (content: string, name: string): Omit<Trace, 'source' | 'headerLine'>[] => importCassette(content, name).map(({ source: _source, headerLine: _line, ...run }) => run);

describe('scripts/trim-cassette.mjs on Ruby VCR cassettes', () => {
  it.each(RUBY)('%s: still http_interactions, with recorded_at and recorded_with; the importer reads the same runs', (name) => {
    const original = readFileSync(join(dir, name), 'utf8');
    for (const options of [[], ['--text-deltas', '2', '--binary-bytes', '100']]) {
      const text = trimmed(name, options);
      expect(text).toMatch(/^# Trimmed from fixture:/);
      expect(text).toMatch(/^http_interactions:$/m);
      expect(text).not.toMatch(/^interactions:/m);
      expect(text).toMatch(/^ {4}recorded_at: /m);
      expect(text).toMatch(/^recorded_with: VCR /m);
      expect(runsOf(text, name)).toEqual(runsOf(original, name));
    }
  });

  it('keeps a `!binary` body whole and as bytes, its encoding beside it', () => {
    const text = trimmed('ruby-vcr-gemini-tools.yml', ['--binary-bytes', '100']);
    expect(text).toMatch(/encoding: ASCII-8BIT\n {8}string: !!binary/);
  });
});
