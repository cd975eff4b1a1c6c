/**
 * The compiled-trace cache on many small runs (src/cache/entryBlocks.ts, callsChunks.ts, compiledCodec.ts
 * splitValue): runs of one layout share blocks (one set of array programs per block, not per run) and a
 * template, their calls share deflated chunks, and every run is served as compileTrace compiles it, with
 * its calls (UTF-8 text across chunk boundaries); an entry is written byte for byte the same however the
 * thread pool orders its deflates; a damaged chunk is named when asked for, not before.
 */
import { mkdirSync, openSync, closeSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CALLS_CHUNK_BYTES, CallsReader, CallsWriter, type CallsAt } from '../../src/cache/callsChunks.js';
import { CompiledTraceCache } from '../../src/cache/compiledCache.js';
import { fitsTemplate, joinValue, splitValue, type ArrayEntry } from '../../src/cache/compiledCodec.js';
import { BLOCK_BYTES, SOLO_RUN_BYTES } from '../../src/cache/entryBlocks.js';
import { compileTrace } from '../../src/fast/compile.js';
import { loadTraceFile } from '../../src/import/index.js';
import { handedOverCompiled } from '../../src/replay/compiledRuns.js';
import type { CallRecord } from '../../src/trace/types.js';
import { tempDir } from '../cli/run.js';
import { headOf as readHead } from './entryBytes.js';
import { sameCompiled } from '../fast/sameCompiled.js';

/** `runs` small runs (1–6 calls), deterministic; tool names, arguments and errors with non-ASCII text. */
function smallRuns(runs: number): string {
  const lines: string[] = [];
  let seed = 12345;
  const next = (n: number): number => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed % n;
  };
  for (let r = 0; r < runs; r++) {
    lines.push(JSON.stringify({ type: 'header', schema: 'loopcost.trace/1', model: 'gpt-4o-mini', systemTokens: 900, goalTokens: 100 + next(900), task: `t${r}` }));
    const calls = 1 + next(6);
    for (let c = 0; c < calls; c++) {
      const tool = { name: next(3) === 0 ? 'lire_fichier_é' : 'run', arguments: { action: next(5), note: 'ü→✓' }, resultTokens: next(3000), ...(next(4) === 0 ? { error: `échec ${next(3)} 🙂` } : {}), latencyMs: 700 };
      lines.push(JSON.stringify({ type: 'call', outputTokens: 20 + next(700), toolCalls: [tool], latencyMs: 1000 + next(5000) }));
    }
    lines.push(JSON.stringify({ type: 'end', outcome: next(3) === 0 ? 'error' : 'completed' }));
  }
  return `${lines.join('\n')}\n`;
}

interface Head {
  runs: [string, unknown, unknown, number, unknown[], number, number, number, number, number][];
  arrays: unknown[];
  blocks: [number, number, number, number, number, number, number, number][];
  templates: unknown[];
  calls: unknown[];
}

const headOf = (entryPath: string): Head => readHead<Head>(entryPath);

/** `served` is `expected` (toEqual, asked only where sameCompiled, stricter and fast, finds a difference). */
function expectCompiledAs(served: unknown, expected: unknown, source: string): void {
  if (!sameCompiled(served, expected)) expect(served, source).toEqual(expected);
}

const entryFile = (dir: string, ext: string): string => join(dir, readdirSync(dir).find((name) => name.endsWith(ext))!);

/** 2,500 small runs written once, and their entry written once into `cacheDir` (memoised: the first and third tests read the same entry). */
let smallEntry: Promise<{ dir: string; path: string; cacheDir: string }> | undefined;
function smallRunsEntry(): Promise<{ dir: string; path: string; cacheDir: string }> {
  smallEntry ??= (async () => {
    const dir = tempDir();
    const path = join(dir, 'runs.jsonl');
    writeFileSync(path, smallRuns(2500));
    const cacheDir = join(dir, 'cache');
    await loadTraceFile(path, { cache: new CompiledTraceCache(cacheDir, 'test') });
    return { dir, path, cacheDir };
  })();
  return smallEntry;
}

describe('compiled-trace cache, many small runs', () => {
  it('keeps runs of one layout in blocks (programs per block, not per run) and serves every run as compiled, with its calls', async () => {
    const { path, cacheDir } = await smallRunsEntry();
    const fresh = await loadTraceFile(path);
    const head = headOf(entryFile(cacheDir, '.lcc'));
    expect(head.runs).toHaveLength(2500);
    expect(head.templates).toHaveLength(1);
    // More than one block (each ~BLOCK_BYTES of arrays), far fewer than runs; each block two programs (starts, parts) per array of a run.
    const compiledBytes = fresh.reduce((sum, trace) => sum + compiledBytesOf(compileTrace(trace)), 0);
    expect(compiledBytes).toBeGreaterThan(2 * BLOCK_BYTES);
    expect(head.blocks.length).toBeGreaterThan(1);
    expect(head.blocks.length).toBeLessThanOrEqual(Math.ceil(compiledBytes / BLOCK_BYTES));
    expect(head.arrays.length).toBe(head.blocks.reduce((sum, block) => sum + block[1], 0));
    expect(head.arrays.length).toBeLessThan(head.runs.length);
    expect(head.calls.length).toBeGreaterThan(1);

    const served = await loadTraceFile(path, { cache: new CompiledTraceCache(cacheDir, 'test') });
    expect(served).toHaveLength(fresh.length);
    served.forEach((trace, i) => {
      expectCompiledAs(handedOverCompiled(trace), compileTrace(fresh[i]!), trace.source);
      expect({ source: trace.source, header: trace.header, end: trace.end }).toEqual({ source: fresh[i]!.source, header: fresh[i]!.header, end: fresh[i]!.end });
    });
    // Calls asked for out of order: every chunk inflated (and again) as needed.
    for (const i of [2499, 0, 1700, 1, 2498]) expect(served[i]!.calls, `run ${i}`).toEqual(fresh[i]!.calls);
    expect(served.map((trace) => trace.calls)).toEqual(fresh.map((trace) => trace.calls));
  });

  it('gives a large run a block of its own, between small runs that share theirs', async () => {
    const dir = tempDir();
    const path = join(dir, 'runs.jsonl');
    const large = (task: string, calls: number): string =>
      [
        JSON.stringify({ type: 'header', schema: 'loopcost.trace/1', model: 'gpt-4o-mini', systemTokens: 900, goalTokens: 300, task }),
        ...Array.from({ length: calls }, (_, c) => JSON.stringify({ type: 'call', outputTokens: 20 + (c % 97), toolCalls: [{ name: 'run', arguments: { action: c % 13 }, resultTokens: 100 + ((c * 37) % 900), latencyMs: 700 }], latencyMs: 1000 + ((c * 53) % 4000) })),
        JSON.stringify({ type: 'end', outcome: 'completed' }),
      ].join('\n');
    writeFileSync(path, `${smallRuns(200)}${large('big-1', 1500)}\n${smallRuns(200)}${large('big-2', 2000)}\n`);
    const fresh = await loadTraceFile(path);
    const bytes = fresh.map((trace) => compiledBytesOf(compileTrace(trace)));
    const largeRuns = bytes.filter((n) => n >= SOLO_RUN_BYTES).length;
    expect(largeRuns).toBe(2);
    const cacheDir = join(dir, 'cache');
    await loadTraceFile(path, { cache: new CompiledTraceCache(cacheDir, 'test') });
    const head = headOf(entryFile(cacheDir, '.lcc'));
    // Each large run alone in its block, its arrays whole (block heads: [first program, programs, first payload, runs, starts stored, offset, bytes, CRC-32]); the 400 small runs in far fewer blocks.
    const blockOfRun = head.runs.map((run) => run[5]);
    fresh.forEach((trace, i) => {
      if (bytes[i]! >= SOLO_RUN_BYTES) expect(head.blocks[blockOfRun[i]!]!.slice(3, 5), trace.source).toEqual([1, 0]);
    });
    expect(head.blocks.length).toBeLessThan(largeRuns + 10);
    const served = await loadTraceFile(path, { cache: new CompiledTraceCache(cacheDir, 'test') });
    served.forEach((trace, i) => expectCompiledAs(handedOverCompiled(trace), compileTrace(fresh[i]!), trace.source));
  });

  it('writes the same entry bytes every time (chunks deflated on the thread pool, written in order)', async () => {
    // The 2,500 runs' entry written once (smallRunsEntry), then again into another folder.
    const { dir, path, cacheDir: first } = await smallRunsEntry();
    const second = join(dir, 'again');
    await loadTraceFile(path, { cache: new CompiledTraceCache(second, 'test') });
    const entries = [first, second].map((cacheDir) => [readFileSync(entryFile(cacheDir, '.lcc')), readFileSync(entryFile(cacheDir, '.calls'))]);
    expect(headOf(entryFile(first, '.lcc')).calls.length).toBeGreaterThanOrEqual(2);
    expect(entries[0]![0]!.equals(entries[1]![0]!)).toBe(true);
    expect(entries[0]![1]!.equals(entries[1]![1]!)).toBe(true);
  });
});

function compiledBytesOf(compiled: object): number {
  const arrays: ArrayEntry[] = [];
  splitValue(compiled, arrays, []);
  return arrays.reduce((sum, entry) => sum + entry.data.byteLength, 0);
}

describe('calls chunks', () => {
  it('reads back every run\'s calls across chunks, a run larger than a chunk included, and names a damaged chunk only when asked', async () => {
    const dir = tempDir();
    mkdirSync(dir, { recursive: true });
    const file = join(dir, 'x.calls');
    const fd = openSync(file, 'w');
    const writer = new CallsWriter(fd);
    const runs: CallRecord[][] = [];
    const at: CallsAt[] = [];
    for (let r = 0; r < 1200; r++) {
      const size = r === 200 ? 12_000 : 1 + (r % 30);
      const calls = Array.from({ length: size }, (_, i): CallRecord => ({ type: 'call', outputTokens: i, toolCalls: [{ name: `outil-é-${r}`, arguments: { q: '✓'.repeat(r % 7) }, resultTokens: r }] }));
      runs.push(calls);
      at.push(writer.add(calls));
      await writer.writtenAtMost(2);
    }
    await writer.written();
    closeSync(fd);
    expect(writer.chunks.length).toBeGreaterThan(2);
    expect(Buffer.byteLength(JSON.stringify(runs[200]))).toBeGreaterThan(CALLS_CHUNK_BYTES);
    const bytes = readFileSync(file);
    expect(bytes.length).toBe(writer.bytes);
    const reader = new CallsReader(bytes, writer.chunks, file);
    for (const r of [1199, 0, 200, 201, 5, 5]) expect(reader.callsAt(at[r]!)).toEqual(runs[r]);
    runs.forEach((calls, r) => expect(reader.callsAt(at[r]!)).toEqual(calls));

    const damaged = Buffer.from(bytes);
    const offset = writer.chunks[1]![0];
    damaged[offset] = damaged[offset]! ^ 0xff;
    const fromDamaged = new CallsReader(damaged, writer.chunks, file);
    expect(fromDamaged.callsAt(at[0]!)).toEqual(runs[0]);
    const inSecond = at.findIndex(([chunk]) => chunk === 1);
    expect(() => fromDamaged.callsAt(at[inSecond]!)).toThrow(`${file}: cache file is damaged`);
  });
});

describe('templates', () => {
  it('split a compiled trace into a template and leaves, fit others of its layout, and join back to the same value', () => {
    const value = { n: 3, f: NaN, z: -0, inf: -Infinity, u: undefined, s: 'x', b: true, names: ['a', 'b'], nums: [1, NaN], a: new Float64Array([1, -0, NaN]), nested: { k: new Int32Array([4]), m: null } };
    const arrays: ArrayEntry[] = [];
    const leaves: unknown[] = [];
    const template = splitValue(value, arrays, leaves);
    expect(arrays.map((entry) => entry.kind)).toEqual(['Float64Array', 'Int32Array']);
    const joined = joinValue(JSON.parse(JSON.stringify(template)), JSON.parse(JSON.stringify(leaves)) as unknown[], (i) => arrays[i]!.data);
    expect(joined).toEqual(value);
    expect(Object.is((joined as { z: number }).z, -0)).toBe(true);

    const other = { ...value, n: 9, names: ['c'], nums: [], a: new Float64Array(5), nested: { k: new Int32Array(0), m: null } };
    const otherArrays: ArrayEntry[] = [];
    const otherLeaves: unknown[] = [];
    expect(fitsTemplate(other, template, otherArrays, otherLeaves)).toBe(true);
    expect(joinValue(template, otherLeaves, (i) => otherArrays[i]!.data)).toEqual(other);
    // Another layout: an object where there was null, an array of another kind, a field more or in another order.
    for (const changed of [{ ...value, nested: { k: new Int32Array(1), m: { x: 1 } } }, { ...value, a: new Int32Array(3) }, { ...value, extra: 1 }, Object.fromEntries(Object.entries(value).reverse())]) {
      expect(fitsTemplate(changed, template, [], [])).toBe(false);
    }
    expect(() => joinValue(template, leaves.slice(1), (i) => arrays[i]!.data)).toThrow();
    expect(() => joinValue(template, leaves, () => new Float32Array(1))).toThrow();
  });
});
