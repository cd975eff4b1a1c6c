/**
 * `--workers N`: the configurations of a sweep split into N contiguous slices, each computed by a worker
 * thread that is sent the runs the command read (structured clone) and runs the same code (sweepWork.ts) as one thread would; the
 * rows are joined in order, so the report is byte-identical to `--workers 1`. Progress: progress.ts.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { UserError, type InputIssue } from '../../errors.js';
import type { SweepRow } from '../../report/sweepReport.js';
import type { CliIO } from '../io.js';
import { Progress } from './progress.js';
import type { GivenFlag } from './inputs.js';
import type { Trace } from '../../trace/types.js';
import type { SweepFlags } from './sweepWork.js';

/** What a worker is sent: the command line as parsed, which flags were given, its slice, and the runs already read (structured clone: the worker does not read the inputs again). */
export interface SweepWorkerTask {
  inputs: string[];
  opts: SweepFlags;
  given: string[];
  range: { from: number; to: number };
  traces: Trace[];
}

export type SweepWorkerReply = { rows: SweepRow[] } | { error: { message: string; user: boolean; issues?: unknown } };

/** The worker's compiled module (from the sources under test, the built one in dist/). */
function workerFile(): string {
  const here = fileURLToPath(new URL('./sweepWorker.js', import.meta.url));
  if (existsSync(here)) return here;
  return here.replace(/([\\/])src([\\/]cli[\\/]actions[\\/])/, '$1dist$2');
}

function slices(range: { from: number; to: number }, workers: number): { from: number; to: number }[] {
  const count = range.to - range.from;
  return Array.from({ length: workers }, (_, k) => ({ from: range.from + Math.floor((k * count) / workers), to: range.from + Math.floor(((k + 1) * count) / workers) })).filter((s) => s.to > s.from);
}

export async function sweepRowsInWorkers(args: { inputs: string[]; opts: SweepFlags; given: GivenFlag; range: { from: number; to: number }; workers: number; io: CliIO; traces: Trace[] }): Promise<SweepRow[]> {
  const given = Object.keys(args.opts).filter((key) => args.given(key));
  const parts = slices(args.range, args.workers);
  const progress = new Progress(args.io, args.range.to - args.range.from, 'sweep: configurations');
  const run = (range: { from: number; to: number }) =>
    new Promise<SweepRow[]>((resolve, reject) => {
      const task: SweepWorkerTask = { inputs: args.inputs, opts: args.opts, given, range, traces: args.traces };
      const worker = new Worker(workerFile(), { workerData: task });
      worker.once('message', (reply: SweepWorkerReply) => {
        if ('rows' in reply) {
          progress.add(range.to - range.from);
          resolve(reply.rows);
        } else reject(reply.error.user ? new UserError(reply.error.issues as InputIssue[]) : new Error(reply.error.message));
        void worker.terminate();
      });
      worker.once('error', reject);
    });
  try {
    return (await Promise.all(parts.map(run))).flat();
  } finally {
    progress.finish();
  }
}
