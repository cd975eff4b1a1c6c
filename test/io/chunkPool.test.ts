/**
 * Reading into two pooled buffers (src/io/chunkPool.ts): one input at a time holds the pool, its chunks
 * in the two buffers in turn; whatever a reader keeps past the read after next is a copy, so lines,
 * documents and heads read the same bytes, and two inputs read at once (the second in fresh buffers) do
 * not overwrite each other. Fixed seeds: a failure reproduces.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chunkSource } from '../../src/io/chunkPool.js';
import { readLimits } from '../../src/io/limits.js';
import { openInput } from '../../src/io/openInput.js';
import { lineBatches, readDocument } from '../../src/io/readLines.js';
import { tempDir } from '../cli/run.js';

const dir = tempDir();
let files = 0;
const write = (text: string): string => {
  const path = join(dir, `input${files++}.txt`);
  writeFileSync(path, text);
  return path;
};
const limits = readLimits({});

describe('the chunk pool', () => {
  it('lends its two buffers in turn to one holder; another gets fresh buffers until it is given back', () => {
    const first = chunkSource(4096);
    expect(first.reuses).toBe(true);
    const a = first.take(4096);
    const b = first.take(100);
    expect(first.take(10).buffer).toBe(a.buffer);
    expect(b.buffer).not.toBe(a.buffer);
    const second = chunkSource(4096);
    expect(second.reuses).toBe(false);
    expect(second.take(4096).buffer).not.toBe(a.buffer);
    first.release();
    const third = chunkSource(4096);
    expect(third.reuses).toBe(true);
    expect(third.take(5).buffer).toBe(a.buffer);
    third.stopReusing();
    expect(third.take(5).buffer).not.toBe(a.buffer);
    third.release();
    first.release(); // twice: harmless
  });

  it('reads documents, heads and lines as written, whatever the chunk size', async () => {
    const piece = fc.constantFrom('a', 'é', '€', '𝄞', ' ', '{"x":1}', '\n', '\n\n', 'xyzzy'.repeat(40), 'plugh\n'.repeat(3000));
    await fc.assert(
      fc.asyncProperty(fc.array(piece, { minLength: 1, maxLength: 200 }), fc.integer({ min: 16, max: 4000 }), async (pieces, chunkBytes) => {
        const text = pieces.join('');
        const path = write(text);
        const whole = await openInput(path, limits, { chunkBytes });
        try {
          expect(whole.head.toString()).toBe(Buffer.from(text).subarray(0, 64 * 1024).toString());
          expect(await readDocument(whole, limits)).toBe(text);
        } finally {
          await whole.close();
        }
        const lines = await openInput(path, limits, { chunkBytes });
        const read: string[] = [];
        try {
          for await (const batch of lineBatches(lines, limits.maxLineBytes)) read.push(...batch.map((l) => l.text));
        } finally {
          await lines.close();
        }
        expect(read).toEqual(text.split('\n').filter((l) => l.trim() !== ''));
      }),
      { numRuns: 60, seed: 20261204 },
    );
  });

  it('keeps two inputs read at once apart', async () => {
    const one = write('1'.repeat(5000));
    const two = write('2'.repeat(5000));
    const a = await openInput(one, limits, { chunkBytes: 64 });
    const b = await openInput(two, limits, { chunkBytes: 64 });
    expect(a.reusesChunks).toBe(true);
    expect(b.reusesChunks).toBe(false);
    const seen = ['', ''];
    const ia = a.chunks[Symbol.asyncIterator]();
    const ib = b.chunks[Symbol.asyncIterator]();
    for (;;) {
      const [na, nb] = [await ia.next(), await ib.next()];
      if (na.done && nb.done) break;
      if (!na.done) seen[0] += na.value.toString();
      if (!nb.done) seen[1] += nb.value.toString();
    }
    await a.close();
    await b.close();
    expect(seen).toEqual(['1'.repeat(5000), '2'.repeat(5000)]);
    // Given back at close: the next input holds the pool again.
    const c = await openInput(one, limits, { chunkBytes: 64 });
    expect(c.reusesChunks).toBe(true);
    await c.close();
  });
});
