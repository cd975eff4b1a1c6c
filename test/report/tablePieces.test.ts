/**
 * A table in pieces (formatTablePieces: a pass to measure, then a few rows at a time) is byte for byte the
 * table formatTable lays out whole, on seeded random tables: wide and zero-width characters, control
 * characters, numbers and missing cells, right-aligned, shrinking and multi-line-header columns, widths
 * that cut and widths that do not.
 */
import { unsafeUniformIntDistribution, xoroshiro128plus } from 'pure-rand';
import { describe, expect, it } from 'vitest';
import { cellWidthsOf, formatTable, formatTablePieces, type Cell, type Column } from '../../src/report/table.js';

/** A seeded generator (pure-rand's xoroshiro128+, as the synthetic agents draw): the same tables every run. */
function random(seed: number): () => number {
  const rng = xoroshiro128plus(seed);
  return () => unsafeUniformIntDistribution(0, 0xffffffff, rng) / 4294967296;
}

const PIECES = ['a', 'run', '/data/traces/', 'max_steps', '-', '$0.0012', '漢字', '😀', 'e\u0301', '\u001b[31m', '\n', '\t', ' ', '…', '0/1 0.02%', '→'];

function tableOf(next: () => number): { columns: Column[]; rows: (Cell | undefined)[][]; maxWidth: number } {
  const pick = <T,>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
  const text = (parts: number) => Array.from({ length: parts }, () => pick(PIECES)).join('');
  const n = 1 + Math.floor(next() * 7);
  const columns = Array.from({ length: n }, (_, i): Column => ({
    header: next() < 0.3 ? `head ${i}\nline two` : `column ${i}${'x'.repeat(Math.floor(next() * 6))}`,
    ...(next() < 0.4 ? { align: 'right' as const } : {}),
    ...(next() < 0.4 ? { shrink: true } : {}),
    ...(next() < 0.15 ? { minWidth: 4 + Math.floor(next() * 10) } : {}),
  }));
  const values = Array.from({ length: 1 + Math.floor(next() * 20) }, () => (next() < 0.2 ? Math.floor(next() * 1e6) : next() < 0.1 ? undefined : text(Math.floor(next() * 8))));
  const rows = Array.from({ length: Math.floor(next() * 300) }, () => columns.map(() => (next() < 0.5 ? pick(values) : next() < 0.1 ? undefined : text(Math.floor(next() * 6)))));
  const maxWidth = pick([Infinity, 120, 80, 40, 20 + Math.floor(next() * 100)]);
  return { columns, rows, maxWidth };
}

describe('a table in pieces', () => {
  it('joined, is the table formatTable gives whole, on 200 seeded random tables', () => {
    const next = random(20261205);
    for (let t = 0; t < 200; t++) {
      const { columns, rows, maxWidth } = tableOf(next);
      const rowsPerPiece = 1 + Math.floor(next() * 50);
      const pieces = [...formatTablePieces(columns, { count: rows.length, at: (r) => rows[r] as Cell[] }, { maxWidth, rowsPerPiece })];
      expect(pieces.join(''), `table ${t}`).toBe(formatTable(columns, rows as Cell[][], { maxWidth }));
      // Measured beforehand (cellWidthsOf), the same table.
      const cellWidths = cellWidthsOf(columns.length, rows);
      expect([...formatTablePieces(columns, { count: rows.length, at: (r) => rows[r] as Cell[] }, { maxWidth, rowsPerPiece, cellWidths })].join(''), `table ${t}, measured`).toBe(pieces.join(''));
      // The header block, then the rows `rowsPerPiece` at a time.
      expect(pieces).toHaveLength(1 + Math.ceil(rows.length / rowsPerPiece));
      for (const piece of pieces.slice(1)) expect(piece.split('\n').length - 1).toBeLessThanOrEqual(rowsPerPiece);
    }
  });

  it('makes each row when it measures and when it writes it, never holding them', () => {
    const made: number[] = [];
    const columns: Column[] = [{ header: 'n', align: 'right' }, { header: 'name', shrink: true }];
    const pieces = formatTablePieces(columns, { count: 5, at: (r) => (made.push(r), [r, `row ${r}`]) }, { rowsPerPiece: 2 });
    expect(pieces.next().value).toBe('n  name\n─  ─────\n');
    expect(made).toEqual([0, 1, 2, 3, 4]);
    expect(pieces.next().value).toBe('0  row 0\n1  row 1\n');
    expect(made).toEqual([0, 1, 2, 3, 4, 0, 1]);
  });

  it('measured beforehand (cellWidthsOf), makes each row only to write it', () => {
    const made: number[] = [];
    const columns: Column[] = [{ header: 'n', align: 'right' }, { header: 'name', shrink: true }];
    const rows = { count: 3, at: (r: number) => (made.push(r), [r * 50, `row ${r}`]) };
    const text = [...formatTablePieces(columns, rows, { cellWidths: [3, 5] })].join('');
    expect(text).toBe('  n  name\n───  ─────\n  0  row 0\n 50  row 1\n100  row 2\n');
    expect(made).toEqual([0, 1, 2]);
  });
});
