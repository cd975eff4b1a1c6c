/**
 * Token counting hands no tokenizer a pre-token longer than MAX_PIECE_CHARS (src/import/tokenPieces.ts):
 * the tokenizers' BPE is quadratic in a pre-token's length (a 300 KB run of `x` never finished). Asserted on
 * structure (what the counting function is handed), never on time; ordinary texts count exactly as the
 * tokenizers count them.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import anthropicTokenizer from '@anthropic-ai/tokenizer';
import { countTokens as cl100kCount } from 'gpt-tokenizer/encoding/cl100k_base';
import { countTokens as o200kCount } from 'gpt-tokenizer/encoding/o200k_base';
import { Cl100KBase } from 'gpt-tokenizer/encodingParams/cl100k_base';
import { O200KBase } from 'gpt-tokenizer/encodingParams/o200k_base';
import { describe, expect, it } from 'vitest';
import { countTokensWith, preTokenPattern, tokenizerCallCount, type EncodingName } from '../../src/import/tokenCount.js';
import { MAX_PIECE_CHARS, countInPieces } from '../../src/import/tokenPieces.js';
import { sharedTexts } from './sharedTexts.js';

const ENCODINGS: EncodingName[] = ['cl100k_base', 'o200k_base', 'claude'];
const PLAIN = { disallowedSpecial: new Set<string>() };
const claudeTokenizer = anthropicTokenizer.getTokenizer();
/** The tokenizers' own counts of a whole text, in one pass. */
const RAW: Record<EncodingName, (text: string) => number> = {
  cl100k_base: (text) => cl100kCount(text, PLAIN),
  o200k_base: (text) => o200kCount(text, PLAIN),
  claude: (text) => claudeTokenizer.encode(text.normalize('NFKC'), 'all').length,
};

function longestPreToken(text: string, pattern: RegExp): number {
  let longest = 0;
  for (const match of text.matchAll(pattern)) longest = Math.max(longest, match[0].length);
  return longest;
}

/** The pieces `countInPieces` hands its counting function for `text`. */
function piecesOf(text: string, encoding: EncodingName): string[] {
  const pieces: string[] = [];
  countInPieces(text, { splitPattern: preTokenPattern(encoding), countPiece: (piece) => (pieces.push(piece), 1) });
  return pieces;
}

const MB = 1 << 20;
const LONG_RUNS: Record<string, string> = {
  'x run': 'x'.repeat(MB),
  '= run after a word': `hello ${'='.repeat(MB)} world`,
  'space run': ' '.repeat(MB),
  'digit run': '7'.repeat(MB),
  // Three code units a unit: cuts every MAX_PIECE_CHARS from the end would fall inside surrogate pairs.
  'emoji and sign run (surrogate pairs)': `(${'😀!'.repeat(MB / 3)}`,
  'newline run': `a${'\n'.repeat(MB)}b`,
  'two-letter run': 'ab'.repeat(MB / 2 - 3),
  'tool output with a run': `<returncode>0</returncode><output>${'x'.repeat(300_000)}</output>`,
};

describe('token counting in pieces: no pre-token longer than MAX_PIECE_CHARS reaches a tokenizer', () => {
  it("the split patterns are the tokenizers' own", () => {
    expect(String(preTokenPattern('cl100k_base'))).toBe(String(Cl100KBase([]).tokenSplitRegex));
    expect(String(preTokenPattern('o200k_base'))).toBe(String(O200KBase([]).tokenSplitRegex));
    const claudeJson = createRequire(import.meta.url).resolve('@anthropic-ai/tokenizer/dist/cjs/claude.json');
    const { pat_str: claudePattern } = JSON.parse(readFileSync(claudeJson, 'utf8')) as { pat_str: string };
    expect(preTokenPattern('claude').source).toBe(claudePattern);
    for (const encoding of ENCODINGS) expect(preTokenPattern(encoding).flags).toMatch(/^(?=.*g)(?=.*u)/);
  });

  it.each(Object.entries(LONG_RUNS))('%s: every piece is short, the pieces are the text, few are distinct', (_name, text) => {
    for (const encoding of ENCODINGS) {
      const pieces = piecesOf(text, encoding);
      expect(pieces.join('') === text, `${encoding}: the pieces, in order, are the text`).toBe(true);
      // A run of one unit is the same piece again and again: the count cache makes it one tokenizer pass.
      const distinct = [...new Set(pieces)];
      expect(distinct.length, encoding).toBeLessThanOrEqual(4);
      // Every piece is one of the distinct ones: each is looked at once.
      const longest = Math.max(...distinct.map((piece) => longestPreToken(piece, preTokenPattern(encoding))));
      expect(longest, encoding).toBeLessThanOrEqual(MAX_PIECE_CHARS);
      for (const piece of distinct) expect(piece.charCodeAt(0) >= 0xdc00 && piece.charCodeAt(0) <= 0xdfff, 'a lone low surrogate').toBe(false);
    }
  });

  it('mixed scripts, signs and spaces, with pieces of at most 9 characters: no longer pre-token gets through', () => {
    // Small pieces put the cheap pre-check (runs of one kind, non-ASCII joining any) and the cuts to work
    // on every kind of pre-token: letters with a prefix, digits, signs then newlines, whitespace.
    const alphabet = ['a', 'Z', 'é', '中', '1', '٣', ' ', '\u00a0', '\n', '\r', '\t', '!', '—', '😀', "'", 's', 'ﬁ'];
    let seed = 12345;
    const next = (): number => (seed = (seed * 1103515245 + 12345) % 2147483648);
    for (let round = 0; round < 2000; round++) {
      let text = '';
      while (text.length < 40) text += (alphabet[next() % alphabet.length] ?? 'a').repeat(1 + (next() % 8));
      for (const encoding of ENCODINGS) {
        const pattern = preTokenPattern(encoding);
        const pieces: string[] = [];
        countInPieces(text, { splitPattern: pattern, maxPieceChars: 9, countPiece: (piece) => (pieces.push(piece), 1) });
        expect(pieces.join('') === text).toBe(true);
        for (const piece of pieces) expect(longestPreToken(piece, pattern), `${encoding} ${JSON.stringify(piece)}`).toBeLessThanOrEqual(9);
      }
    }
  });

  it('a 1 MB run of one character costs a few tokenizer passes, each of at most MAX_PIECE_CHARS characters', () => {
    for (const encoding of ENCODINGS) {
      const text = `${encoding} ${'x'.repeat(MB)}`;
      const before = tokenizerCallCount();
      const count = countTokensWith(text, encoding);
      expect(tokenizerCallCount() - before, encoding).toBeLessThanOrEqual(4);
      // The run is the pre-token ` xxx…x`, cut from its end: MB / MAX_PIECE_CHARS pieces of `x` and a space.
      const piece = countTokensWith('x'.repeat(MAX_PIECE_CHARS), encoding);
      expect(count, encoding).toBe(countTokensWith(encoding, encoding) + countTokensWith(' ', encoding) + (MB / MAX_PIECE_CHARS) * piece);
    }
  });

  it('a long run is counted within ±2 tokens per piece of the whole-text count (Claude whitespace ±3)', () => {
    for (const encoding of ENCODINGS) {
      for (const unit of ['x', '=', '_', '.', 'ab', '7', ' ', ' \n', '😀']) {
        for (const context of ['', 'hello ', '(']) {
          const run = unit.repeat(Math.ceil(2600 / unit.length)).slice(0, 2600);
          const text = `${context}${run} world`;
          const pieces = Math.ceil(run.length / MAX_PIECE_CHARS);
          const perPiece = encoding === 'claude' && unit.trim() === '' ? 3 : 2;
          const error = Math.abs(countTokensWith(text, encoding) - RAW[encoding](text));
          expect(error, `${encoding} ${JSON.stringify(context + unit)}`).toBeLessThanOrEqual(perPiece * pieces);
        }
      }
    }
  });
});

describe('ordinary text is counted whole, exactly as before', () => {
  const texts = sharedTexts();

  it('no text of the shared traces or fixtures has a pre-token longer than MAX_PIECE_CHARS (each goes whole)', () => {
    expect(texts.length).toBeGreaterThan(1000);
    let longest = 0;
    for (const text of texts) {
      longest = Math.max(longest, longestPreToken(text, preTokenPattern('cl100k_base')), longestPreToken(text.normalize('NFKC'), preTokenPattern('claude')));
    }
    expect(longest).toBeGreaterThan(100);
    expect(longest).toBeLessThanOrEqual(MAX_PIECE_CHARS);
  });

  it('a text whose pre-tokens are short is handed to the tokenizer whole', () => {
    for (const text of texts.slice(0, 500)) {
      for (const encoding of ENCODINGS) {
        const pieces = piecesOf(text, encoding);
        expect(pieces.length === 1 && pieces[0] === text, `${encoding}: ${JSON.stringify(text.slice(0, 80))}`).toBe(true);
      }
    }
  });

  it('counts of shared-trace texts equal the tokenizers’ own counts', () => {
    const sample = texts.filter((text, index) => index % 20 === 0 || text.length > 20_000);
    for (const text of sample) {
      for (const encoding of ENCODINGS) expect(countTokensWith(text, encoding), encoding).toBe(RAW[encoding](text));
    }
  });
});
