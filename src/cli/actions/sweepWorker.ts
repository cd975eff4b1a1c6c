/** A sweep worker thread: prepares the sweep from the command line it is sent and computes its slice of rows. */
import { parentPort, workerData } from 'node:worker_threads';
import { UserError } from '../../errors.js';
import { prepareSweep, sweepRows } from './sweepWork.js';
import type { SweepWorkerReply, SweepWorkerTask } from './sweepWorkers.js';

const task = workerData as SweepWorkerTask;
const given = new Set(task.given);
try {
  // The main thread already said anything about the inputs on stderr: a worker stays quiet.
  const prepared = await prepareSweep(task.inputs, task.opts, (key) => given.has(key), { stdout: () => undefined, stderr: () => undefined, cwd: process.cwd() }, task.traces);
  parentPort!.postMessage({ rows: sweepRows(prepared, task.range) } satisfies SweepWorkerReply);
} catch (error) {
  parentPort!.postMessage({ error: { message: (error as Error).stack ?? String(error), user: error instanceof UserError, ...(error instanceof UserError ? { issues: error.issues } : {}) } } satisfies SweepWorkerReply);
}
