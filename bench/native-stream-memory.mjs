// Replays native JSONL files of ~16 MB and ~160 MB (1,000 calls a run, synthetic) under a 64 MB heap
// cap and compares peak memory: a native file is read line by line, one run at a time, and each run's
// result is kept as columns and written run by run, so the peak does not grow with the file (issue 7:
// flat within ±10% from 16 MB to 1 GB). `--big` adds a ~1 GB file, past the ~512 MB that one JavaScript
// string holds (a whole-file read could not even start); it is written to the temporary directory and
// removed after. `--rounds N` interleaved rounds (default 3), `--against DIR` another built tree side by
// side, `--trace-gc` the live heap too (bench/lib/memoryRounds.mjs). Not a test: run with `npm run bench`.
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeNativeRuns } from './lib/measure.mjs';
import { memoryArgs, memoryReport, memoryRounds } from './lib/memoryRounds.mjs';
import { smoke } from './lib/smoke.mjs';

const CALLS_PER_RUN = 1000;
const args = memoryArgs(process.argv);
const dir = mkdtempSync(join(tmpdir(), 'loopcost-native-'));
try {
  const sizes = smoke ? [2] : args.big ? [115, 1150, 7200] : [115, 1150];
  const cases = sizes.map((runs) => {
    const input = join(dir, `runs${runs}.jsonl`);
    writeNativeRuns(input, runs, CALLS_PER_RUN);
    return { label: `${runs} runs`, inputMb: statSync(input).size / 1e6, argv: ['replay', input, '--preset', 'none', '--format', 'json', '--out', join(dir, `report${runs}.json`)] };
  });
  const results = memoryRounds({ ...args, ...(smoke ? { rounds: 1 } : {}), cases, log: args.json ? () => {} : (line) => console.log(line) });
  if (args.json) console.log(JSON.stringify({ builds: results, peakGrowth: results[0].peakGrowth }));
  else for (const line of memoryReport(results)) console.log(line);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
