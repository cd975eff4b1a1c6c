/**
 * A report written in pieces (src/report/jsonPieces.ts, as `replay --format json` writes its runs one at a
 * time) is the same text as the whole value stringified, whatever the values (seeded); and through
 * writeFileAtomic the file holds exactly that, or, when making a piece fails, no file at all.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { writeFileAtomic } from '../../src/io/atomicWrite.js';
import { jsonPieces } from '../../src/report/jsonPieces.js';
import { tempDir } from '../cli/run.js';

describe('JSON in pieces', () => {
  it('joins to JSON.stringify(value, null, 2) + newline (seeded)', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), fc.array(fc.jsonValue(), { maxLength: 6 }), fc.nat(4), (rest, items, at) => {
        const entries = Object.entries(rest).filter(([key]) => key !== 'runs');
        entries.splice(Math.min(at, entries.length), 0, ['runs', items]);
        const value = Object.fromEntries(entries);
        expect([...jsonPieces(value, 'runs', items)].join('')).toBe(`${JSON.stringify(value, null, 2)}\n`);
      }),
      { numRuns: 500, seed: 7709 },
    );
  });

  it('is written whole by writeFileAtomic, or not at all when a piece fails', () => {
    const dir = tempDir();
    const out = join(dir, 'report.json');
    const items = Array.from({ length: 5000 }, (_, i) => ({ source: `run#${i}`, costUsd: i / 7 }));
    writeFileAtomic(out, jsonPieces({ tool: 'x', runs: [], summary: { n: 5000 } }, 'runs', items));
    expect(readFileSync(out, 'utf8')).toBe(`${JSON.stringify({ tool: 'x', runs: items, summary: { n: 5000 } }, null, 2)}\n`);
    const failing = (function* () {
      yield 'a'.repeat(2 << 20);
      throw new Error('no more');
    })();
    const other = join(dir, 'other.json');
    expect(() => writeFileAtomic(other, failing)).toThrow('no more');
    expect(existsSync(other)).toBe(false);
    expect(readdirSync(dir)).toEqual(['report.json']);
  });
});
