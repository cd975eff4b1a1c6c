// Build step (`npm run build`, after scripts/bundle-cli.mjs): V8's code cache for the CLI's two scripts,
// dist/cli-bundle.cache and dist/cli-actions-bundle.cache (`<build id>\n` + cached data). The scripts are
// compiled and run on the commands a start most often serves (`--help`, `--version`, `replay --help`,
// `replay scenarios/`, output discarded) before the caches are taken, so they hold the functions those runs
// compiled, not only the top level. Read by bin/loadCli.js.
// The same for dist/sweep-worker-bundle.js: compiled on a worker thread (a cache is taken in the isolate
// that compiled the script), run twice on a share of recorded and synthetic runs over a small grid with a
// context axis — as a sweep runs it (files streamed, then a round of quantiles: 5,000 costs, so the sampled
// selection) and with --target-completion (runs kept for the halved step caps) — then cached as
// dist/sweep-worker-bundle.cache (read by bin/sweepWorker.js).
import { writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { buildIdOf, loadLinkedCli, youngGenerationKeptSmall } from '../bin/loadCli.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

function writeCache(name, buildId, data) {
  writeFileSync(resolve(root, `dist/${name}.cache`), Buffer.concat([Buffer.from(`${buildId}\n`, 'latin1'), data]));
  console.error(`code cache: dist/${name}.cache (${(data.length / 1024).toFixed(0)} KB)`);
}

const cli = await loadLinkedCli({ useCache: false });
if (cli === undefined) throw new Error('cli code cache: dist/cli-bundle.js is missing (run scripts/bundle-cli.mjs first)');
const quiet = { stdout: () => true, stderr: () => true, cwd: root };
for (const argv of [['--help'], ['--version'], ['replay', '--help'], ['replay', 'scenarios/']]) {
  const code = await cli.main(argv, quiet);
  if (code !== 0) throw new Error(`cli code cache: loopcost ${argv.join(' ')} exited ${code}`);
}
// Each under the flags it is compiled with at a start (bin/loadCli.js, youngGenerationKeptSmall): the
// command line under V8's defaults, the actions under a young generation kept small (and below, the worker
// under the young generation a sweep lets grow before it starts its workers).
for (const [name, compiled, small] of [['cli-bundle', cli.compiled.commandLine, false], ['cli-actions-bundle', cli.compiled.actions, true]]) {
  youngGenerationKeptSmall(small);
  writeCache(name, buildIdOf(compiled.source), compiled.script.createCachedData());
}

// A sweep worker's tasks as the command sends them (src/cli/actions/sweepWorkers.ts), each over its own
// channel, answered as the command answers (a round of quantiles after the tallies, then no halving), then
// its cache.
const WORKER = `
const { MessageChannel, parentPort, workerData } = require('node:worker_threads');
const { buildIdOf, compileBundle, runBundle } = require(workerData.loadCli);
function run(runSweepWorker, task) {
  const { port1, port2 } = new MessageChannel();
  return new Promise((resolve, reject) => {
    port1.on('message', (reply) => {
      if (reply.error) reject(new Error(reply.error.message));
      else if (reply.tallies) port1.postMessage({ select: [[Float64Array.from({ length: 5000 }, (_, i) => (i * 7919) % 5003)]] });
      else if (reply.quantiles) port1.postMessage({ configs: [] });
    });
    runSweepWorker(task, port2).then(() => { port1.close(); resolve(); }, reject);
  });
}
(async () => {
  const compiled = compileBundle('sweep-worker-bundle', { useCache: false });
  if (compiled === undefined) throw new Error('dist/sweep-worker-bundle.js is missing (run scripts/bundle-cli.mjs first)');
  const { runSweepWorker } = await runBundle(compiled.script);
  for (const task of workerData.tasks) await run(runSweepWorker, task);
  parentPort.postMessage({ buildId: buildIdOf(compiled.source), data: compiled.script.createCachedData() });
})();
`;
const recorded = ['scenarios/long-exploration.jsonl', 'scenarios/backtracking-explorer.jsonl', 'scenarios/recorded-pair.jsonl'];
/** A share of the recorded files and 40 synthetic runs; with `extra` flags given too. */
const taskWith = (extra) => ({
  mode: 'share',
  inputs: [...recorded, 'scenarios/production-mix.yaml'],
  opts: { context: 'full', grid: ['max-steps=4,9,20', 'max-repeat=2,3', 'context=full,window:4'], format: 'json', workers: '2', ...extra },
  given: ['grid', 'format', 'workers', ...Object.keys(extra)],
  range: { from: 0, to: 12 },
  units: [...recorded.map((file, order) => ({ files: [file], scenarioRuns: [{ firstRun: 0, runs: 0 }], order })), { files: [], scenarioRuns: [{ firstRun: 0, runs: 40 }], order: 3 }],
  next: new SharedArrayBuffer(4),
});
const tasks = [taskWith({}), taskWith({ targetCompletion: '0.3' })];
process.chdir(root);
// Under the flags a sweep starts its workers with: its young generation let grow (src/cli/youngGeneration.ts).
youngGenerationKeptSmall(false);
const worker = new Worker(WORKER, { eval: true, workerData: { loadCli: resolve(root, 'bin/loadCli.js'), tasks } });
const cache = await new Promise((done, fail) => {
  worker.on('message', done);
  worker.once('error', fail);
});
await worker.terminate();
writeCache('sweep-worker-bundle', cache.buildId, Buffer.from(cache.data));
