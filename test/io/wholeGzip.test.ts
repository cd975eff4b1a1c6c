/**
 * A small gzip file read whole in one chunk is inflated in one call (src/io/openInput.ts): what it reads —
 * lines, errors, limits — is what the streamed gunzip reads from the same bytes (forced here by reading
 * in tiny chunks), for valid, multi-member, damaged and truncated files and for one that inflates past
 * the one-call bound.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { UserError } from '../../src/errors.js';
import { readLines } from '../../src/io/readLines.js';
import type { ReadLimits } from '../../src/io/limits.js';
import { tempDir } from '../cli/run.js';

const HEADER = '{"type":"header","schema":"loopcost.trace/1","model":"gpt-4o-mini","systemTokens":10,"goalTokens":5}';
const CALL = '{"type":"call","inputTokens":100,"outputTokens":5}';
const END = '{"type":"end","outcome":"completed"}';
const dir = tempDir();

/** The lines read, or the issues of the error that stopped the read (with the lines before it). */
async function outcome(path: string, chunkBytes?: number, limits: Partial<ReadLimits> = {}): Promise<unknown> {
  const lines: string[] = [];
  try {
    for await (const line of readLines(path, limits, chunkBytes === undefined ? {} : { chunkBytes })) lines.push(`${line.line}:${line.text.length}:${line.text.slice(0, 40)}`);
    return { lines };
  } catch (error) {
    if (!(error instanceof UserError)) throw error;
    return { lines, issues: error.issues };
  }
}

const text = [HEADER, CALL, CALL, END].join('\n') + '\n';
const gz = gzipSync(text);
const cases: Array<[string, Buffer, Partial<ReadLimits>?]> = [
  ['valid', gz],
  ['two gzip members', Buffer.concat([gzipSync(`${HEADER}\n${CALL}\n`), gzipSync(`${CALL}\n${END}\n`)])],
  ['truncated', gz.subarray(0, gz.length - 12)],
  ['cut in the middle', gz.subarray(0, Math.floor(gz.length / 2))],
  ['damaged', Buffer.concat([gz.subarray(0, 20), Buffer.from('garbage!'), gz.subarray(28)])],
  ['trailing garbage', Buffer.concat([gz, Buffer.from('not gzip')])],
  ['past the one-call bound (17 MB of blanks)', gzipSync(`${HEADER}\n${' '.repeat(17 << 20)}\n${CALL}\n${END}\n`)],
  ['past --max-input-mb', gzipSync(`${HEADER}\n${' '.repeat(2 << 20)}\n${END}\n`), { maxInputBytes: 1 << 20 }],
];

describe('a small gzip file inflated in one call', () => {
  for (const [name, bytes, limits] of cases) {
    it(`reads as the stream does: ${name}`, async () => {
      const path = join(dir, `${name.replace(/\W+/g, '-')}.jsonl.gz`);
      writeFileSync(path, bytes);
      expect(bytes.length).toBeLessThan(1 << 20); // arrives in the first chunk: read whole
      expect(await outcome(path, undefined, limits)).toEqual(await outcome(path, 97, limits));
    });
  }

  it('reads every line of a valid file', async () => {
    const path = join(dir, 'lines.jsonl.gz');
    writeFileSync(path, gz);
    expect(await outcome(path)).toEqual({ lines: [HEADER, CALL, CALL, END].map((t, i) => `${i + 1}:${t.length}:${t.slice(0, 40)}`) });
  });
});
