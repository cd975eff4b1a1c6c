// Imports ~16 MB and ~110 MB of real mini-swe-agent trajectories (../shared, copied k times into a temp
// dir) and compares peak memory: constant memory means the peak does not grow with the input.
// The child runs with a 64 MB heap cap, less than the input: it would fail if the input were held.
// Not a test: run with `npm run bench`.
import { copyFileSync, mkdtempSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCliUnderHeapCap } from './cliUnderHeapCap.mjs';
import { gunzipSync } from 'node:zlib';
import { readFileSync } from 'node:fs';

const source = '../shared/traces/mini-swe-agent';
const files = readdirSync(source).flatMap((dir) => readdirSync(join(source, dir)).map((f) => join(source, dir, f)));
const unzipped = files.reduce((sum, f) => sum + gunzipSync(readFileSync(f)).length, 0);

function run(copies) {
  const dir = mkdtempSync(join(tmpdir(), 'loopcost-import-'));
  for (let k = 0; k < copies; k++) {
    mkdirSync(join(dir, `copy${k}`));
    files.forEach((f, i) => copyFileSync(f, join(dir, `copy${k}`, `${i}.traj.json.gz`)));
  }
  const out = join(dir, 'out.jsonl');
  const result = runCliUnderHeapCap(['import', dir, '--out', out]);
  const outMb = statSync(out).size / 1e6;
  rmSync(dir, { recursive: true, force: true });
  return { ...result, inputMb: (copies * unzipped) / 1e6, outMb };
}

const results = [];
// `--big`: ~1 GB of trajectories (63 copies), written to the temporary directory and removed after.
const copiesList = process.argv.includes('--big') ? [1, 7, 63] : [1, 7];
for (const copies of copiesList) {
  const r = run(copies);
  results.push({ inputMb: r.inputMb, outputMb: r.outMb, seconds: r.seconds, peakRssMb: r.maxRssKb / 1024, exitCode: r.code });
  if (!process.argv.includes('--json')) {
    console.log(`${r.inputMb.toFixed(0).padStart(5)} MB of trajectories → ${r.outMb.toFixed(1)} MB native in ${r.seconds.toFixed(1)} s, peak RSS ${(r.maxRssKb / 1024).toFixed(0)} MB (exit ${r.code})`);
  }
}
const growth = results.at(-1).peakRssMb / results[0].peakRssMb - 1;
if (process.argv.includes('--json')) console.log(JSON.stringify({ runs: results, peakGrowth: growth }));
else console.log(`peak RSS ${growth >= 0 ? '+' : ''}${(growth * 100).toFixed(0)}% from the smallest to the largest input (target: within ±10%)`);
