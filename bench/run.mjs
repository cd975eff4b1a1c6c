// `npm run bench`: every benchmark, one after another, each in its own process (timings are not tests).
// With `--json` (`npm run -s bench -- --json`), one JSON object: { kernel, sweep, replayFast, replayLinear,
// read, importMemory, nativeStreamMemory, hostileMemory, serveSessionsMemory, startup, render, cache, workers },
// each the JSON its script prints with --json.
// Other flags are passed on to every script: `--smoke` runs each once on tiny inputs (bench/lib/smoke.mjs;
// test/bench/smoke.test.ts), `--quick` fewer rounds where a script has them.
import { spawnSync } from 'node:child_process';

const BENCHES = {
  kernel: 'bench/kernel.mjs',
  sweep: 'bench/sweep.mjs',
  replayFast: 'bench/replay-fast.mjs',
  replayLinear: 'bench/replay-linear.mjs',
  read: 'bench/read.mjs',
  importMemory: 'bench/import-memory.mjs',
  nativeStreamMemory: 'bench/native-stream-memory.mjs',
  hostileMemory: 'bench/hostile-memory.mjs',
  serveSessionsMemory: 'bench/serve-sessions-memory.mjs',
  startup: 'bench/startup.mjs',
  render: 'bench/render.mjs',
  cache: 'bench/cache.mjs',
  workers: 'bench/workers.mjs',
};
/** Node flags a script needs (it measures the heap after gc). */
const NODE_FLAGS = { 'bench/serve-sessions-memory.mjs': ['--expose-gc'] };
const json = process.argv.includes('--json');
const only = process.argv.find((a) => a.startsWith('--only='))?.slice('--only='.length).split(',');
const passOn = process.argv.slice(2).filter((a) => a !== '--json' && !a.startsWith('--only='));
const report = {};
let failed = false;
for (const [name, script] of Object.entries(BENCHES)) {
  if (only && !only.includes(name)) continue;
  if (!json) console.log(`\n── ${script} ──`);
  const child = spawnSync(process.execPath, [...(NODE_FLAGS[script] ?? []), script, ...passOn, ...(json ? ['--json'] : [])], { stdio: json ? ['ignore', 'pipe', 'inherit'] : 'inherit', encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (child.status !== 0) failed = true;
  if (json) report[name] = child.status === 0 ? JSON.parse(child.stdout.trim().split('\n').at(-1)) : { error: `exit ${child.status}` };
}
if (json) console.log(JSON.stringify(report, null, 2));
process.exitCode = failed ? 1 : 0;
