/**
 * `--workers N`, N threads (this one and N − 1 worker threads, sweepWorkerRun.ts) and what they say. Two
 * ways to split a sweep:
 * - by configurations (sweepRowsInWorkers: --tree, stdin): the command reads every run and sends them
 *   (structured clone) to N − 1 workers, each computing a contiguous slice of the rows with the same
 *   code as one thread (sweepWork.ts), and computes the last slice itself;
 * - by runs (sweepShares.ts): each thread reads its own share of the inputs and gives tallies.
 * Either way the rows are joined in order, so the report is byte-identical to `--workers 1`.
 */
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { UserError, type InputIssue } from '../../errors.js';
import type { CostQuantiles } from '../../metrics/costQuantiles.js';
import type { PopulationConfig } from '../../population/run.js';
import type { SweepRow } from '../../report/sweepReport.js';
import type { Trace } from '../../trace/types.js';
import type { CliIO } from '../io.js';
import type { GivenFlag } from './inputs.js';
import { Progress } from './progress.js';
import type { SweepUnit, UnitsTallies } from './sweepUnits.js';
import { sweepRows, type PreparedSweep, type SweepFlags } from './sweepWork.js';

/**
 * What a worker is sent: the command line as parsed, which flags were given, its slice of configurations,
 * and its runs — or (`share-later`: started before the command's own setup, to load its modules meanwhile)
 * its slice and the queue of units in a SweepWorkerStart message.
 */
export type SweepWorkerTask = { inputs: string[]; opts: SweepFlags; given: string[] } & (
  | { mode: 'configurations'; range: { from: number; to: number }; traces: Trace[] }
  | ({ mode: 'share' } & SweepWorkerStart)
  | { mode: 'share-later' }
);

/** A share worker's slice of configurations, and the queue of units it takes from (sweepUnits.ts). */
export interface SweepWorkerStart {
  range: { from: number; to: number };
  units: SweepUnit[];
  /** The queue's counter (Int32 at 0), shared by every thread. */
  next: SharedArrayBuffer;
}

/** After the tallies: the configurations (the command's halved step caps) a share worker tallies next, none to stop. */
export interface SweepWorkerHalve {
  configs: PopulationConfig[];
}

/** After the tallies: costs (each configuration's arrays, every thread's) whose quantiles the worker selects. */
export interface SweepWorkerSelect {
  select: Float64Array[][];
}

export type SweepWorkerReply = { rows: SweepRow[] } | UnitsTallies | { quantiles: CostQuantiles[] } | { error: { message: string; user: boolean; issues?: unknown } };

/**
 * The worker's entry, bin/sweepWorker.js (beside dist/ and src/ alike): the build's sweep worker bundle
 * through V8's code cache, else the modules in dist/.
 */
function workerFile(): string {
  return fileURLToPath(new URL('../../../bin/sweepWorker.js', import.meta.url));
}

/** A worker thread and its replies, one at a time. */
export class SweepWorker {
  private readonly worker: Worker;
  private readonly replies: SweepWorkerReply[] = [];
  private waiting: ((reply: SweepWorkerReply) => void) | undefined;
  private failed: ((error: Error) => void) | undefined;
  private error: Error | undefined;

  constructor(task: SweepWorkerTask) {
    this.worker = new Worker(workerFile(), { workerData: task });
    this.worker.on('message', (reply: SweepWorkerReply) => {
      if (this.waiting) this.waiting(reply);
      else this.replies.push(reply);
    });
    this.worker.once('error', (error) => {
      this.error = error;
      this.failed?.(error);
    });
  }

  /** The next reply; a worker's error is thrown (a UserError as the command would have thrown it). */
  async next(): Promise<Exclude<SweepWorkerReply, { error: unknown }>> {
    const reply =
      this.replies.shift() ??
      (await new Promise<SweepWorkerReply>((resolve, reject) => {
        if (this.error) return reject(this.error);
        this.waiting = resolve;
        this.failed = reject;
      }));
    this.waiting = undefined;
    this.failed = undefined;
    if ('error' in reply) throw reply.error.user ? new UserError(reply.error.issues as InputIssue[]) : new Error(reply.error.message);
    return reply;
  }

  send(message: SweepWorkerHalve | SweepWorkerStart | SweepWorkerSelect, transfer: ArrayBuffer[] = []): void {
    this.worker.postMessage(message, transfer);
  }

  stop(): void {
    void this.worker.terminate();
  }
}

function slices(range: { from: number; to: number }, workers: number): { from: number; to: number }[] {
  const count = range.to - range.from;
  return Array.from({ length: workers }, (_, k) => ({ from: range.from + Math.floor((k * count) / workers), to: range.from + Math.floor(((k + 1) * count) / workers) })).filter((s) => s.to > s.from);
}

/**
 * Share workers started before the command's setup (mode share-later: each loads its modules while the
 * command reads its flags, prices and inputs); sweepRowsInShares sends each the queue of units, and
 * stops the ones beyond the units.
 */
export function startShareWorkers(args: { inputs: string[]; opts: SweepFlags; given: GivenFlag; workers: number }): SweepWorker[] {
  const given = Object.keys(args.opts).filter((key) => args.given(key));
  return Array.from({ length: args.workers }, () => new SweepWorker({ mode: 'share-later', inputs: args.inputs, opts: args.opts, given }));
}

/** By configurations: `workers` threads, this one included, each computing a contiguous slice of the rows (worker threads are sent every run; this thread does the last slice). */
export async function sweepRowsInWorkers(args: { inputs: string[]; opts: SweepFlags; given: GivenFlag; range: { from: number; to: number }; workers: number; io: CliIO; prepared: PreparedSweep }): Promise<SweepRow[]> {
  const given = Object.keys(args.opts).filter((key) => args.given(key));
  const progress = new Progress(args.io, args.range.to - args.range.from, 'sweep: configurations');
  const all = slices(args.range, args.workers);
  const workers = all.slice(0, -1).map((range) => ({ range, worker: new SweepWorker({ mode: 'configurations', inputs: args.inputs, opts: args.opts, given, range, traces: args.prepared.traces }) }));
  try {
    const last = sweepRows(args.prepared, all.at(-1)!);
    progress.add(all.at(-1)!.to - all.at(-1)!.from);
    const parts = await Promise.all(
      workers.map(async ({ range, worker }) => {
        const reply = await worker.next();
        progress.add(range.to - range.from);
        return 'rows' in reply ? reply.rows : [];
      }),
    );
    return [...parts.flat(), ...last];
  } finally {
    progress.finish();
    for (const { worker } of workers) worker.stop();
  }
}
