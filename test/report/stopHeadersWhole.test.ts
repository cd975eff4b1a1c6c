/**
 * Stop-count headers were all cut to one length when any had to be: the README's mini-swe-agent sweep at
 * the default 120 columns (not a terminal) showed `max_…  repe…  trac…` where `repeat` fit whole. Now only
 * what must be cut is, the longest header first, one character at a time (a header cut already before a
 * whole one): `max_…  repeat  trace…`; with room for them all (127 columns), every header whole.
 */
import { describe, expect, it } from 'vitest';
import { layOutStops } from '../../src/report/stopColumns.js';
import { widestLine } from '../../src/report/table.js';
import { cli } from '../cli/run.js';

const counts = [{ completed: 3, max_steps: 27, trace_end: 8 }, { repeat: 21, trace_end: 8 }];
const headers = (room: number) => layOutStops(counts, room, { oneColumn: false }).columns.map((column) => column.header);

describe('stop-count headers: cut only as far as the room needs', () => {
  it('room for all three whole (30 columns): none cut, the note names them as they are', () => {
    expect(headers(60)).toEqual(['max_steps', 'repeat', 'trace_end']);
    const layout = layOutStops(counts, 30, { oneColumn: false });
    expect(layout.columns.map((column) => column.header)).toEqual(['max_steps', 'repeat', 'trace_end']);
    expect(layout.note).toBe('max_steps, repeat, trace_end: runs that ended with that stop (the rest completed).');
  });

  it('one column short: one header loses one character, the others stay whole', () => {
    // (The one `other stops` column, `max_steps 27, trace_end 8`, is preferred where it fits: layOutStops' first choice.)
    expect(layOutStops(counts, 29).columns.map((column) => column.header)).toEqual(['other stops']);
    expect(headers(29)).toEqual(['max_ste…', 'repeat', 'trace_end']);
  });

  it('a header that fits whole is not cut with the others', () => {
    const layout = layOutStops(counts, 22, { oneColumn: false });
    expect(layout.columns.map((column) => column.header)).toEqual(['max_…', 'repeat', 'trac…']);
    expect(layout.width).toBe(22);
    expect(layout.note).toBe('max_… = max_steps, repeat, trac… = trace_end: runs that ended with that stop (the rest completed).');
    expect(headers(23)).toEqual(['max_…', 'repeat', 'trace…']);
  });

  it('as narrow as needed, down to the shortest prefix (4); past that, the narrowest layout, said not to fit', () => {
    expect(headers(21)).toEqual(['max_…', 'repe…', 'trac…']);
    expect(headers(20)).toEqual(['max…', 'repe…', 'trac…']);
    expect(headers(19)).toEqual(['max…', 'rep…', 'trac…']);
    expect(headers(18)).toEqual(['max…', 'rep…', 'tra…']);
    const tight = layOutStops(counts, 17, { oneColumn: false });
    expect(tight.fits).toBe(false);
    expect(tight.columns.map((column) => column.header)).toEqual(['max…', 'rep…', 'tra…']);
  });
});

describe("the README's sweep at the default width", () => {
  it('keeps `repeat` whole within 120 columns; names every cut header in the note', async () => {
    const r = await cli('sweep', '../shared/traces/mini-swe-agent', '--grid', 'max-steps=50,100,200', '--grid', 'max-repeat=3,5');
    expect(r.code, r.stderr).toBe(0);
    const [head] = r.stdout.split('\n');
    expect(head).toMatch(/ {2}saved {2}max_… {2}repeat {2}trace…$/);
    expect(widestLine(r.stdout.split('\n\n')[0]!)).toBeLessThanOrEqual(120);
    expect(r.stdout).toContain('\nmax_… = max_steps, repeat, trace… = trace_end: runs that ended with that stop (the rest completed).\n');
  });
});
