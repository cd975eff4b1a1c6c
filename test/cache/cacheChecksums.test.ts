/**
 * The compiled cache's CRC-32s (format 12, src/cache/entryRead.ts, callsChunks.ts): damage that still
 * decodes — a flipped bit in a block's payload, a digit changed in the head, a calls chunk changed — is
 * never served. The entry is treated as any damaged entry is: the input is read for the runs not yet
 * served (none served twice) and the entry written again. A library caller that asks a served run for its
 * calls gets them, read from the input, instead of an error.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMPILED_CACHE_FORMAT, CompiledTraceCache, layoutShape } from '../../src/cache/compiledCache.js';
import type { EntryHead } from '../../src/cache/compiledEntry.js';
import { readEntry } from '../../src/cache/entryRead.js';
import { compileTrace } from '../../src/fast/compile.js';
import { loadTraceFile } from '../../src/import/index.js';
import { spied } from './entryBytes.js';
import { handedOverCompiled } from '../../src/replay/compiledRuns.js';
import type { Trace } from '../../src/trace/types.js';
import { tempDir } from '../cli/run.js';
import { longRunText } from './golden.js';

/** Three long runs: each a block of its own (arrays stored whole, any bytes decode). */
function threeLongRuns(): { path: string; cacheDir: string } {
  const dir = tempDir();
  const path = join(dir, 'runs.jsonl');
  writeFileSync(path, `${[1500, 1600, 1700].map((calls) => longRunText(calls)).join('\n')}\n`);
  return { path, cacheDir: join(dir, 'cache') };
}

const fileOf = (cacheDir: string, ext: string): string => join(cacheDir, readdirSync(cacheDir).find((name) => name.endsWith(ext))!);

function headOf(cacheDir: string): EntryHead {
  const compiled = fileOf(cacheDir, '.lcc');
  const entry = readEntry({ compiled, calls: fileOf(cacheDir, '.calls') }, { cache: COMPILED_CACHE_FORMAT, key: basename(compiled, '.lcc'), shape: layoutShape() });
  expect(entry).toBeDefined();
  return entry!.head;
}

/** Reads `path` through a fresh cache of `cacheDir`: the runs, how many were served before the input was read (undefined: never read). */
async function readThrough(path: string, cacheDir: string): Promise<{ runs: Trace[]; servedBeforeInput: number | undefined }> {
  const spy = spied(new CompiledTraceCache(cacheDir, 'test'));
  return { runs: await loadTraceFile(path, { cache: spy.cache }), servedBeforeInput: spy.servedBeforeInput() };
}

/** Damages the entry with `damage`, then expects it not served from `servedFirst` on, every run right, the entry written again. */
async function expectDamageCaught(damage: (cacheDir: string) => void, servedFirst: number): Promise<void> {
  const { path, cacheDir } = threeLongRuns();
  const fresh = await loadTraceFile(path);
  await readThrough(path, cacheDir);
  const original = [readFileSync(fileOf(cacheDir, '.lcc')), readFileSync(fileOf(cacheDir, '.calls'))];
  damage(cacheDir);
  const read = await readThrough(path, cacheDir);
  expect(read.servedBeforeInput, 'runs served from the damaged entry before the input was read').toBe(servedFirst);
  expect(read.runs).toHaveLength(fresh.length);
  read.runs.forEach((run, i) => {
    expect(run.calls).toEqual(fresh[i]!.calls);
    expect({ ...run, calls: undefined }).toEqual({ ...fresh[i]!, calls: undefined });
    const compiled = handedOverCompiled(run);
    if (compiled !== undefined) expect(compiled, run.source).toEqual(compileTrace(fresh[i]!));
  });
  expect(readFileSync(fileOf(cacheDir, '.lcc')).equals(original[0]!), 'the entry written again').toBe(true);
  expect(readFileSync(fileOf(cacheDir, '.calls')).equals(original[1]!)).toBe(true);
  expect((await readThrough(path, cacheDir)).servedBeforeInput, 'the rewritten entry serves every run').toBeUndefined();
}

/** Flips the lowest bit of byte `at` of `file`. */
function flipBit(file: string, at: number): void {
  const bytes = readFileSync(file);
  bytes[at] = bytes[at]! ^ 1;
  writeFileSync(file, bytes);
}

describe('compiled cache checksums', () => {
  it('does not serve a run whose block has a flipped bit that still decodes; the runs before it are served once', async () => {
    await expectDamageCaught((cacheDir) => {
      const head = headOf(cacheDir);
      const block = head.blocks.find((b) => head.runs[1]![5] === head.blocks.indexOf(b))!;
      expect(block[4], 'the second run is a block of its own').toBe(0);
      // Its first payload's first byte: a narrow integer or a raw number one off, which decodes.
      flipBit(fileOf(cacheDir, '.lcc'), head.payloads[block[2]]![1]);
    }, 1);
  });

  it('does not trust an entry whose head has a changed digit that still parses', async () => {
    await expectDamageCaught((cacheDir) => {
      const file = fileOf(cacheDir, '.lcc');
      const bytes = readFileSync(file);
      const at = bytes.lastIndexOf('"systemTokens":900');
      expect(at).toBeGreaterThan(0);
      bytes.write('"systemTokens":901', at, 'latin1');
      writeFileSync(file, bytes);
    }, 0);
  });

  it('does not serve runs whose calls chunk is damaged: a caller asking for their calls gets them from the input', async () => {
    await expectDamageCaught((cacheDir) => {
      const file = fileOf(cacheDir, '.calls');
      flipBit(file, Math.floor(readFileSync(file).length / 2));
    }, 0);
  });
});
