/**
 * A long report is written a chunk at a time (emitReport → textChunks): to stdout as several writes and to
 * --out through the temporary renamed into place (its write takes the same pieces), the same bytes either way, a surrogate pair never split
 * across two writes (each write is encoded as UTF-8 alone). Its bytes are never a second copy of the whole
 * text: a 123 MB JSON sweep report was a 123 MB Buffer beside its text.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { emitReport, textChunks } from '../../src/cli/actions/output.js';
import { tempDir } from './run.js';

const CHUNK = 1 << 20;

/** 3.5 MiB of text, non-ASCII throughout, with an emoji (a surrogate pair) across each chunk boundary. */
function longText(): string {
  const chars = Array.from({ length: Math.floor(3.5 * CHUNK) }, (_, i) => (i % 97 === 0 ? 'é' : i % 61 === 0 ? '\n' : String.fromCharCode(97 + (i % 26))));
  for (let k = 1; k <= 3; k++) chars.splice(k * CHUNK - 1, 2, '\ud83d', '\ude00');
  return chars.join('');
}

function captured(): { pieces: string[]; errors: string[]; io: { stdout: (s: string) => void; stderr: (s: string) => void; cwd: string } } {
  const pieces: string[] = [];
  const errors: string[] = [];
  return { pieces, errors, io: { stdout: (s) => pieces.push(s), stderr: (s) => errors.push(s), cwd: process.cwd() } };
}

describe('a long report is written a chunk at a time', () => {
  it('to stdout: several writes of at most a MiB (and a pair), joined the text, no pair split', () => {
    const text = longText();
    const { pieces, io } = captured();
    emitReport(text, { format: 'json', warnings: [] }, io);
    expect(pieces.length).toBe(4);
    for (const piece of pieces) expect(piece.length).toBeLessThanOrEqual(CHUNK + 1);
    for (const piece of pieces) expect(/[\ud800-\udbff]$/.test(piece)).toBe(false);
    expect(pieces.join('')).toBe(text);
    expect(Buffer.concat(pieces.map((piece) => Buffer.from(piece, 'utf8'))).equals(Buffer.from(text, 'utf8'))).toBe(true);
  });

  it('to --out: a chunk at a time, the same bytes, renamed into place (no temporary left), announced', () => {
    const text = longText();
    const dir = tempDir();
    const out = join(dir, 'report.json');
    const { pieces, errors, io } = captured();
    emitReport(text, { out, format: 'json', warnings: [] }, io);
    expect(pieces).toEqual([]);
    // (The pieces are the ones the stdout test counts: one `pieces` value goes to either. No module mock here:
    // the suite shares its workers' modules, so a mock of atomicWrite.js took effect only when run alone.)
    expect(readFileSync(out).equals(Buffer.from(text, 'utf8'))).toBe(true);
    expect(readdirSync(dir)).toEqual(['report.json']);
    expect(errors.join('')).toBe(`loopcost: report written to ${out} (json)\n`);
  });

  it('a short report is one write, as it is', () => {
    const { pieces, io } = captured();
    emitReport('a table\n', { format: 'table', warnings: [] }, io);
    expect(pieces).toEqual(['a table\n']);
  });

  it('textChunks keeps a pair whole at any chunk size, a lone surrogate too', () => {
    const text = 'ab\ud83d\ude00cd\ud83d\ude00\ud83dxy\ude00';
    for (let size = 1; size <= text.length + 1; size++) {
      const chunks = [...textChunks(text, size)];
      expect(chunks.join('')).toBe(text);
      for (const chunk of chunks.slice(0, -1)) expect(/[\ud800-\udbff]$/.test(chunk)).toBe(false);
    }
    expect([...textChunks('', 4)]).toEqual([]);
  });
});

describe('writeChunks: pieces joined into writes of about a chunk', () => {
  it('small pieces are joined up to the chunk; a piece past it is cut; the bytes are the same', async () => {
    const { writeChunks } = await import('../../src/cli/actions/output.js');
    const pieces = ['ab', 'cd', 'ef', 'x'.repeat(9), 'g', 'h'];
    const writes = [...writeChunks(pieces, 4)];
    expect(writes.join('')).toBe(pieces.join(''));
    expect(writes).toEqual(['abcd', 'ef', 'xxxx', 'xxxx', 'x', 'gh']);
    expect([...writeChunks([], 4)]).toEqual([]);
    // 122,880 one-configuration pieces of ~1 KB: ~120 writes of a MiB, not 122,880.
    const many = Array.from({ length: 5000 }, (_, i) => `{"i":${i}}`.padEnd(1000, ' '));
    const joined = [...writeChunks(many)];
    expect(joined.length).toBeLessThanOrEqual(5);
    expect(joined.join('')).toBe(many.join(''));
  });
});
