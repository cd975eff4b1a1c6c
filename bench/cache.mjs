// Runs cache (`--cache-dir`, src/cache/traceCache.ts): reading ~100 MB of native JSONL into runs with no
// cache, with a cold cache (read + entry written) and with a warm one (entry read), in the same process,
// rounds interleaved, CPU and wall time. Target (issue 7): a repeated replay of 100 MB starts in under
// 0.3 s (the first run is ready once the entry is read and checked; runs are parsed as they are taken).
// Also what v8.serialize would give (its deserialize) for the same runs. Then the cache of compiled traces
// (src/cache/compiledCache.ts, what replay, whatif and sweep use): cold (read, compile, entry written),
// warm (every run ready to replay: its compiled trace handed over, calls not inflated), stored wide
// (every array whole, a view of the one buffer read) and compact (column programs, the default: decoded
// when read), its size on disk, and what hashing the input costs when the cache has no memo of its hash.
// Then the other shape, many small runs (`smallRuns`: 8,000 synthetic runs of scenarios/production-mix.yaml,
// ~26 MB in 8 files): the whole CLI's `replay` and `sweep` (a 960-configuration grid) with no cache, a cold
// cache and a warm one, rounds interleaved, median wall time and the ratios against no cache in the same
// rounds (targets: cold ≤ ~1.15×, warm < 1×), outputs checked byte-identical. Not a test.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import v8 from 'node:v8';
import { loadTraceFile, streamTraceFile } from '../dist/import/libraryReaders.js';
import { TraceFileCache } from '../dist/cache/traceCache.js';
import { CompiledTraceCache } from '../dist/cache/compiledCache.js';
import { contentHash } from '../dist/cache/contentHash.js';
import { handedOverCompiled } from '../dist/replay/compiledRuns.js';
import { cpuMs, median, writeNativeRuns } from './lib/measure.mjs';
import { sized } from './lib/smoke.mjs';

const json = process.argv.includes('--json');
const RUNS = sized(process.argv.includes('--quick') ? 70 : 700, 3);
const CALLS_PER_RUN = sized(1000, 100);
const ROUNDS = sized(process.argv.includes('--quick') ? 2 : 3, 1);



async function timed(work) {
  const cpu0 = cpuMs();
  const wall0 = performance.now();
  const value = await work();
  return { cpuMs: cpuMs() - cpu0, wallMs: performance.now() - wall0, count: value.length };
}

const dir = mkdtempSync(join(tmpdir(), 'loopcost-cache-'));
try {
  const file = join(dir, 'runs.jsonl');
  writeNativeRuns(file, RUNS, CALLS_PER_RUN);
  // Older than the content-hash memo's margin (src/cache/contentHash.ts), as an input replayed again is.
  // Not under --smoke (2 s of its ~4 s of wall time): there a warm read hashes the input instead of the memo.
  await new Promise((done) => setTimeout(done, sized(2100, 0)));
  const mb = statSync(file).size / 1e6;
  const rows = { none: [], cold: [], warm: [], first: [] };
  let runs = 0;
  for (let r = 0; r < ROUNDS; r++) {
    const cacheDir = join(dir, `cache-${r}`);
    const none = await timed(() => loadTraceFile(file));
    runs = none.count;
    rows.none.push(none);
    rows.cold.push(await timed(() => loadTraceFile(file, { cache: new TraceFileCache(cacheDir, 'bench') })));
    const first = await timed(async () => {
      const runs = streamTraceFile(file, { cache: new TraceFileCache(cacheDir, 'bench') });
      await runs.next();
      await runs.return(undefined);
      return [];
    });
    rows.first.push(first);
    rows.warm.push(await timed(() => loadTraceFile(file, { cache: new TraceFileCache(cacheDir, 'bench') })));
  }
  const traces = await loadTraceFile(file);
  const serialized = v8.serialize(traces);
  const deserialize = await timed(() => v8.deserialize(serialized));
  traces.length = 0;
  // The compiled-trace cache. The input is older than the hash memo's margin (2 s), so a warm read takes its hash from the memo.
  const compiledRows = { hash: [], wideCold: [], wideWarm: [], compactCold: [], compactWarm: [], compactFirst: [] };
  const sizes = {};
  for (let r = 0; r < ROUNDS; r++) {
    compiledRows.hash.push(await timed(async () => [contentHash(file)]));
    for (const compact of [false, true]) {
      const name = compact ? 'compact' : 'wide';
      const cacheDir = join(dir, `compiled-${name}-${r}`);
      const load = async () => {
        const traces = await loadTraceFile(file, { cache: new CompiledTraceCache(cacheDir, 'bench', { compact }) });
        if (!traces.every((trace) => handedOverCompiled(trace) !== undefined)) throw new Error('not served from the cache');
        return traces;
      };
      compiledRows[`${name}Cold`].push(await timed(() => loadTraceFile(file, { cache: new CompiledTraceCache(cacheDir, 'bench', { compact }) })));
      await load();
      compiledRows[`${name}Warm`].push(await timed(load));
      if (compact) {
        compiledRows.compactFirst.push(await timed(async () => {
          const runs = streamTraceFile(file, { cache: new CompiledTraceCache(cacheDir, 'bench', { compact }) });
          const first = await runs.next();
          await runs.return(undefined);
          if (first.done || handedOverCompiled(first.value) === undefined) throw new Error('not served from the cache');
          return [];
        }));
      }
      sizes[name] = Object.fromEntries(['.lcc', '.calls'].map((ext) => [ext, readdirSync(cacheDir).filter((f) => f.endsWith(ext)).reduce((sum, f) => sum + statSync(join(cacheDir, f)).size, 0) / 1e6]));
      rmSync(cacheDir, { recursive: true, force: true });
    }
  }
  const smallRuns = smallRunsFigures(dir);
  const figure = (name, from = rows) => ({ cpuMs: Math.round(median(from[name].map((x) => x.cpuMs))), wallMs: Math.round(median(from[name].map((x) => x.wallMs))) });
  const compiled = Object.fromEntries(Object.keys(compiledRows).map((name) => [name, figure(name, compiledRows)]));
  const result = {
    inputMb: Math.round(mb),
    runs,
    noCache: figure('none'),
    coldCache: figure('cold'),
    warmCache: figure('warm'),
    warmFirstRun: figure('first'),
    v8DeserializeMs: Math.round(deserialize.wallMs),
    compiled: { ...compiled, entryMb: { wide: sizes.wide, compact: sizes.compact } },
    smallRuns,
  };
  if (json) console.log(JSON.stringify(result));
  else {
    console.log(`runs cache: ${result.inputMb} MB native JSONL, ${runs} runs (median of ${ROUNDS} rounds; target: warm start < 300 ms)`);
    for (const [label, f] of [['no cache', result.noCache], ['cold cache (read + write)', result.coldCache], ['warm cache', result.warmCache], ['warm cache, first run ready', result.warmFirstRun]]) {
      console.log(`  ${label.padEnd(28)} ${String(f.wallMs).padStart(6)} ms wall ${String(f.cpuMs).padStart(6)} ms CPU`);
    }
    console.log(`  v8.deserialize of the same runs ${result.v8DeserializeMs} ms`);
    const c = result.compiled;
    console.log(`compiled-trace cache (replay, whatif, sweep; target: warm start < 300 ms):`);
    for (const [label, f] of [['wide, cold (read + compile + write)', c.wideCold], ['wide, warm: all runs ready', c.wideWarm], ['compact, cold', c.compactCold], ['compact, warm: all runs ready', c.compactWarm], ['compact, warm: first run ready', c.compactFirst], ['hashing the input (no memo)', c.hash]]) {
      console.log(`  ${label.padEnd(36)} ${String(f.wallMs).padStart(6)} ms wall ${String(f.cpuMs).padStart(6)} ms CPU`);
    }
    for (const name of ['wide', 'compact']) console.log(`  entry on disk, ${name}: ${c.entryMb[name]['.lcc'].toFixed(1)} MB compiled + ${c.entryMb[name]['.calls'].toFixed(1)} MB calls`);
    const m = result.smallRuns;
    console.log(`many small runs: ${m.runs} synthetic runs, ${m.inputMb} MB in ${m.files} files, whole CLI (median of ${ROUNDS} rounds; targets: cold ≤ ~1.15×, warm < 1×)`);
    for (const [command, f] of Object.entries(m.commands)) {
      console.log(`  ${command.padEnd(6)} no cache ${String(f.noCacheMs).padStart(6)} ms   cold ${String(f.coldMs).padStart(6)} ms (${f.coldRatio.toFixed(2)}×)   warm ${String(f.warmMs).padStart(6)} ms (${f.warmRatio.toFixed(2)}×)`);
    }
    console.log(`  compiled cache on disk: ${m.entryMb.toFixed(1)} MB`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}

/**
 * Many small runs through the whole CLI (replay; sweep over 60 × 4 × 4 configurations): no cache, cold
 * (a fresh directory) and warm, interleaved round by round; median wall ms and ratios to no cache.
 */
function smallRunsFigures(dir) {
  const runs = sized(8000, 16);
  const cli = (args) => {
    const start = performance.now();
    const child = spawnSync(process.execPath, [fileURLToPath(new URL('../bin/loopcost.js', import.meta.url)), ...args], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
    if (child.status !== 0) throw new Error(`loopcost ${args.join(' ')}: exit ${child.status}\n${child.stderr}`);
    return { ms: performance.now() - start, stdout: child.stdout };
  };
  const all = cli(['generate', fileURLToPath(new URL('../scenarios/production-mix.yaml', import.meta.url)), '--runs', String(runs), '--seed', '3']).stdout.split('\n').filter(Boolean);
  const starts = all.flatMap((line, i) => (line.startsWith('{"type":"header"') ? [i] : []));
  const files = Array.from({ length: 8 }, (_, k) => {
    const file = join(dir, `small-${k}.jsonl`);
    const to = k === 7 ? all.length : starts[Math.floor(((k + 1) * starts.length) / 8)];
    writeFileSync(file, `${all.slice(starts[Math.floor((k * starts.length) / 8)], to).join('\n')}\n`);
    return file;
  });
  // Under --smoke, 2 step caps (a 32-configuration grid on the same three axes): the same commands, tiny.
  const grid = ['--grid', `max-steps=${Array.from({ length: sized(60, 2) }, (_, i) => i + 1).join(',')}`, '--grid', 'max-repeat=2,3,4,5', '--grid', 'context=full,window:4,window:8,window:16', '--format', 'json'];
  const commands = { replay: ['replay', ...files], sweep: ['sweep', ...files, ...grid] };
  const figures = {};
  let entryMb = 0;
  for (const [name, args] of Object.entries(commands)) {
    const times = { none: [], cold: [], warm: [] };
    for (let r = 0; r < ROUNDS; r++) {
      const cacheDir = join(dir, `small-cache-${name}-${r}`);
      const none = cli(args);
      const cold = cli([...args, '--cache-dir', cacheDir]);
      const warm = cli([...args, '--cache-dir', cacheDir]);
      if (cold.stdout !== none.stdout || warm.stdout !== none.stdout) throw new Error(`${name}: output differs with the cache`);
      times.none.push(none.ms);
      times.cold.push(cold.ms);
      times.warm.push(warm.ms);
      entryMb = readdirSync(cacheDir).filter((f) => /\.(lcc|calls)$/.test(f)).reduce((sum, f) => sum + statSync(join(cacheDir, f)).size, 0) / 1e6;
      rmSync(cacheDir, { recursive: true, force: true });
    }
    const noCacheMs = median(times.none);
    figures[name] = { noCacheMs: Math.round(noCacheMs), coldMs: Math.round(median(times.cold)), warmMs: Math.round(median(times.warm)), coldRatio: median(times.cold) / noCacheMs, warmRatio: median(times.warm) / noCacheMs };
  }
  const inputMb = files.reduce((sum, file) => sum + statSync(file).size, 0) / 1e6;
  return { runs, files: files.length, inputMb: Math.round(inputMb), entryMb, commands: figures };
}
