/**
 * Bounded token counting. The BPE of gpt-tokenizer and of Anthropic's tiktoken takes time quadratic in the
 * length of one pre-token (the pieces their split pattern cuts text into before merging bytes: a word, a
 * run of signs, a run of spaces), and a run of one character is one pre-token: 20 000 `x` took ~0.3 s,
 * 40 000 ~5 s, 300 000 never finished (`serve` froze on such a request body, `replay` on such a tool output).
 *
 * The rule: no tokenizer is handed a pre-token longer than MAX_PIECE_CHARS (512) characters.
 * - A text whose pre-tokens are all at most that long is counted whole, exactly as the tokenizer counts
 *   it: every text of the shared traces and test fixtures (their longest pre-token is 164 characters).
 * - A longer pre-token is cut into pieces of MAX_PIECE_CHARS characters counted from its end (never inside
 *   a surrogate pair), each piece counted alone; the text around it is counted by the same rule. Each cut
 *   moves the count by a token or two (measured against whole counts of runs up to 20 000 characters:
 *   within 2 tokens per piece, most often exact; 3 for Claude runs of whitespace, whose vocabulary has
 *   whitespace tokens longer than a piece), and the cost per character is bounded, whatever the text.
 *
 * Pure: the split pattern and the counting function are given (src/import/tokenCount.ts gives the
 * tokenizers' own patterns and caches the pieces' counts: a run of one character is one piece repeated).
 */

/** Longest pre-token, in UTF-16 code units, handed to a tokenizer in one piece. */
export const MAX_PIECE_CHARS = 512;

export interface PieceCounting {
  /** The tokenizer's pre-token pattern; global (`g`) flag required. */
  splitPattern: RegExp;
  /** Tokens of a piece none of whose pre-tokens (by `splitPattern`) is longer than `maxPieceChars`. */
  countPiece: (piece: string) => number;
  /** Defaults to MAX_PIECE_CHARS. */
  maxPieceChars?: number;
}

/** Tokens of `text`, counted by `countPiece` on pieces whose pre-tokens are at most `maxPieceChars` long. */
export function countInPieces(text: string, counting: PieceCounting): number {
  const maxChars = counting.maxPieceChars ?? MAX_PIECE_CHARS;
  if (text.length <= maxChars || !mayHoldLongPreToken(text, maxChars)) return counting.countPiece(text);
  let total = 0;
  let segmentStart = 0;
  let split = false;
  for (const match of text.matchAll(counting.splitPattern)) {
    const preToken = match[0];
    if (preToken.length <= maxChars) continue;
    split = true;
    const start = match.index;
    // The text before, alone: the pattern's look-ahead may cut its end differently, so it is checked again.
    if (start > segmentStart) total += countInPieces(text.slice(segmentStart, start), counting);
    total += countCutRun(text, { start, end: start + preToken.length }, counting.countPiece, maxChars);
    segmentStart = start + preToken.length;
  }
  if (!split) return counting.countPiece(text);
  if (segmentStart < text.length) total += countInPieces(text.slice(segmentStart), counting);
  return total;
}

/** ASCII character kinds: 0 letter, 1 digit, 2 whitespace, 3 anything else. */
const ASCII_KINDS = Array.from({ length: 128 }, (_unused, code) => {
  const char = String.fromCharCode(code);
  if (/[A-Za-z]/.test(char)) return 0;
  if (/[0-9]/.test(char)) return 1;
  return /\s/.test(char) ? 2 : 3;
});

/**
 * A cheap test that spares ordinary text the pattern's pass: false when `text` cannot hold a pre-token
 * longer than `maxChars`. A pre-token of the tokenizers' patterns is at most a prefix character, one run of
 * letters, digits, whitespace or other signs, and (after signs) a run of newlines: two runs and one. Here a
 * run is of one ASCII kind, any non-ASCII character joining the run it is in (it may be of any kind): with
 * no run longer than (maxChars - 1) / 2, no pre-token is longer than maxChars.
 */
function mayHoldLongPreToken(text: string, maxChars: number): boolean {
  const longestRun = (maxChars - 1) >> 1;
  let kind = -1;
  let run = 0;
  let nonAsciiTail = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 128) {
      run += 1;
      nonAsciiTail += 1;
    } else {
      const next = ASCII_KINDS[code];
      run = next === kind ? run + 1 : nonAsciiTail + 1;
      kind = next ?? 3;
      nonAsciiTail = 0;
    }
    if (run > longestRun) return true;
  }
  return false;
}

/**
 * Tokens of `text[start, end)` (one long pre-token) cut every `maxChars` characters counted from its end,
 * never inside a surrogate pair. From the end: gpt-tokenizer's and tiktoken's merges of a run of one
 * character line up with its end, so cuts there change the count least (a leading space or sign, as in
 * ` xxxx`, falls in the first piece instead of shifting every cut).
 */
function countCutRun(text: string, run: { start: number; end: number }, countPiece: (piece: string) => number, maxChars: number): number {
  const cuts = [run.end];
  for (let to = run.end; to > run.start; ) {
    let from = Math.max(run.start, to - maxChars);
    if (from > run.start && from + 1 < to && isHighSurrogate(text.charCodeAt(from - 1))) from += 1;
    cuts.push(from);
    to = from;
  }
  let total = 0;
  for (let i = cuts.length - 1; i > 0; i--) total += countPiece(text.slice(cuts[i], cuts[i - 1]));
  return total;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}
