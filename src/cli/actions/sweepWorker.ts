/**
 * A sweep worker thread as a module of dist/ (what bin/sweepWorker.js runs when the build wrote no
 * bundle): the work is sweepWorkerRun.ts.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { runSweepWorker } from './sweepWorkerRun.js';
import type { SweepWorkerTask } from './sweepWorkers.js';

await runSweepWorker(workerData as SweepWorkerTask, parentPort!);
