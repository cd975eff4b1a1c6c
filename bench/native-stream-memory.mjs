// Replays native JSONL files of ~16 MB and ~160 MB (1,000 calls a run, synthetic) under a 64 MB heap
// cap and compares peak memory: a native file is read line by line, one run at a time, and each run's
// result is kept as columns and written run by run, so the peak does not grow with the file (issue 7:
// flat within ±10% from 16 MB to 1 GB). `--big` adds a ~1 GB file, past the ~512 MB that one JavaScript
// string holds (a whole-file read could not even start); it is written to the temporary directory and
// removed after. Not a test: run with `npm run bench`.
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCliUnderHeapCap } from './cliUnderHeapCap.mjs';
import { writeNativeRuns } from './lib/measure.mjs';

const CALLS_PER_RUN = 1000;


function run(runs) {
  const dir = mkdtempSync(join(tmpdir(), 'loopcost-native-'));
  const input = join(dir, 'runs.jsonl');
  writeNativeRuns(input, runs, CALLS_PER_RUN);
  const out = join(dir, 'report.json');
  const result = runCliUnderHeapCap(['replay', input, '--preset', 'none', '--format', 'json', '--out', out]);
  const inputMb = statSync(input).size / 1e6;
  rmSync(dir, { recursive: true, force: true });
  return { ...result, inputMb, calls: runs * CALLS_PER_RUN };
}

const sizes = process.argv.includes('--big') ? [115, 1150, 7200] : [115, 1150];
const results = [];
for (const runs of sizes) {
  const r = run(runs);
  results.push({ inputMb: r.inputMb, runs, calls: r.calls, seconds: r.seconds, callsPerSec: r.calls / r.seconds, peakRssMb: r.maxRssKb / 1024, exitCode: r.code });
  if (!process.argv.includes('--json')) console.log(
    `${r.inputMb.toFixed(0).padStart(5)} MB native (${runs} runs, ${r.calls} calls) replayed in ${r.seconds.toFixed(1)} s ` +
      `(${(r.calls / r.seconds / 1e3).toFixed(0)} k calls/s), peak RSS ${(r.maxRssKb / 1024).toFixed(0)} MB (exit ${r.code})`,
  );
}
const growth = results.at(-1).peakRssMb / results[0].peakRssMb - 1;
if (process.argv.includes('--json')) console.log(JSON.stringify({ files: results, peakGrowth: growth }));
else console.log(`peak RSS ${growth >= 0 ? '+' : ''}${(growth * 100).toFixed(0)}% from the smallest to the largest file (target: within ±10%)`);
