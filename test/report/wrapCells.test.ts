/**
 * Cells that wrap (src/report/wrapCells.ts): a list too long for the width continues on lines under its
 * cell, at its separator, the row's other cells blank there; nothing is cut; a table that fits is left as
 * it is; a word is never broken; grouped rows are measured indented, as formatGroupedTable lays them out.
 */
import { describe, expect, it } from 'vitest';
import { formatGroupedTable, formatTable, widestLine, type Column } from '../../src/report/table.js';
import { wrapGroups, wrapRows, wrapWidths } from '../../src/report/wrapCells.js';

const COLUMNS: Column[] = [{ header: 'figure' }, { header: 'measured', wrap: ', ' }, { header: 'status', wrap: ' ' }];
const ROWS = [
  ['runs.stopReason', 'completed ×21, max_steps ×9, repeat ×4', 'DRIFT ↑ +12.5 points from 55% (the baseline agents on these draws)'],
  ['runs.steps', '12', 'ok'],
];

describe('wrapRows', () => {
  it('leaves a table that fits alone, and wraps nothing under an unbounded width', () => {
    expect(wrapWidths(COLUMNS, ROWS, 200)).toBeUndefined();
    expect(wrapRows(COLUMNS, ROWS, 200)).toEqual(ROWS);
    expect(wrapRows(COLUMNS, ROWS, Infinity)).toEqual(ROWS);
  });

  it('wraps the widest wrapping cells at their separators until the table fits, every word kept', () => {
    const wrapped = wrapRows(COLUMNS, ROWS, 60);
    const text = formatTable(COLUMNS, wrapped, { maxWidth: 60 });
    expect(widestLine(text)).toBeLessThanOrEqual(60);
    // The first row takes several lines; its figure is on the first only, the next row starts after them.
    expect(wrapped[0]![0]).toBe('runs.stopReason');
    expect(wrapped[1]![0]).toBe('');
    expect(wrapped.filter((row) => row[0] !== '').map((row) => row[0])).toEqual(['runs.stopReason', 'runs.steps']);
    expect(wrapped[0]![1]).toMatch(/,$/);
    const words = (column: number) => wrapped.map((row) => String(row[column])).join(' ').split(/\s+/).filter((word) => word !== '');
    expect(words(1)).toEqual(ROWS.map((row) => row[1]!).join(' ').split(' '));
    expect(words(2)).toEqual(ROWS.map((row) => row[2]!).join(' ').split(' '));
  });

  it('never breaks a word: a column narrows to its longest word at most', () => {
    const widths = wrapWidths(COLUMNS, [['x', 'backtrack_limit ×1', 'a b']], 10)!;
    expect(widths[1]).toBe('backtrack_limit'.length);
    expect(widths[0]).toBeUndefined();
  });

  it('grouped rows are measured with their indent and wrapped within their group', () => {
    const groups = [{ heading: 'flight search', rows: ROWS }, { heading: 'weekly report', rows: [ROWS[1]!] }];
    const wrapped = wrapGroups(COLUMNS, groups, 62);
    const text = formatGroupedTable(COLUMNS, wrapped, { maxWidth: 62 });
    expect(widestLine(text)).toBeLessThanOrEqual(62);
    expect(wrapped[0]!.rows.length).toBeGreaterThan(2);
    expect(wrapped[1]!.rows).toEqual([ROWS[1]]);
    const lines = text.split('\n');
    expect(lines.indexOf('weekly report')).toBe(lines.length - 3);
  });
});
