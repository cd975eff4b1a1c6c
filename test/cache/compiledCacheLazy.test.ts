/**
 * The compiled-trace cache serves an entry run by run, each block of runs decoded as its first run is
 * taken: the first run is ready before the other blocks are decoded, and a run that does not decode sends
 * the command to the input for the rest (the runs already served not served again) and has the entry
 * written afresh.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CompiledTraceCache } from '../../src/cache/compiledCache.js';
import { loadTraceFile, streamTraceFile } from '../../src/import/index.js';
import { compileTrace } from '../../src/fast/compile.js';
import { handedOverCompiled } from '../../src/replay/compiledRuns.js';
import { whatIf } from '../../src/replay/whatif.js';
import { REFERENCE_PRESET } from '../../src/brakes/config.js';
import { loadPriceTable } from '../../src/pricing/index.js';
import { tempDir } from '../cli/run.js';
import { headOf as readHead, rewriteHead, spied } from './entryBytes.js';

/** A run in the head: [source, header, end, template, leaves, block, index in block, calls chunk, at, bytes]. */
type HeadRun = [string, unknown, unknown, number, unknown[], number, number, number, number, number];
interface Head {
  runs: HeadRun[];
  arrays: unknown[];
  blocks: [number, number, number, number][];
  templates: unknown[];
}

/** The entry with the first array program of its last run's block made one that cannot decode (head and trailer rewritten). */
function damageLastRun(entryPath: string): void {
  rewriteHead<Head>(entryPath, (head) => {
    head.arrays[head.blocks[head.runs.at(-1)![5]]![0]] = ['Float64Array', 4, 2, []];
  });
}

const headOf = (entryPath: string): Head => readHead<Head>(entryPath);

function threeRuns(): { dir: string; path: string; cacheDir: string } {
  const dir = tempDir();
  const path = join(dir, 'runs.jsonl');
  writeFileSync(path, readFileSync('scenarios/recorded-pair.jsonl', 'utf8') + readFileSync('scenarios/long-exploration.jsonl', 'utf8'));
  return { dir, path, cacheDir: join(dir, 'cache') };
}

const entryOf = (cacheDir: string) => join(cacheDir, readdirSync(cacheDir).find((name) => name.endsWith('.lcc'))!);

describe('compiled-trace cache, run by run', () => {
  it('hands over the first run without decoding the other blocks', async () => {
    const { path, cacheDir } = threeRuns();
    await loadTraceFile(path, { cache: new CompiledTraceCache(cacheDir, 'test') });
    damageLastRun(entryOf(cacheDir));
    const spy = spied(new CompiledTraceCache(cacheDir, 'test'));
    const runs = streamTraceFile(path, { cache: spy.cache });
    const first = await runs.next();
    await runs.return(undefined);
    expect(first.done).toBe(false);
    expect(handedOverCompiled(first.value as never)).toBeDefined();
    expect(spy.servedBeforeInput()).toBeUndefined();
  });

  it('keeps runs of one layout in one block with one template, and serves each run as compiled', async () => {
    const dir = tempDir();
    const path = join(dir, 'runs.jsonl');
    const long = readFileSync('scenarios/long-exploration.jsonl', 'utf8');
    writeFileSync(path, long + long + readFileSync('scenarios/recorded-pair.jsonl', 'utf8'));
    const cacheDir = join(dir, 'cache');
    const fresh = await loadTraceFile(path);
    await loadTraceFile(path, { cache: new CompiledTraceCache(cacheDir, 'test') });
    const head = headOf(entryOf(cacheDir));
    expect(head.runs).toHaveLength(4);
    // The two long runs: one template, one block (its programs once for both); the recorded pair another layout, another block.
    expect(head.runs[1]![3]).toBe(head.runs[0]![3]);
    expect(head.runs[1]![5]).toBe(head.runs[0]![5]);
    expect([head.runs[0]![6], head.runs[1]![6]]).toEqual([0, 1]);
    expect(head.runs[2]![5]).not.toBe(head.runs[0]![5]);
    expect(head.templates).toHaveLength(2);
    expect(head.arrays.length).toBe(head.blocks.reduce((sum, block) => sum + block[1], 0));
    const served = await loadTraceFile(path, { cache: new CompiledTraceCache(cacheDir, 'test') });
    expect(served).toEqual(fresh);
    served.forEach((trace, i) => expect(handedOverCompiled(trace)).toEqual(compileTrace(fresh[i]!)));
    // Runs share constant arrays: replaying them (every brake, windows and caps) must write none of them.
    const prices = loadPriceTable();
    const settings = [3, 8, 40, 400].map((maxSteps) => ({ name: `max-steps=${maxSteps}`, brakes: { ...REFERENCE_PRESET, maxSteps } }));
    for (const strategy of [{ kind: 'full' }, { kind: 'window', lastN: 4 }, { kind: 'full', toolResultCap: 200 }] as const) {
      expect(whatIf(served, settings, { strategy, prices }).runs).toEqual(whatIf(fresh, settings, { strategy, prices }).runs);
    }
    served.forEach((trace, i) => expect(handedOverCompiled(trace)).toEqual(compileTrace(fresh[i]!)));
  });

  it('reads the input for the runs after one that does not decode, serves none twice, and writes the entry again', async () => {
    const { path, cacheDir } = threeRuns();
    const fresh = await loadTraceFile(path);
    expect(fresh).toHaveLength(3);
    await loadTraceFile(path, { cache: new CompiledTraceCache(cacheDir, 'test') });
    const original = readFileSync(entryOf(cacheDir));
    damageLastRun(entryOf(cacheDir));
    expect(readFileSync(entryOf(cacheDir)).equals(original)).toBe(false);

    const spy = spied(new CompiledTraceCache(cacheDir, 'test'));
    const runs = await loadTraceFile(path, { cache: spy.cache });
    expect(spy.servedBeforeInput()).toBe(2);
    expect(spy.served()).toBe(3);
    expect(runs).toEqual(fresh);
    expect(readFileSync(entryOf(cacheDir)).equals(original)).toBe(true);
  });
});
