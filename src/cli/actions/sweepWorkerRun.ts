/**
 * A sweep worker thread's work (its entry: bin/sweepWorker.js, from the build's bundle through V8's code
 * cache, else this module of dist/). `configurations`: prepares the sweep from the command line and the
 * runs it is sent, and computes its slice of rows. `share` (or `share-later`, the queue sent once the
 * command has set up): takes units off the queue (a trace file, streamed; a chunk of a scenario's runs),
 * and sends each configuration's tally over them (then, if asked, the tallies of the configurations whose step cap the
 * command halved).
 */
import type { MessagePort } from 'node:worker_threads';
import { UserError } from '../../errors.js';
import { costQuantilesInPlace } from '../../metrics/costQuantiles.js';
import type { SweepTally } from '../../population/sweep.js';
import { sweepUnitsHere } from './sweepUnits.js';
import { prepareSweep, setUpSweep, sweepRows } from './sweepWork.js';
import type { SweepWorkerHalve, SweepWorkerReply, SweepWorkerSelect, SweepWorkerStart, SweepWorkerTask } from './sweepWorkers.js';

/** The buffers of each tally's costs (each its own), to transfer rather than copy. */
function costBuffers(tallies: readonly SweepTally[]): ArrayBuffer[] {
  return tallies.flatMap((tally) => tally.population.costs.map((costs) => costs.buffer as ArrayBuffer));
}

/** A sweep worker's whole work: `task` (its workerData), its replies on `port` (its parentPort). */
export async function runSweepWorker(task: SweepWorkerTask, port: MessagePort): Promise<void> {
  const given = new Set(task.given);
  // The command's thread says anything about the inputs on stderr: a worker stays quiet.
  const quiet = { stdout: () => undefined, stderr: () => undefined, cwd: process.cwd() };
  try {
    if (task.mode === 'configurations') {
      const prepared = await prepareSweep(task.inputs, task.opts, (key) => given.has(key), quiet, { traces: task.traces });
      port.postMessage({ rows: sweepRows(prepared, task.range) } satisfies SweepWorkerReply);
    } else {
      // The setup first: a worker started before the command's own (share-later) does it meanwhile.
      const setup = setUpSweep(task.inputs, task.opts, (key) => given.has(key), quiet);
      const start = task.mode === 'share' ? task : await new Promise<SweepWorkerStart>((resolve) => port.once('message', resolve));
      const swept = await sweepUnitsHere({ inputs: task.inputs, opts: task.opts, setup, range: start.range, units: start.units, next: start.next });
      port.postMessage(swept.first satisfies SweepWorkerReply, costBuffers(swept.first.tallies));
      // Quantiles to select, as many times as asked, then the halved step caps (or none: done).
      let halve: SweepWorkerHalve | SweepWorkerSelect;
      while ('select' in (halve = await new Promise<SweepWorkerHalve | SweepWorkerSelect>((resolve) => port.once('message', resolve)))) {
        port.postMessage({ quantiles: halve.select.map(costQuantilesInPlace) } satisfies SweepWorkerReply);
      }
      if (halve.configs.length > 0) {
        const halved = swept.halve(halve.configs);
        port.postMessage({ tallies: halved, recordedRuns: 0, skipped: [], priceGaps: [] } satisfies SweepWorkerReply, costBuffers(halved));
      }
    }
  } catch (error) {
    port.postMessage({ error: { message: (error as Error).stack ?? String(error), user: error instanceof UserError, ...(error instanceof UserError ? { issues: error.issues } : {}) } } satisfies SweepWorkerReply);
  }
}
