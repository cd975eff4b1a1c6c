/**
 * How a sweep (and calibrate, project) reads its trace files: all of them on the command's thread, or a
 * share of them (a unit of the queue, sweepUnits.ts) on any thread. A file is bad for any problem of its
 * runs, a run's own model that no table prices among them when something prices runs so (sweepPricing.ts),
 * found by the per-file guard that finds the others (TraceInputs.guard), as replay finds it.
 */
import type { BadInput, InputRun } from '../../import/inputSet.js';
import type { CountedStart } from '../../io/byteRange.js';
import type { Trace } from '../../trace/types.js';
import type { CliIO } from '../io.js';
import { sayInputsRead, traceInputs } from './inputs.js';
import type { TraceInputs } from '../../import/inputSet.js';
import { missingTranscriptsOf, type MissingTranscript } from './missingTranscripts.js';
import { ownPricingOf } from './sweepPricing.js';
import { badRunsOf, treeTraceInputs } from './treeHeaders.js';
import type { SweepFlags, SweepSetup, SweepShare } from './sweepWork.js';

/** Every trace file's runs as read: the set that knows the bad files (not yet refused nor listed: finishRead does, after the tally). */
export interface AllRuns {
  set: TraceInputs;
  runs: InputRun[];
  missing: MissingTranscript[];
  /** The runs of the files found bad while reading, as far as they were read (treeHeaders.ts badRunsOf): what places them in their session trees. */
  badRead: InputRun[];
}

/**
 * Every trace file's good runs; the bad files are refused or listed (--skip-bad) by finishRead once the
 * runs are tallied, as a run past $9,007 is found only then and makes its file bad too (sweepDrop.ts).
 */
export async function allRuns(setup: SweepSetup, opts: SweepFlags): Promise<AllRuns> {
  const set = (opts.tree === true ? treeTraceInputs : traceInputs)(setup.traceFiles, opts, { compiled: true, besideScenarios: setup.scenarios.length > 0, unread: setup.unread, broughtIn: setup.broughtIn });
  return runsOf(set, ownPricingOf(setup));
}

/** Every run of `set`, each through `check` under the set's guard (a problem of a run makes its file bad); the bad files not yet refused nor listed (finishRead). `check` reads them too. */
export async function runsOf(set: TraceInputs, check: (trace: Trace) => void): Promise<AllRuns> {
  const runs: InputRun[] = [];
  const missing: MissingTranscript[] = [];
  for await (const run of set.runs()) {
    set.guard(run, () => {
      missing.push(...missingTranscriptsOf(run.trace));
      check(run.trace);
    });
    runs.push(run);
  }
  return { set, runs: set.keep(runs), missing, badRead: badRunsOf(set, runs) };
}

/** The good runs' traces. */
export function tracesOf(read: AllRuns): Trace[] {
  return read.set.keep(read.runs).map((run) => run.trace);
}

/** After the tally: a bad file fails the command naming every bad file, or is left out and listed (--skip-bad), as workOnRuns says it. */
export function finishRead(read: AllRuns, io: CliIO): void {
  sayInputsRead(io, { set: read.set, skipped: read.set.finish(), missing: read.missing });
}

/**
 * A share's runs (of its byte range only, when it has one, counted on from `counted`), its bad files set
 * aside (not refused: a share of bad files only is no error here — the command reports the bad files of
 * every share together, as one thread reading them all would).
 */
export async function shareRuns(read: { share: SweepShare; setup: SweepSetup; opts: SweepFlags }, counted: CountedStart | undefined): Promise<{ traces: Trace[]; skipped: BadInput[] }> {
  const { share, opts } = read;
  const range = share.range === undefined ? {} : { range: { ...share.range, ...(counted === undefined ? {} : { counted }) } };
  const set = traceInputs(share.files, { ...opts, skipBad: true }, { compiled: true, walk: read.setup.traceFiles, ...range });
  const ownPricing = ownPricingOf(read.setup);
  const runs: InputRun[] = [];
  // (A run its file's guard finds bad is dropped by `keep`, with the file's other runs.)
  for await (const run of set.runs()) {
    set.guard(run, () => ownPricing(run.trace));
    runs.push(run);
  }
  return { traces: set.keep(runs).map((run) => run.trace), skipped: set.badInputs };
}
