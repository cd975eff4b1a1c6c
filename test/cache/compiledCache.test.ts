/**
 * The compiled-trace cache (src/cache/compiledCache.ts, `--cache-dir` for replay, whatif and sweep): a
 * warm read hands over compiled traces equal, array by array and number by number, to compileTrace of
 * the runs read afresh (random traces with a fixed seed, real recorded runs, compact and whole storage);
 * runs served from it carry the same source, header, end and (read when asked for) calls; reports are
 * byte-identical with the cache off, cold and warm (and with damaged calls files, rebuilt); an entry that
 * is truncated, foreign or of another input is not trusted.
 */
import { copyFileSync, readdirSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CompiledTraceCache } from '../../src/cache/compiledCache.js';
import { compileTrace } from '../../src/fast/compile.js';
import { loadTraceFile, type RunsCache } from '../../src/import/index.js';
import { handedOverCompiled } from '../../src/replay/compiledRuns.js';
import type { CallRecord, Trace } from '../../src/trace/types.js';
import { cli, tempDir } from '../cli/run.js';
import { expectToEqual } from '../expectToEqual.js';
import { callArb } from '../core/arbitraries.js';
import { answerAgainstEnd } from '../../src/trace/callOrder.js';
import { sameCompiled } from '../fast/sameCompiled.js';

const SHARED_MINI = '../shared/traces/mini-swe-agent';

/** Every field of two compiled traces equal: same keys in the same order, same array kinds, every number Object.is-equal. */
export function expectSameCompiled(actual: unknown, expected: unknown, path = 'compiled'): void {
  if (ArrayBuffer.isView(expected)) {
    expect(actual?.constructor, path).toBe(expected.constructor);
    const a = actual as unknown as ArrayLike<number>;
    const e = expected as unknown as ArrayLike<number>;
    expect(a.length, path).toBe(e.length);
    for (let i = 0; i < e.length; i++) if (!Object.is(a[i], e[i])) expect(a[i], `${path}[${i}]`).toBe(e[i]);
    return;
  }
  if (expected !== null && typeof expected === 'object') {
    expect(actual !== null && typeof actual === 'object', path).toBe(true);
    expect(Object.keys(actual as object), path).toEqual(Object.keys(expected));
    for (const [key, value] of Object.entries(expected)) expectSameCompiled((actual as Record<string, unknown>)[key], value, `${path}.${key}`);
    return;
  }
  expect(Object.is(actual, expected), `${path}: ${String(actual)} vs ${String(expected)}`).toBe(true);
}

/** Reads `path` through `cache`, noting whether the input itself was read. */
async function readThrough(cache: RunsCache, path: string): Promise<{ runs: Trace[]; readInput: boolean }> {
  let readInput = false;
  const spy: RunsCache = {
    runsOf: (file, settings, read) =>
      cache.runsOf(file, settings, (seen) => {
        readInput = true;
        return read(seen);
      }),
  };
  return { runs: await loadTraceFile(path, { cache: spy }), readInput };
}

/** A cold read then a warm one of `path`; the warm runs checked against the file read afresh (`fresh`, when read already). */
async function expectRoundTrip(path: string, dir: string, compact: boolean, fresh?: Trace[]): Promise<void> {
  fresh ??= await loadTraceFile(path);
  const cold = await readThrough(new CompiledTraceCache(dir, 'test', { compact }), path);
  expect(cold.readInput).toBe(true);
  expectToEqual(cold.runs, fresh);
  const warm = await readThrough(new CompiledTraceCache(dir, 'test', { compact }), path);
  expect(warm.readInput, path).toBe(false);
  expect(warm.runs).toHaveLength(fresh.length);
  warm.runs.forEach((run, i) => {
    const compiled = handedOverCompiled(run);
    expect(compiled, run.source).toBeDefined();
    // Field by field with an expect each only where the fast check (at least as strict) finds a difference.
    const expected = compileTrace(fresh[i]!);
    if (!sameCompiled(compiled, expected)) expectSameCompiled(compiled, expected, run.source);
    expect({ source: run.source, header: run.header, end: run.end }).toEqual({ source: fresh[i]!.source, header: fresh[i]!.header, end: fresh[i]!.end });
    expectToEqual(run.calls, fresh[i]!.calls);
  });
}

/** A run's calls as a reader accepts them: `final` only on the last call (a call after a final answer is refused: trace/callOrder.ts). */
function finalOnlyLast(calls: CallRecord[]): CallRecord[] {
  return calls.map((call, k) => {
    if (k === calls.length - 1 || call.final !== true) return call;
    const { final: _final, ...rest } = call;
    return rest;
  });
}

const runArb = fc.record({
  calls: fc.array(
    fc.record({ call: callArb, cost: fc.option(fc.integer({ min: 0, max: 50_000 }), { nil: undefined }) }).map(({ call, cost }): CallRecord => (cost === undefined ? call : { ...call, recordedCostUsd: cost / 1e6 })),
    { maxLength: 40 },
  ).map(finalOnlyLast),
  systemTokens: fc.nat(3000),
  goalTokens: fc.nat(800),
  outcome: fc.constantFrom('completed', 'error', 'limit'),
  runCostUsd: fc.option(fc.integer({ min: 0, max: 90_000 }), { nil: undefined }),
});

type RandomRun = typeof runArb extends fc.Arbitrary<infer T> ? T : never;

function nativeText(runs: RandomRun[]): string {
  return runs
    .map((run) =>
      [
        { type: 'header', schema: 'loopcost.trace/1', model: 'gpt-4o-mini', systemTokens: run.systemTokens, goalTokens: run.goalTokens },
        ...run.calls,
        // A last call that answers completed the run: an end saying otherwise is refused (trace/callOrder.ts answerAgainstEnd).
        { type: 'end', outcome: answerAgainstEnd(run.calls, { type: 'end', outcome: run.outcome }, '') === undefined ? run.outcome : 'completed', ...(run.runCostUsd === undefined ? {} : { recordedCostUsd: run.runCostUsd / 1e6 }) },
      ]
        .map((record) => JSON.stringify(record))
        .join('\n'),
    )
    .join('\n');
}

describe('compiled-trace cache', () => {
  it('hands back compiled traces equal to compileTrace on random traces, compact and whole (seeded)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(runArb, { minLength: 1, maxLength: 4 }), fc.boolean(), async (runs, compact) => {
        const dir = tempDir();
        try {
          const path = join(dir, 'runs.jsonl');
          writeFileSync(path, nativeText(runs));
          await expectRoundTrip(path, join(dir, 'cache'), compact);
        } finally {
          rmSync(dir, { recursive: true, force: true });
        }
      }),
      { numRuns: 60, seed: 7707 },
    );
  });

  it('hands back compiled traces equal to compileTrace on real recorded runs and the scenarios, compact and whole', async () => {
    const files = [
      ...readdirSync(SHARED_MINI).flatMap((sub) => readdirSync(join(SHARED_MINI, sub)).map((name) => join(SHARED_MINI, sub, name))).slice(0, 6),
      'scenarios/long-exploration.jsonl',
      'test/fixtures/http/anthropic-cache.jsonl',
      'test/fixtures/otel/two-traces.json',
    ];
    // Each file read afresh once, for both storages.
    const fresh = new Map<string, Trace[]>();
    for (const file of files) fresh.set(file, await loadTraceFile(file));
    for (const compact of [true, false]) {
      const dir = tempDir();
      for (const file of files) await expectRoundTrip(file, dir, compact, fresh.get(file));
    }
  });

  it('gives byte-identical replay, whatif and sweep reports with the cache off, cold and warm, and with the calls files damaged (rebuilt)', async () => {
    // One folder of the real runs (15: submitted, provider errors, timeouts; reasoning tokens) and a scenario: the
    // other folder's 23 runs go through the same cache code (the round trips above read some of them).
    const inputs = [join(SHARED_MINI, 'deepseek_reasoner_dev'), 'scenarios/long-exploration.jsonl'];
    const commands = [
      ['replay', ...inputs, '--format', 'json', '--max-steps', '40', '--max-cost', '0.05'],
      ['replay', ...inputs, '--format', 'json', '--context', 'window:8', '--cache', 'on'],
      ['whatif', ...inputs, '--format', 'json', '--try', 'max-steps=20', '--try', 'max-cost=0.02,max-repeat=3'],
      ['sweep', ...inputs, '--format', 'csv', '--grid', 'max-steps=10,30,60', '--grid', 'context=full,window:8'],
    ];
    for (const argv of commands) {
      const dir = tempDir();
      const plain = await cli(...argv);
      expect(plain.code, plain.stderr).toBe(0);
      const cold = await cli(...argv, '--cache-dir', dir);
      expect(cold.stdout, `${argv.join(' ')} (cold)`).toBe(plain.stdout);
      expect(readdirSync(dir).some((name) => name.endsWith('.lcc'))).toBe(true);
      const warm = await cli(...argv, '--cache-dir', dir);
      expect(warm.stdout, `${argv.join(' ')} (warm)`).toBe(plain.stdout);
      // With the calls files zeroed their chunks fail their CRC-32s, checked as each run is served (format
      // 12): the inputs are read instead and the entries written again, with the same output.
      if (argv[0] !== 'sweep') {
        const callsFiles = readdirSync(dir).filter((n) => n.endsWith('.calls')).map((n) => join(dir, n));
        for (const file of callsFiles) writeFileSync(file, Buffer.alloc(readFileSync(file).length));
        const noCalls = await cli(...argv, '--cache-dir', dir);
        expect(noCalls.stdout, `${argv.join(' ')} (warm, calls zeroed)`).toBe(plain.stdout);
        for (const file of callsFiles) expect(readFileSync(file).every((byte) => byte === 0), file).toBe(false);
      }
    }
  });

  it('does not trust an entry that is truncated, foreign, or of other bytes, and rebuilds it', async () => {
    const dir = tempDir();
    const path = join(dir, 'runs.jsonl');
    copyFileSync('scenarios/long-exploration.jsonl', path);
    const cacheDir = join(dir, 'cache');
    const fresh = await loadTraceFile(path);
    const cache = () => new CompiledTraceCache(cacheDir, 'test');
    expect((await readThrough(cache(), path)).readInput).toBe(true);
    const entry = () => join(cacheDir, readdirSync(cacheDir).find((name) => name.endsWith('.lcc'))!);
    const original = readFileSync(entry());

    truncateSync(entry(), original.length - 1);
    let read = await readThrough(cache(), path);
    expect(read.readInput).toBe(true);
    expectToEqual(read.runs, fresh);
    expect(readFileSync(entry()).equals(original)).toBe(true);

    writeFileSync(entry(), Buffer.concat([original.subarray(0, 64), Buffer.alloc(original.length - 64, 1)]));
    read = await readThrough(cache(), path);
    expect(read.readInput).toBe(true);
    expect(readFileSync(entry()).equals(original)).toBe(true);

    // Another input's entry under this key (its head names the other key).
    const mine = entry();
    const other = join(dir, 'other.jsonl');
    copyFileSync('test/fixtures/http/anthropic-cache.jsonl', other);
    await readThrough(cache(), other);
    const otherEntry = readdirSync(cacheDir).filter((name) => name.endsWith('.lcc')).map((name) => join(cacheDir, name)).find((name) => name !== mine)!;
    copyFileSync(otherEntry, mine);
    read = await readThrough(cache(), path);
    expect(read.readInput).toBe(true);
    expectToEqual(read.runs, fresh);

    // Changed bytes: another key, the input read again.
    writeFileSync(path, readFileSync(path, 'utf8').replace('"outputTokens":', '"outputTokens": '));
    expect((await readThrough(cache(), path)).readInput).toBe(true);
    expect((await readThrough(cache(), path)).readInput).toBe(false);
  });

  it('keeps no entry for a file that stopped being read half-way or fails', async () => {
    const dir = tempDir();
    const path = join(dir, 'runs.jsonl');
    writeFileSync(path, `${readFileSync('scenarios/long-exploration.jsonl', 'utf8')}\n{"type":"call","outputTokens":-1}\n`);
    await expect(loadTraceFile(path, { cache: new CompiledTraceCache(join(dir, 'cache'), 'test') })).rejects.toThrow();
    expect(readdirSync(join(dir, 'cache')).filter((name) => !name.endsWith('.hash'))).toEqual([]);
  });

  it('keeps no entry for Claude Code sessions (their runs read the sub-agents\' files), and serves their runs as read', async () => {
    const dir = tempDir();
    const path = 'test/fixtures/claude-code/ae4a77f8-aedd-4bc1-888f-c94edc91af04.jsonl';
    const runs = await loadTraceFile(path, { cache: new CompiledTraceCache(dir, 'test') });
    expectToEqual(runs, await loadTraceFile(path));
    expect(readdirSync(dir).filter((name) => !name.endsWith('.hash'))).toEqual([]);
  });
});
