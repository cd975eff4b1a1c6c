/**
 * The bound on a cache directory (src/cache/cacheBound.ts): least recently used entries are evicted past
 * the entry count or the bytes (an entry's files together, the entry just written last), a read makes an
 * entry recent again, the content-hash memos are bounded with the entries, stale temporary files go and
 * other files stay; an entry larger than the whole bound is not written; an entry that vanishes (evicted
 * by another process) is a miss, and runs already served from it keep their calls.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { boundCacheDir, cacheBound, DEFAULT_CACHE_BOUND, STALE_TEMPORARY_MS } from '../../src/cache/cacheBound.js';
import { CompiledTraceCache } from '../../src/cache/compiledCache.js';
import { TraceFileCache } from '../../src/cache/traceCache.js';
import { loadTraceFile, type RunsCache } from '../../src/import/index.js';
import type { Trace } from '../../src/trace/types.js';
import { tempDir } from '../cli/run.js';

const keyOf = (name: string): string => createHash('sha256').update(name).digest('hex');
const memoOf = (path: string): string => `${createHash('sha1').update(resolve(path)).digest('hex')}.hash`;
const T0 = 1_700_000_000_000;

/** Writes `<key>.<ext>` files of `bytes` bytes each, last used at `usedMs`. */
function fakeEntry(dir: string, name: string, usedMs: number, files: Record<string, number>): void {
  for (const [ext, bytes] of Object.entries(files)) {
    const path = join(dir, `${keyOf(name)}.${ext}`);
    writeFileSync(path, Buffer.alloc(bytes));
    utimesSync(path, usedMs / 1000, usedMs / 1000);
  }
}

const entriesIn = (dir: string): string[] => [...new Set(readdirSync(dir).filter((n) => /^[0-9a-f]{64}\.(runs|lcc|calls)$/.test(n)).map((n) => n.slice(0, 64)))].sort();
const keysOf = (...names: string[]): string[] => names.map(keyOf).sort();

/** Reads `path` through `cache`, noting whether the input itself was read. */
async function readThrough(cache: RunsCache, path: string): Promise<{ runs: Trace[]; readInput: boolean }> {
  let readInput = false;
  const spy: RunsCache = { runsOf: (file, settings, read) => cache.runsOf(file, settings, (seen) => ((readInput = true), read(seen))) };
  return { runs: await loadTraceFile(path, { cache: spy }), readInput };
}

// Repository files: changed long enough ago for their hash to be memoised (contentHash.ts's racy margin).
const INPUTS = ['scenarios/long-exploration.jsonl', 'scenarios/recorded-pair.jsonl', 'scenarios/backtracking-explorer.jsonl', 'scenarios/failing-tool-retries.jsonl'];
const MORE_INPUTS = [...INPUTS, 'scenarios/reference-sum-of-squares.jsonl', 'scenarios/reverify-forever.jsonl'];
const CACHES = {
  runs: (dir: string, entries: number, bytes?: number) => new TraceFileCache(dir, 'test', { bound: { entries, bytes } }),
  compiled: (dir: string, entries: number, bytes?: number) => new CompiledTraceCache(dir, 'test', { bound: { entries, bytes } }),
};

describe('cache directory bound', () => {
  it('defaults to 256 entries and 4 GiB, and refuses a bound that keeps nothing', () => {
    expect(cacheBound()).toEqual({ entries: 256, bytes: 4 * 2 ** 30 });
    expect(cacheBound({ entries: 3 })).toEqual({ entries: 3, bytes: DEFAULT_CACHE_BOUND.bytes });
    expect(() => cacheBound({ entries: 0 })).toThrow(RangeError);
    expect(() => cacheBound({ bytes: -1 })).toThrow(RangeError);
    expect(() => cacheBound({ entries: 1.5 })).toThrow(RangeError);
  });

  it('evicts the least recently used entries past the count, every file of an entry together, the entry just written last', () => {
    const dir = tempDir();
    fakeEntry(dir, 'a', T0 + 1000, { lcc: 10, calls: 1 });
    fakeEntry(dir, 'b', T0 + 3000, { runs: 10 });
    fakeEntry(dir, 'c', T0 + 2000, { lcc: 10, calls: 1 });
    fakeEntry(dir, 'd', T0, { lcc: 10, calls: 1 }); // the oldest, but just written
    writeFileSync(join(dir, 'notes.txt'), 'not the cache\'s');
    expect(boundCacheDir(dir, { entries: 2, bytes: 1e9 }, { keep: new Set([keyOf('d')]), nowMs: T0 + 4000 })).toEqual([keyOf('a'), keyOf('c')]);
    expect(entriesIn(dir)).toEqual(keysOf('b', 'd'));
    expect(readdirSync(dir)).toContain('notes.txt');
    expect(readdirSync(dir)).toHaveLength(4);
    // Within the bound: nothing goes.
    expect(boundCacheDir(dir, { entries: 2, bytes: 1e9 })).toEqual([]);
  });

  it('evicts the least recently used entries past the bytes, memos counted', () => {
    const dir = tempDir();
    fakeEntry(dir, 'a', T0 + 1000, { lcc: 400, calls: 100 });
    fakeEntry(dir, 'b', T0 + 2000, { runs: 300 });
    fakeEntry(dir, 'c', T0 + 3000, { lcc: 200, calls: 50 });
    writeFileSync(join(dir, `${'e'.repeat(40)}.hash`), Buffer.alloc(100));
    // 1,150 bytes: a (500) must go; then 650 ≤ 700.
    expect(boundCacheDir(dir, { entries: 10, bytes: 700 }, { nowMs: T0 + 4000 })).toEqual([keyOf('a')]);
    // 650 > 600: b goes too (c alone, 250 + the memo's 100).
    expect(boundCacheDir(dir, { entries: 10, bytes: 600 }, { nowMs: T0 + 4000 })).toEqual([keyOf('b')]);
    expect(entriesIn(dir)).toEqual(keysOf('c'));
  });

  it('bounds the hash memos to four per entry, least recently used first (those in use last), and removes stale temporary files only', () => {
    const dir = tempDir();
    const memos = ['1', '2', '3', '4', '5', '6'].map((digit, i) => {
      const name = `${digit.repeat(40)}.hash`;
      writeFileSync(join(dir, name), '{}');
      utimesSync(join(dir, name), (T0 + i * 1000) / 1000, (T0 + i * 1000) / 1000);
      return name;
    });
    const stale = `${keyOf('x')}.lcc.123-0.tmp`;
    const fresh = `${keyOf('y')}.calls.456-1.tmp`;
    writeFileSync(join(dir, stale), 'half');
    writeFileSync(join(dir, fresh), 'half');
    utimesSync(join(dir, stale), T0 / 1000, T0 / 1000);
    utimesSync(join(dir, fresh), (T0 + STALE_TEMPORARY_MS) / 1000, (T0 + STALE_TEMPORARY_MS) / 1000);
    // Six memos, room for four: the two oldest not in use go (memo 1 is in use: it stays).
    expect(boundCacheDir(dir, { entries: 1, bytes: 1e9 }, { keep: new Set([memos[0]!]), nowMs: T0 + STALE_TEMPORARY_MS + 1 })).toEqual([memos[1], memos[2]]);
    expect(readdirSync(dir).sort()).toEqual([memos[0], memos[3], memos[4], memos[5], fresh].sort());
  });

  for (const [name, make] of Object.entries(CACHES)) {
    it(`${name} cache: a read makes an entry recent, so the one least recently read or written is evicted`, async () => {
      const dir = tempDir();
      for (const [i, input] of INPUTS.slice(0, 3).entries()) {
        expect((await readThrough(make(dir, 3), input)).readInput).toBe(true);
        // The files this read wrote (entry and memo) dated in turn, each older than the next.
        const stamp = (T0 + i * 1000) / 1000;
        for (const file of readdirSync(dir).filter((f) => statSync(join(dir, f)).mtimeMs > T0 + 10_000)) utimesSync(join(dir, file), stamp, stamp);
      }
      expect(entriesIn(dir)).toHaveLength(3);
      // The oldest, read again: served from the cache, and now the most recent.
      expect((await readThrough(make(dir, 3), INPUTS[0]!)).readInput).toBe(false);
      const fresh = await readThrough(make(dir, 3), INPUTS[3]!);
      expect(fresh.readInput).toBe(true);
      expect(entriesIn(dir)).toHaveLength(3);
      expect((await readThrough(make(dir, 3), INPUTS[0]!)).readInput).toBe(false);
      expect((await readThrough(make(dir, 3), INPUTS[2]!)).readInput).toBe(false);
      // The second input, least recently used, was evicted: read again.
      expect((await readThrough(make(dir, 3), INPUTS[1]!)).readInput).toBe(true);
    });

    it(`${name} cache: the hash memos go with their entries, least recently used first, four per entry of the bound`, async () => {
      const dir = tempDir();
      for (const input of MORE_INPUTS) await readThrough(make(dir, 1), input);
      expect(entriesIn(dir)).toHaveLength(1);
      const memos = readdirSync(dir).filter((f) => f.endsWith('.hash')).sort();
      expect(memos).toEqual(MORE_INPUTS.slice(-4).map(memoOf).sort());
      expect(existsSync(join(dir, memoOf(MORE_INPUTS[0]!)))).toBe(false);
    });

    it(`${name} cache: a command over more inputs than the bound keeps the first ones warm (no cycling), its own entries evicted last`, async () => {
      const dir = tempDir();
      await readThrough(make(dir, 2), MORE_INPUTS[5]!); // another command's entry: evicted first
      const cache = make(dir, 2);
      const first: boolean[] = [];
      for (const input of INPUTS) first.push((await readThrough(cache, input)).readInput);
      expect(first).toEqual([true, true, true, true]);
      expect(entriesIn(dir)).toHaveLength(2);
      const again = make(dir, 2);
      const second: boolean[] = [];
      for (const input of INPUTS) second.push((await readThrough(again, input)).readInput);
      expect(second).toEqual([false, false, true, true]);
      expect(entriesIn(dir)).toHaveLength(2);
    });

    it(`${name} cache: an entry larger than the whole bound is not written, and the runs are read as without a cache`, async () => {
      const dir = tempDir();
      const input = INPUTS[0]!;
      const read = await readThrough(make(dir, 5, 200), input);
      expect(read.runs).toEqual(await loadTraceFile(input));
      expect(entriesIn(dir)).toEqual([]);
      expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    });

    it(`${name} cache: an entry larger than the whole bound evicts no other entry`, async () => {
      // The smallest and the largest entry of the inputs, the smaller written first; then a bound with room
      // for it and the hash memos, not for the larger.
      const sizeOf = async (input: string): Promise<number> => {
        const sizing = tempDir();
        await readThrough(make(sizing, 5), input);
        return readdirSync(sizing).filter((f) => /\.(runs|lcc|calls)$/.test(f)).reduce((sum, f) => sum + statSync(join(sizing, f)).size, 0);
      };
      const sized = (await Promise.all(INPUTS.map(async (input) => ({ input, bytes: await sizeOf(input) })))).sort((a, b) => a.bytes - b.bytes);
      const [small, large] = [sized[0]!, sized[sized.length - 1]!];
      const bound = small.bytes + 1024;
      expect(large.bytes).toBeGreaterThan(bound);
      const dir = tempDir();
      await readThrough(make(dir, 5), small.input);
      const kept = entriesIn(dir);
      const read = await readThrough(make(dir, 5, bound), large.input);
      expect(read.runs).toEqual(await loadTraceFile(large.input));
      expect(entriesIn(dir)).toEqual(kept);
      expect((await readThrough(make(dir, 5, bound), small.input)).readInput).toBe(false);
    });

    it(`${name} cache: an entry that vanishes (evicted by another process) is a miss; runs already served keep their calls`, async () => {
      const dir = tempDir();
      const input = INPUTS[1]!;
      const expected = await loadTraceFile(input);
      await readThrough(make(dir, 5), input);
      const warm = await readThrough(make(dir, 5), input);
      expect(warm.readInput).toBe(false);
      for (const file of readdirSync(dir)) rmSync(join(dir, file));
      expect(warm.runs.map((run) => run.calls)).toEqual(expected.map((run) => run.calls));
      // Part of an entry gone (an eviction half done, either file first): read again, not an error.
      for (const ext of ['lcc', 'calls', 'runs']) {
        await readThrough(make(dir, 5), input);
        for (const file of readdirSync(dir).filter((f) => f.endsWith(`.${ext}`))) rmSync(join(dir, file));
        const again = await readThrough(make(dir, 5), input);
        expect(again.runs).toEqual(expected);
      }
    });
  }

  it('several readers sweeping one directory at once never fail and leave it within the bound', async () => {
    const dir = tempDir();
    const expected = await Promise.all(INPUTS.map((input) => loadTraceFile(input)));
    for (let round = 0; round < 3; round++) {
      const read = await Promise.all(INPUTS.flatMap((input) => [CACHES.runs(dir, 2), CACHES.compiled(dir, 2)].map((cache) => readThrough(cache, input))));
      read.forEach((result, i) => expect(result.runs).toEqual(expected[Math.floor(i / 2)]));
      expect(entriesIn(dir).length).toBeLessThanOrEqual(2);
      expect(readFileSync(join(dir, readdirSync(dir).find((f) => f.endsWith('.hash'))!), 'utf8')).toContain('sha256');
    }
  });
});
