/**
 * A UTF-16 (or UTF-32) file — what Windows PowerShell 5's `>` writes — is told as such for every kind of
 * input, with what to do: it was "a binary file, not a trace" (a trace, a scenario), and a price file's
 * bytes were shown garbled in a JSON syntax error.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { loadTraceFile } from '../../src/import/index.js';
import { wideTextEncoding } from '../../src/io/inputErrors.js';
import { readSmallTextFileSync } from '../../src/io/readInput.js';
import { loadPriceTable } from '../../src/pricing/index.js';
import { tempDir } from '../cli/run.js';
import { asyncUserErrorOf, userErrorOf } from '../helpers.js';

const NATIVE = readFileSync('scenarios/recorded-pair.jsonl', 'utf8');
const PRICES = '{"gpt-4o-mini": {"input_cost_per_token": 1e-7, "output_cost_per_token": 2e-7, "litellm_provider": "openai", "mode": "chat"}}\n';
const dir = tempDir();

/** `text` as UTF-16 little-endian with its byte-order mark (PowerShell 5, `iconv -t utf-16`). */
function utf16(text: string, bom = true): Buffer {
  return Buffer.concat([Buffer.from(bom ? [0xff, 0xfe] : []), Buffer.from(text, 'utf16le')]);
}

function write(name: string, content: Buffer): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

describe('UTF-16 and UTF-32 inputs', () => {
  it('tells UTF-16 (with a mark, little or big-endian, or without one) and UTF-32 from UTF-8 and binary bytes', () => {
    expect(wideTextEncoding(utf16('{"a":1}'))).toBe('UTF-16');
    expect(wideTextEncoding(utf16('{"a":1}', false))).toBe('UTF-16');
    expect(wideTextEncoding(Buffer.from([0xfe, 0xff, 0, 0x7b]))).toBe('UTF-16');
    expect(wideTextEncoding(Buffer.from([0, 0x7b, 0, 0x22]))).toBe('UTF-16');
    expect(wideTextEncoding(Buffer.from([0xff, 0xfe, 0, 0, 0x7b, 0, 0, 0]))).toBe('UTF-32');
    expect(wideTextEncoding(Buffer.from([0, 0, 0xfe, 0xff]))).toBe('UTF-32');
    expect(wideTextEncoding(Buffer.from('\uFEFF{"a":1}', 'utf8'))).toBeUndefined();
    expect(wideTextEncoding(Buffer.from('{"a":1}', 'utf8'))).toBeUndefined();
    expect(wideTextEncoding(Buffer.from([0x1f, 0x8b, 0x08, 0x00]))).toBeUndefined();
    expect(wideTextEncoding(Buffer.from([]))).toBeUndefined();
  });

  it('a UTF-16 trace, plain or gzip, is told to be saved as UTF-8 (it was "a binary file")', async () => {
    for (const [name, bytes] of [['u16.jsonl', utf16(NATIVE)], ['u16.jsonl.gz', gzipSync(utf16(NATIVE))], ['u16.traj.json', utf16('{"info": {}}\n')]] as const) {
      const error = await asyncUserErrorOf(() => loadTraceFile(write(name, bytes)));
      expect(error.issues[0]).toMatchObject({ file: join(dir, name), code: 'bad_encoding', message: 'is UTF-16 text: save it as UTF-8' });
      expect(error.message).toMatch(/iconv -f UTF-16 -t UTF-8.*Out-File -Encoding utf8/);
    }
  });

  it('a UTF-32 trace is told as such', async () => {
    const bytes = Buffer.concat([Buffer.from([0xff, 0xfe, 0, 0]), Buffer.from(NATIVE.split('').flatMap((c) => [c.charCodeAt(0), 0, 0, 0]))]);
    const error = await asyncUserErrorOf(() => loadTraceFile(write('u32.jsonl', bytes)));
    expect(error.issues[0]).toMatchObject({ code: 'bad_encoding', message: 'is UTF-32 text: save it as UTF-8' });
  });

  it('a UTF-16 scenario, baseline or companion file (read whole) is told the same', () => {
    const error = userErrorOf(() => readSmallTextFileSync(write('u16.yaml', utf16('name: x\n'))));
    expect(error.issues[0]).toMatchObject({ file: join(dir, 'u16.yaml'), code: 'bad_encoding', message: 'is UTF-16 text: save it as UTF-8' });
  });

  it('a UTF-16 price file is told the same, not shown as garbled JSON', () => {
    expect(() => loadPriceTable({ overridesFile: write('prices8.json', Buffer.from(PRICES)) })).not.toThrow();
    for (const option of ['overridesFile', 'pricesFile'] as const) {
      const error = userErrorOf(() => loadPriceTable({ [option]: write('prices16.json', utf16(PRICES)) }));
      expect(error.issues[0]).toMatchObject({ file: join(dir, 'prices16.json'), code: 'bad_encoding', message: 'is UTF-16 text: save it as UTF-8' });
    }
  });

  it('UTF-8 with its byte-order mark still reads', async () => {
    const traces = await loadTraceFile(write('bom8.jsonl', Buffer.from(`\uFEFF${NATIVE}`, 'utf8')));
    expect(traces.length).toBeGreaterThan(0);
  });
});
