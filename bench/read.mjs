// Reading speed, in the same process, rounds interleaved; CPU time (user + system), which a loaded shared
// machine moves less than wall time. Target (issue 7): within 2× of JSON.parse of the same bytes.
// - native: JSONL read into runs (`loadTraceFiles`: line splitting, JSON.parse, the depth and
//   duplicate-key checks, validation, the trace rules) against `JSON.parse` of the same lines;
// - mini-swe-agent: what `loopcost import` does with the gzip trajectories in ../shared (read, gunzip,
//   detect, validate, build the runs, write them as native JSONL) against gunzip + `JSON.parse` of the
//   same files (the shared set copied COPIES times, so the figure is not the first file's cold start).
// Not a test: `npm run bench`.
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { loadTraceFiles } from '../dist/import/libraryReaders.js';
import { writeNativeTraces } from '../dist/trace/writeNative.js';
import { cpuMs, median, writeNativeRuns } from './lib/measure.mjs';
import { firstOfEachFolder, smoke, sized } from './lib/smoke.mjs';

const json = process.argv.includes('--json');
const RUNS = sized(100, 2);
const CALLS_PER_RUN = sized(1000, 50);
const ROUNDS = sized(process.argv.includes('--quick') ? 3 : 7, 1);



/** Interleaved rounds of `baseline` and `measured` (round 0 warms up): medians and the median ratio. */
async function interleaved(baseline, measured) {
  const base = [], timed = [];
  for (let r = 0; r < ROUNDS + 1; r++) {
    let t = cpuMs();
    baseline();
    const a = cpuMs() - t;
    t = cpuMs();
    await measured();
    const b = cpuMs() - t;
    if (r > 0) (base.push(a), timed.push(b));
  }
  return { baseMs: Math.round(median(base)), timedMs: Math.round(median(timed)), ratio: Math.round(median(base.map((a, i) => timed[i] / a)) * 100) / 100 };
}

async function countRuns(files, expected, write = false) {
  let runs = 0;
  let bytes = 0;
  for await (const trace of loadTraceFiles(files)) {
    runs++;
    if (write) bytes += writeNativeTraces([trace]).length;
  }
  if (runs !== expected) throw new Error(`read ${runs} runs, expected ${expected}`);
  return bytes;
}

async function native(dir) {
  const file = join(dir, 'runs.jsonl');
  writeNativeRuns(file, RUNS, CALLS_PER_RUN);
  const mb = statSync(file).size / 1e6;
  const r = await interleaved(
    () => {
      for (const line of readFileSync(file, 'utf8').split('\n')) if (line) JSON.parse(line);
    },
    () => countRuns([file], RUNS),
  );
  return { inputMb: Math.round(mb * 10) / 10, jsonParseCpuMs: r.baseMs, loadTraceFilesCpuMs: r.timedMs, ratio: r.ratio };
}

const MINI_SOURCE = '../shared/traces/mini-swe-agent';
const COPIES = sized(4, 1);

async function miniSweAgent() {
  const sources = smoke ? firstOfEachFolder(MINI_SOURCE) : readdirSync(MINI_SOURCE).flatMap((sub) => readdirSync(join(MINI_SOURCE, sub)).map((name) => join(MINI_SOURCE, sub, name)));
  const files = Array.from({ length: COPIES }, () => sources).flat();
  const mb = files.reduce((sum, file) => sum + gunzipSync(readFileSync(file)).length, 0) / 1e6;
  const r = await interleaved(
    () => {
      for (const file of files) JSON.parse(gunzipSync(readFileSync(file)).toString('utf8'));
    },
    () => countRuns(files, files.length, true),
  );
  return { files: files.length, inputMb: Math.round(mb * 10) / 10, gunzipJsonParseCpuMs: r.baseMs, importCpuMs: r.timedMs, ratio: r.ratio };
}

const dir = mkdtempSync(join(tmpdir(), 'loopcost-read-'));
try {
  const result = await native(dir);
  const mini = await miniSweAgent();
  if (json) console.log(JSON.stringify({ native: result, miniSweAgent: mini }));
  else {
    console.log(`reading, CPU ms, median of ${ROUNDS} interleaved rounds (target: within 2× of JSON.parse of the same bytes)`);
    console.log(`  ${result.inputMb} MB of native JSONL (${RUNS} runs × ${CALLS_PER_RUN} calls)`);
    console.log(`    JSON.parse of the lines           ${result.jsonParseCpuMs} ms`);
    console.log(`    loadTraceFiles                    ${result.loadTraceFilesCpuMs} ms   (${result.ratio}×)`);
    console.log(`  ${mini.inputMb} MB of mini-swe-agent trajectories (${mini.files} .traj.json.gz: ../shared × ${COPIES})`);
    console.log(`    gunzip + JSON.parse               ${mini.gunzipJsonParseCpuMs} ms`);
    console.log(`    import (read + write native)      ${mini.importCpuMs} ms   (${mini.ratio}×)`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
