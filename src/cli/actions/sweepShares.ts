/**
 * `--workers N` by runs: the population split into N shares — contiguous groups of the trace files (as
 * TraceInputs lists them, balanced by size; a file is never split) and a contiguous range of each
 * scenario's runs — each read, compiled and swept over every configuration of the slice by its own
 * thread (N − 1 worker threads, and this one the last share), each giving one tally per configuration
 * (sums, counts and costs: no run crosses threads). The command adds the tallies up (mergeSweepTallies:
 * exact sums, every cost kept, so the order of shares does not matter), makes the rows, and asks the
 * shares for the configurations whose step cap it halves. Bad files are set aside by each share and
 * reported (or refused) here as one thread would.
 */
import { statSync } from 'node:fs';
import { UserError } from '../../errors.js';
import { skippedMessage } from '../../import/inputSet.js';
import type { BadInput } from '../../import/inputSet.js';
import { contextCurvesOf, mergeContextTokenSums, type ContextTokenCurves, type ContextTokenSums } from '../../population/contextTokens.js';
import type { PopulationConfig } from '../../population/run.js';
import { mergeSweepTallies, sweepTallies, sweepTallyMetrics, type SweepTally } from '../../population/sweep.js';
import type { SweepRow } from '../../report/sweepReport.js';
import type { CliIO } from '../io.js';
import { traceInputs, type GivenFlag } from './inputs.js';
import { Progress } from './progress.js';
import { addHalfStepCaps, contextSumsOf, halvedCaps, prepareSweep, rowsOf, type SweepFlags, type SweepSetup, type SweepShare } from './sweepWork.js';
import { SweepWorker } from './sweepWorkers.js';

/** Shares of the files (contiguous, in order, each about total size / N) and of each scenario's runs; empty shares dropped (all but one when all are). */
export function sweepShares(files: readonly string[], sizes: readonly number[], scenarioRuns: readonly number[], workers: number): SweepShare[] {
  const total = sizes.reduce((a, b) => a + b, 0);
  const groups: string[][] = Array.from({ length: workers }, () => []);
  let before = 0;
  files.forEach((file, i) => {
    // A file goes to the share its middle byte falls in.
    const middle = before + sizes[i]! / 2;
    groups[total > 0 ? Math.min(workers - 1, Math.floor((middle * workers) / total)) : Math.floor((i * workers) / files.length)]!.push(file);
    before += sizes[i]!;
  });
  const shares = groups.map((group, k) => ({
    files: group,
    scenarioRuns: scenarioRuns.map((runs) => ({ firstRun: Math.floor((k * runs) / workers), runs: Math.floor(((k + 1) * runs) / workers) - Math.floor((k * runs) / workers) })),
  }));
  const kept = shares.filter((s) => s.files.length > 0 || s.scenarioRuns.some((r) => r.runs > 0));
  // (Nothing to share: one worker still answers, with empty tallies.)
  return kept.length > 0 ? kept : shares.slice(0, 1);
}

function sizeOf(file: string): number {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
}

/** A share's first answer: each configuration's tally, the runs read, its bad files, the context-token sums. */
type ShareTallies = { tallies: SweepTally[]; recordedRuns: number; skipped: BadInput[]; contextSums?: ContextTokenSums };

/** A share swept: on a worker thread, or on this one (the last share: this thread works rather than waits). */
interface ShareSweep {
  first(): Promise<ShareTallies>;
  /** The tallies of `configs` (the halved step caps; none: the share is done). */
  halve(configs: PopulationConfig[]): Promise<SweepTally[]>;
  stop(): void;
}

function onWorker(worker: SweepWorker): ShareSweep {
  return {
    first: async () => {
      const reply = await worker.next();
      if (!('tallies' in reply)) throw new Error('sweep: a worker sent no tallies');
      return reply;
    },
    halve: async (configs) => {
      worker.send({ configs });
      return configs.length === 0 ? [] : ((reply) => ('tallies' in reply ? reply.tallies : []))(await worker.next());
    },
    stop: () => worker.stop(),
  };
}

/** The share swept here, as a worker would sweep it (prepareSweep of the share, with the command's setup). */
async function onThisThread(args: { inputs: string[]; opts: SweepFlags; setup: SweepSetup; range: { from: number; to: number }; share: SweepShare }): Promise<ShareSweep> {
  const quiet = { stdout: () => undefined, stderr: () => undefined, cwd: process.cwd() };
  const prepared = await prepareSweep(args.inputs, args.opts, () => false, quiet, { share: args.share, setup: args.setup });
  const configs = prepared.configurations.slice(args.range.from, args.range.to).map((c) => c.config);
  const tallies = sweepTallies(prepared.population, configs, prepared.prices);
  const contextSums = contextSumsOf(prepared);
  const first = { tallies, recordedRuns: prepared.traces.length, skipped: prepared.skipped, ...(contextSums === undefined ? {} : { contextSums }) };
  return { first: async () => first, halve: async (halved) => (halved.length === 0 ? [] : sweepTallies(prepared.population, halved, prepared.prices)), stop: () => undefined };
}

/**
 * The rows of configurations `range`, `workers` threads (this one included) each sweeping a share of the
 * runs — worker threads (those `started` early first) the first shares, this thread the last; and what the
 * header says of the runs read.
 */
export async function sweepRowsInShares(args: { inputs: string[]; opts: SweepFlags; given: GivenFlag; setup: SweepSetup; range: { from: number; to: number }; workers: number; io: CliIO; started?: SweepWorker[] }): Promise<{ rows: SweepRow[]; read: { recordedRuns: number; contextTokens?: ContextTokenCurves } }> {
  const { setup, range, io } = args;
  const given = Object.keys(args.opts).filter((key) => args.given(key));
  const inputs = traceInputs(setup.traceFiles, args.opts);
  const shares = sweepShares(inputs.files, inputs.files.map(sizeOf), setup.scenarios.map((s) => s.settings.runs), args.workers);
  const progress = new Progress(io, shares.length, 'sweep: shares of the runs');
  const started = args.started ?? [];
  // Workers started early take the first shares; one without a share stops.
  for (const idle of started.slice(shares.length - 1)) idle.stop();
  const sweeps = shares.slice(0, -1).map((share, k) => {
    const early = started[k];
    if (early === undefined) return onWorker(new SweepWorker({ mode: 'share', inputs: args.inputs, opts: args.opts, given, range, share }));
    early.send({ range, share });
    return onWorker(early);
  });
  try {
    sweeps.push(await onThisThread({ inputs: args.inputs, opts: args.opts, setup, range, share: shares.at(-1)! }));
    const first = await Promise.all(
      sweeps.map(async (sweep) => {
        const reply = await sweep.first();
        progress.add(1);
        return reply;
      }),
    );
    progress.finish();
    // Bad files: refused (or, with --skip-bad, listed) as reading them all on one thread would.
    for (const { skipped } of first) for (const bad of skipped) inputs.markBad(bad.file, new UserError(bad.issues));
    io.stderr(skippedMessage(inputs.finish(), inputs.files.length));
    const slice = setup.configurations.slice(range.from, range.to);
    const rows = rowsOf(slice, merged(first.map((reply) => reply.tallies)));
    const halved = halvedCaps(slice, rows, setup.targetCompletion);
    const second = await Promise.all(sweeps.map((sweep) => sweep.halve(halved.map((h) => h.config))));
    if (halved.length > 0) addHalfStepCaps(rows, halved, merged(second));
    const sums = first.flatMap((reply) => (reply.contextSums === undefined ? [] : [reply.contextSums]));
    const recordedRuns = first.reduce((n, reply) => n + reply.recordedRuns, 0);
    return { rows, read: { recordedRuns, ...(sums.length === 0 ? {} : { contextTokens: contextCurvesOf(mergeContextTokenSums(sums)) }) } };
  } finally {
    progress.finish();
    for (const sweep of sweeps) sweep.stop();
  }
}

/** Per configuration, the shares' tallies added up, as figures. */
function merged(perShare: readonly SweepTally[][]): ReturnType<typeof sweepTallyMetrics>[] {
  return (perShare[0] ?? []).map((_, c) => sweepTallyMetrics(mergeSweepTallies(perShare.map((tallies) => tallies[c]!))));
}
