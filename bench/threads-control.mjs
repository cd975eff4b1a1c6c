// A control for `sweep --workers` figures: how many cores this process gets. The same fixed loop on one
// worker thread, then on two at once; on an idle 2-core machine the two finish in about the time of
// one, on a machine whose cores other jobs hold they take up to twice as long (then no split of work
// over threads can show a wall-clock gain). Not part of `npm run bench`: `node bench/threads-control.mjs`.
import { Worker, isMainThread, workerData } from 'node:worker_threads';

// `--smoke` (bench/workers.mjs under --smoke): a tiny loop, only to run the code path.
const LOOP = isMainThread ? (process.argv.includes('--smoke') ? 1e5 : 3e8) : workerData;
function work() {
  let x = 0;
  for (let i = 0; i < LOOP; i++) x = (x + i * 7) % 1000003;
  return x;
}

async function threads(n) {
  const t0 = Date.now();
  const c0 = process.cpuUsage();
  await Promise.all(Array.from({ length: n }, () => new Promise((resolve) => new Worker(new URL(import.meta.url), { workerData: LOOP }).once('exit', resolve))));
  const c = process.cpuUsage(c0);
  return { wallMs: Date.now() - t0, cpuMs: Math.round((c.user + c.system) / 1000) };
}

if (isMainThread) {
  const one = await threads(1);
  const two = await threads(2);
  console.log(`one thread: ${one.wallMs} ms wall, ${one.cpuMs} ms CPU; two threads (twice the work): ${two.wallMs} ms wall, ${two.cpuMs} ms CPU; cores this process got: ${(two.cpuMs / two.wallMs).toFixed(2)}`);
} else work();
