// Imports ~16 MB and ~110 MB of real mini-swe-agent trajectories (../shared, copied k times into a temp
// dir) and compares peak memory: constant memory means the peak does not grow with the input.
// The child runs with a 64 MB heap cap, less than the input: it would fail if the input were held.
// `--big` adds ~1 GB (63 copies); `--rounds N` interleaved rounds (default 3), `--against DIR` another
// built tree side by side, `--trace-gc` the live heap too (bench/lib/memoryRounds.mjs).
// Not a test: run with `npm run bench`.
import { copyFileSync, mkdtempSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { memoryArgs, memoryReport, memoryRounds } from './lib/memoryRounds.mjs';
import { smoke } from './lib/smoke.mjs';

const args = memoryArgs(process.argv);
const source = '../shared/traces/mini-swe-agent';
// Under --smoke: the smallest case (one copy) of a few files, one round.
const files = readdirSync(source).flatMap((dir) => readdirSync(join(source, dir)).map((f) => join(source, dir, f))).slice(0, smoke ? 3 : undefined);
const unzipped = files.reduce((sum, f) => sum + gunzipSync(readFileSync(f)).length, 0);

const root = mkdtempSync(join(tmpdir(), 'loopcost-import-'));
try {
  const copiesList = smoke ? [1] : args.big ? [1, 7, 63] : [1, 7];
  const cases = copiesList.map((copies) => {
    const dir = join(root, `in${copies}`);
    for (let k = 0; k < copies; k++) {
      mkdirSync(join(dir, `copy${k}`), { recursive: true });
      files.forEach((f, i) => copyFileSync(f, join(dir, `copy${k}`, `${i}.traj.json.gz`)));
    }
    return { label: `${copies} cop${copies === 1 ? 'y' : 'ies'}`, inputMb: (copies * unzipped) / 1e6, argv: ['import', dir, '--out', join(root, `out${copies}.jsonl`)] };
  });
  const results = memoryRounds({ ...args, ...(smoke ? { rounds: 1 } : {}), cases, log: args.json ? () => {} : (line) => console.log(line) });
  if (args.json) console.log(JSON.stringify({ builds: results, peakGrowth: results[0].peakGrowth }));
  else for (const line of memoryReport(results)) console.log(line);
} finally {
  rmSync(root, { recursive: true, force: true });
}
