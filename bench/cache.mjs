// Runs cache (`--cache-dir`, src/cache/traceCache.ts): reading ~100 MB of native JSONL into runs with no
// cache, with a cold cache (read + entry written) and with a warm one (entry read), in the same process,
// rounds interleaved, CPU and wall time. Target (issue 7): a repeated replay of 100 MB starts in under
// 0.3 s (the first run is ready once the entry is read and checked; runs are parsed as they are taken).
// Also what v8.serialize would give (its deserialize) for the same runs. Not a test: `npm run bench`.
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import v8 from 'node:v8';
import { loadTraceFile, streamTraceFile } from '../dist/index.js';
import { TraceFileCache } from '../dist/cache/traceCache.js';
import { cpuMs, median, writeNativeRuns } from './lib/measure.mjs';

const json = process.argv.includes('--json');
const RUNS = process.argv.includes('--quick') ? 70 : 700;
const ROUNDS = process.argv.includes('--quick') ? 2 : 3;



async function timed(work) {
  const cpu0 = cpuMs();
  const wall0 = performance.now();
  const value = await work();
  return { cpuMs: cpuMs() - cpu0, wallMs: performance.now() - wall0, count: value.length };
}

const dir = mkdtempSync(join(tmpdir(), 'loopcost-cache-'));
try {
  const file = join(dir, 'runs.jsonl');
  writeNativeRuns(file, RUNS);
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
  const figure = (name) => ({ cpuMs: Math.round(median(rows[name].map((x) => x.cpuMs))), wallMs: Math.round(median(rows[name].map((x) => x.wallMs))) });
  const result = { inputMb: Math.round(mb), runs, noCache: figure('none'), coldCache: figure('cold'), warmCache: figure('warm'), warmFirstRun: figure('first'), v8DeserializeMs: Math.round(deserialize.wallMs) };
  if (json) console.log(JSON.stringify(result));
  else {
    console.log(`runs cache: ${result.inputMb} MB native JSONL, ${runs} runs (median of ${ROUNDS} rounds; target: warm start < 300 ms)`);
    for (const [label, f] of [['no cache', result.noCache], ['cold cache (read + write)', result.coldCache], ['warm cache', result.warmCache], ['warm cache, first run ready', result.warmFirstRun]]) {
      console.log(`  ${label.padEnd(28)} ${String(f.wallMs).padStart(6)} ms wall ${String(f.cpuMs).padStart(6)} ms CPU`);
    }
    console.log(`  v8.deserialize of the same runs ${result.v8DeserializeMs} ms`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
