/**
 * The runs cache (src/cache/traceCache.ts, `--cache-dir`): a repeated read is served from the cache with
 * the same runs; a changed file, other settings or another version are read again; a damaged entry is
 * ignored and written again; formats whose runs depend on other files are not kept; a bad directory fails
 * the command naming the flag, and a report is byte-identical with the cache on or off.
 */
import { createHash } from 'node:crypto';
import { copyFileSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SELF_CONTAINED_FIXTURES } from './fixtures.js';
import { TraceFileCache } from '../../src/cache/traceCache.js';
import { loadTraceFile, type RunsCache } from '../../src/import/index.js';
import type { ReadLimits } from '../../src/io/limits.js';
import type { Trace } from '../../src/trace/types.js';
import { cli, tempDir } from '../cli/run.js';


/** Reads `path` through the cache, noting whether the file itself was read. */
async function readCached(cache: TraceFileCache, path: string, limits: Partial<ReadLimits> = {}): Promise<{ runs: Trace[]; readFile: boolean }> {
  let readFile = false;
  const spy: RunsCache = {
    runsOf: (file, settings, read) =>
      cache.runsOf(file, settings, (seen) => {
        readFile = true;
        return read(seen);
      }),
  };
  return { runs: await loadTraceFile(path, { limits, cache: spy }), readFile };
}

describe('runs cache', () => {
  it('serves a repeated read of every self-contained format from the cache, with the same runs', async () => {
    const dir = tempDir();
    for (const path of SELF_CONTAINED_FIXTURES) {
      const fresh = await loadTraceFile(path);
      const first = await loadTraceFile(path, { cache: new TraceFileCache(dir, 'v1') });
      expect(first, path).toEqual(fresh);
      const cache = new TraceFileCache(dir, 'v1');
      const again = await readCached(cache, path);
      expect(again.readFile, path).toBe(false);
      expect(again.runs, path).toEqual(fresh);
    }
    expect(readdirSync(dir).filter((name) => name.endsWith('.runs'))).toHaveLength(SELF_CONTAINED_FIXTURES.length);
  });

  it('reads the file again when its bytes, the settings or the version change', async () => {
    const dir = tempDir();
    const path = join(dir, 'runs.jsonl');
    copyFileSync('scenarios/long-exploration.jsonl', path);
    const cache = new TraceFileCache(dir, 'v1');
    expect((await readCached(cache, path)).readFile).toBe(true);
    expect((await readCached(cache, path)).readFile).toBe(false);
    expect((await readCached(cache, path, { maxLineBytes: 2 ** 20 })).readFile).toBe(true);
    expect((await readCached(new TraceFileCache(dir, 'v2'), path)).readFile).toBe(true);
    const text = readFileSync(path, 'utf8').replace('"outputTokens":', '"outputTokens":1');
    writeFileSync(path, text);
    const changed = await readCached(cache, path);
    expect(changed.readFile).toBe(true);
    expect(changed.runs).toEqual(await loadTraceFile(path));
  });

  it('ignores a damaged entry (flipped byte, cut short, garbage), reads the file and writes the entry again', async () => {
    const dir = tempDir();
    const path = 'scenarios/recorded-pair.jsonl';
    const cache = new TraceFileCache(dir, 'v1');
    const fresh = (await readCached(cache, path)).runs;
    const [entry] = readdirSync(dir).filter((name) => name.endsWith('.runs')).map((name) => join(dir, name));
    const good = readFileSync(entry!);
    const flipped = Buffer.from(good);
    flipped[flipped.length - 5] = flipped[flipped.length - 5]! ^ 1;
    for (const damaged of [flipped, good.subarray(0, good.length - 10), Buffer.from('not a cache entry'), Buffer.alloc(0)]) {
      writeFileSync(entry!, damaged);
      const read = await readCached(cache, path);
      expect(read.readFile).toBe(true);
      expect(read.runs).toEqual(fresh);
      expect(readFileSync(entry!).equals(good)).toBe(true);
    }
  });

  it('an entry that passes its checksum but does not parse serves what it can, then the file the rest', async () => {
    const dir = tempDir();
    const path = 'scenarios/recorded-pair.jsonl';
    const cache = new TraceFileCache(dir, 'v1');
    const fresh = (await readCached(cache, path)).runs;
    expect(fresh.length).toBeGreaterThan(1);
    const [entry] = readdirSync(dir).filter((name) => name.endsWith('.runs')).map((name) => join(dir, name));
    const [headLine, firstRun] = readFileSync(entry!, 'utf8').split('\n');
    const payload = Buffer.from(`${firstRun}\n{not json`, 'utf8');
    const head = { ...JSON.parse(headLine!), sha256: createHash('sha256').update(payload).digest('hex') };
    writeFileSync(entry!, Buffer.concat([Buffer.from(`${JSON.stringify(head)}\n`), payload]));
    const read = await readCached(cache, path);
    expect(read.readFile).toBe(true);
    expect(read.runs).toEqual(fresh);
  });

  it('keeps no entry for Claude Code sessions (their runs read the sub-agents\' files)', async () => {
    const dir = tempDir();
    const path = 'test/fixtures/claude-code/ae4a77f8-aedd-4bc1-888f-c94edc91af04.jsonl';
    const runs = await loadTraceFile(path, { cache: new TraceFileCache(dir, 'v1') });
    expect(runs.length).toBeGreaterThan(0);
    // (the input's content hash may be kept: src/cache/contentHash.ts)
    expect(readdirSync(dir).filter((name) => !name.endsWith('.hash'))).toEqual([]);
  });

  it('--cache-dir: a file is refused naming the flag (exit 2); reports are the same with the cache cold, warm or off', async () => {
    const dir = tempDir();
    const file = join(dir, 'a-file');
    writeFileSync(file, 'x');
    const bad = await cli('replay', 'scenarios/long-exploration.jsonl', '--cache-dir', file);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--cache-dir');
    expect(bad.stderr).toContain('is not a directory');
    const inputs = ['scenarios/long-exploration.jsonl', 'scenarios/recorded-pair.jsonl', 'test/fixtures/otel/two-traces.json'];
    const off = await cli('replay', ...inputs, '--per-run', '--format', 'json');
    const cold = await cli('replay', ...inputs, '--per-run', '--format', 'json', '--cache-dir', join(dir, 'cache'));
    const warm = await cli('replay', ...inputs, '--per-run', '--format', 'json', '--cache-dir', join(dir, 'cache'));
    expect(off.code).toBe(0);
    expect(cold.stdout).toBe(off.stdout);
    expect(warm.stdout).toBe(off.stdout);
    // replay keeps compiled traces (compiledCache.test.ts): one entry per input.
    expect(readdirSync(join(dir, 'cache')).filter((name) => name.endsWith('.lcc'))).toHaveLength(3);
  });
});
