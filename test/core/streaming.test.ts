import fc from 'fast-check';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { loadTraceFile, streamTraceFile } from '../../src/import/index.js';
import { readLines } from '../../src/io/readLines.js';
import { streamNativeTraces, type NativeLine } from '../../src/trace/parseNative.js';
import { tempDir } from '../cli/run.js';
import { asyncUserErrorOf, collectAsync, userErrorOf } from '../helpers.js';

const HEADER = '{"type":"header","schema":"loopcost.trace/1","model":"gpt-4o-mini","systemTokens":10,"goalTokens":5}';
const CALL = '{"type":"call","outputTokens":5}';
const END = '{"type":"end","outcome":"completed"}';

function write(name: string, content: string | Buffer): string {
  const path = join(tempDir(), name);
  writeFileSync(path, content);
  return path;
}

describe('readLines', () => {
  it('gives the same non-blank lines as splitting the whole text, whatever the read size cuts (multi-byte text, CRLF, gzip)', async () => {
    // Reads of up to 64 bytes: whole lines in one read are decoded together (a chunk's text), the rest byte by byte.
    const piece = fc.constantFrom('a', 'é', '€', '𝄞', ' ', '\r', '\t', '{"x":1}', '\n', '\n', '\r\n', '\n\n\n\n\n', ' \n');
    await fc.assert(
      fc.asyncProperty(fc.array(piece, { maxLength: 120 }), fc.integer({ min: 1, max: 64 }), fc.boolean(), async (pieces, chunkBytes, gzip) => {
        const text = pieces.join('');
        const path = write(gzip ? 'lines.jsonl.gz' : 'lines.jsonl', gzip ? gzipSync(Buffer.from(text)) : text);
        const expected = text.split('\n').map((t, i) => ({ line: i + 1, text: t })).filter(({ text: t }) => t.trim() !== '');
        expect(await collectAsync(readLines(path, {}, { chunkBytes }))).toEqual(expected);
      }),
      { numRuns: 300, seed: 20261202 },
    );
  });

  it('whole lines of a large read decoded in pieces of at most 64 KB: the same lines, a line past 64 KB and blank runs across a cut included (seeded)', async () => {
    const lineArb = fc.oneof(
      fc.record({ repeat: fc.integer({ min: 1, max: 3000 }), unit: fc.constantFrom('{"x":1}', 'é€', '𝄞a', ' ', '\r') }),
      fc.record({ repeat: fc.integer({ min: 9000, max: 12000 }), unit: fc.constantFrom('abcdefgh', '€€€') }),
      fc.record({ repeat: fc.integer({ min: 0, max: 4 }), unit: fc.constant('') }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(lineArb, { minLength: 1, maxLength: 120 }), fc.constantFrom(1 << 20, 100_000), async (lines, chunkBytes) => {
        const text = lines.map(({ repeat, unit }) => unit.repeat(repeat)).join('\n') + '\n';
        const path = write('pieces.jsonl', text);
        const expected = text.split('\n').map((t, i) => ({ line: i + 1, text: t })).filter(({ text: t }) => t.trim() !== '');
        expect(await collectAsync(readLines(path, {}, { chunkBytes }))).toEqual(expected);
      }),
      { numRuns: 40, seed: 20261208 },
    );
    // Invalid UTF-8 past the first piece of a read: named on its line, as before.
    const lines = Array.from({ length: 3000 }, (_, i) => `{"call":${i},"pad":"${'x'.repeat(40)}"}`);
    const bad = Buffer.concat([Buffer.from(lines.join('\n') + '\n'), Buffer.from([0x7b, 0xff, 0x7d, 0x0a])]);
    expect((await asyncUserErrorOf(() => collectAsync(readLines(write('bad-late.jsonl', bad))))).issues[0]).toMatchObject({ line: 3001, code: 'bad_encoding' });
  });

  it('names the line of invalid UTF-8 or a NUL byte', async () => {
    const bad = Buffer.concat([Buffer.from(`${HEADER}\n${CALL}\n`), Buffer.from([0x7b, 0xff, 0x7d, 0x0a])]);
    expect((await asyncUserErrorOf(() => collectAsync(readLines(write('bad.jsonl', bad), {}, { chunkBytes: 4 })))).issues[0]).toMatchObject({ line: 3, code: 'bad_encoding' });
    expect((await asyncUserErrorOf(() => collectAsync(readLines(write('bad-whole.jsonl', bad))))).issues[0]).toMatchObject({ line: 3, code: 'bad_encoding' });
    const nul = Buffer.concat([Buffer.from(`${HEADER}\n`), Buffer.from([0x7b, 0x00, 0x7d, 0x0a])]);
    expect((await asyncUserErrorOf(() => collectAsync(readLines(write('nul.jsonl', nul))))).issues[0]).toMatchObject({ line: 2, code: 'binary' });
  });
});

describe('native runs streamed', () => {
  /** A line source that records how far it has been read. */
  function counted(lines: string[]) {
    const state = { read: 0 };
    const source = (function* (): Generator<NativeLine> {
      for (const [i, text] of lines.entries()) {
        state.read = i + 1;
        yield { line: i + 1, text };
      }
    })();
    return { state, source };
  }

  it('yields each run once the next one starts, before the rest of the file is read', () => {
    const lines = [HEADER, CALL, END, HEADER, CALL, END, HEADER, CALL, END];
    const { state, source } = counted(lines);
    const runs = streamNativeTraces(source, 'f.jsonl');
    expect(runs.next().value.source).toBe('f.jsonl#1');
    expect(state.read).toBe(6);
    expect(runs.next().value.source).toBe('f.jsonl#2');
    expect(state.read).toBe(6);
    expect(runs.next().value.source).toBe('f.jsonl#3');
    expect(state.read).toBe(9);
    expect(runs.next().done).toBe(true);
  });

  it('a file with one run names it by the file alone', () => {
    expect([...streamNativeTraces(counted([HEADER, CALL, END]).source, 'one.jsonl')].map((t) => t.source)).toEqual(['one.jsonl']);
  });

  it('stops yielding at the first problem and reports every problem of the file at the end', () => {
    const lines = [HEADER, CALL, END, HEADER, '{"type":"call","outputTokens":-1}', END, HEADER, '{"type":"call"', END, HEADER, CALL, END];
    const seen: string[] = [];
    const error = userErrorOf(() => {
      for (const trace of streamNativeTraces(counted(lines).source, 'f.jsonl')) seen.push(trace.source);
    });
    expect(seen).toEqual([]);
    expect(error.issues.map((i) => [i.line, i.code])).toEqual([
      [5, 'negative_number'],
      [8, 'invalid_json'],
    ]);
  });

  it('a large native file is read line by line; the result equals reading it whole', async () => {
    const run = [HEADER, ...Array.from({ length: 50 }, (_, i) => `{"type":"call","inputTokens":${100 + i},"outputTokens":${i}}`), END];
    const text = Array.from({ length: 40 }, () => run.join('\n')).join('\n') + '\n';
    const plain = write('many.jsonl', text);
    const gz = write('many.jsonl.gz', gzipSync(text));
    const streamed = await collectAsync(streamTraceFile(plain));
    expect(streamed).toHaveLength(40);
    expect(streamed[39]!.source).toBe(`${plain}#40`);
    expect(streamed[7]!.calls[49]).toEqual({ type: 'call', inputTokens: 149, outputTokens: 49 });
    expect((await loadTraceFile(gz)).map((t) => t.calls)).toEqual(streamed.map((t) => t.calls));
    expect(readFileSync(plain, 'utf8')).toBe(text);
  });
});
