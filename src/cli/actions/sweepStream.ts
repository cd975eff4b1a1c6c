/**
 * A unit's trace files streamed through the sweep: read, compiled and swept a batch of runs at a time,
 * each batch dropped once its runs are tallied (and their context-token curves summed), so no thread
 * holds a whole file's runs (and its collector less to trace). A file found bad part way has the
 * tallies of its batches dropped, as one thread reading it whole would never have tallied them. The
 * tallies do not depend on the batch size: sums are exact and every cost is kept (merged in order).
 */
import type { BadInput } from '../../import/inputSet.js';
import { mergeContextTokenSums, type ContextTokenSums } from '../../population/contextTokens.js';
import type { PopulationConfig } from '../../population/run.js';
import { mergeSweepTallies, SWEEP_SLICE_TRACES, SweepPopulation, SweepTallier, type SweepResults, type SweepTally } from '../../population/sweep.js';
import type { Trace } from '../../trace/types.js';
import { traceInputs } from './inputs.js';
import { contextSumsOf, type SweepFlags, type SweepSetup } from './sweepWork.js';

/** Runs read, compiled and swept at once: the recorded sweep's slice. */
const STREAM_BATCH_RUNS = SWEEP_SLICE_TRACES;

/** What a unit's files gave: each configuration's tally over their good runs, and their bad files. */
export interface StreamedFiles {
  /** Empty when no run of a good file was read. */
  tallies: SweepTally[];
  recordedRuns: number;
  skipped: BadInput[];
  contextSums?: ContextTokenSums;
}

/** One file's running tallies (dropped if the file turns out bad). */
interface FileTally {
  file: string;
  tallier: SweepTallier;
  runs: number;
  sums: ContextTokenSums[];
}

/**
 * Each configuration's tally over `files`' good runs, swept `batchRuns` at a time (bad files set aside,
 * not refused). `results`: the sweep's grids and result columns, shared by every batch of every file and
 * by every call that passes the same map for the same configurations (a batch's result is read before
 * the next).
 */
export async function streamFiles(args: { files: readonly string[]; opts: SweepFlags; setup: SweepSetup; configs: readonly PopulationConfig[]; batchRuns?: number; results?: SweepResults }): Promise<StreamedFiles> {
  const batchRuns = args.batchRuns ?? STREAM_BATCH_RUNS;
  const set = traceInputs(args.files, { ...args.opts, skipBad: true }, { compiled: true });
  const kept: FileTally[] = [];
  const results: SweepResults = args.results ?? new Map();
  let open: FileTally | undefined;
  let batch: Trace[] = [];
  const flush = () => {
    if (open === undefined || batch.length === 0) return;
    open.tallier.add(new SweepPopulation(batch, []));
    const sums = contextSumsOf(args.setup, batch);
    if (sums !== undefined) open.sums.push(sums);
    open.runs += batch.length;
    batch = [];
  };
  // A file is closed once its runs are all read, when its badness is known: a bad file's last batch is never swept.
  const close = () => {
    if (open !== undefined && !set.isBad(open.file)) {
      flush();
      kept.push(open);
    }
    open = undefined;
    batch = [];
  };
  for await (const run of set.runs()) {
    if (open?.file !== run.file) {
      close();
      open = { file: run.file, tallier: new SweepTallier(args.configs, args.setup.prices, results), runs: 0, sums: [] };
    }
    batch.push(run.trace);
    if (batch.length >= batchRuns) flush();
  }
  close();
  return filesTallied(kept, args.configs.length, set.badInputs);
}

/** The kept files' tallies added up, per configuration (in file order: the costs' order as one pass). */
function filesTallied(kept: readonly FileTally[], configs: number, skipped: BadInput[]): StreamedFiles {
  const perFile = kept.map((f) => f.tallier.finish());
  const sums = kept.flatMap((f) => f.sums);
  return {
    tallies: perFile.length === 0 ? [] : Array.from({ length: configs }, (_, c) => mergeSweepTallies(perFile.map((tallies) => tallies[c]!))),
    recordedRuns: kept.reduce((n, f) => n + f.runs, 0),
    skipped,
    ...(sums.length === 0 ? {} : { contextSums: mergeContextTokenSums(sums) }),
  };
}
