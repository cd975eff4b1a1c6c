/**
 * `--workers N` by runs: N threads (N − 1 worker threads and this one) take the units of the population —
 * each trace file, chunks of each scenario's runs (sweepUnits.ts) — off one queue, each read, compiled
 * and swept over every configuration of the slice by the thread that took it, each thread giving one
 * tally per configuration over its units (sums, counts and costs: no run crosses threads). The command
 * adds the tallies up (mergeSweepTallies: exact sums, every cost kept, so which thread took which unit
 * does not matter), makes the rows, and asks the threads for the configurations whose step cap it
 * halves. Bad files are set aside by each thread and reported (or refused) here as one thread would.
 */
import { statSync } from 'node:fs';
import { UserError } from '../../errors.js';
import { skippedMessage } from '../../import/inputSet.js';
import { contextCurvesOf, mergeContextTokenSums } from '../../population/contextTokens.js';
import type { PopulationConfig } from '../../population/run.js';
import { costQuantilesInPlace, type CostQuantiles } from '../../metrics/costQuantiles.js';
import { mergeSweepTallies, sweepTallyMetrics, type SweepTally } from '../../population/sweep.js';
import type { SweepRow } from '../../report/sweepReport.js';
import type { CliIO } from '../io.js';
import { sayIdleScenarioFlags, sayNoModelCall, traceInputs, type GivenFlag } from './inputs.js';
import { addHalfStepCaps, halvedCaps, type SweepFlags, type SweepSetup } from './sweepWork.js';
import { rowsOf } from './sweepTook.js';
import { PricedRunKinds } from './pricedRunKinds.js';
import { fileRanges } from './sweepSplit.js';
import { sweepUnits, sweepUnitsHere, type SweepUnit, type UnitsTallies } from './sweepUnits.js';
import { SweepWorker } from './sweepWorkers.js';
import { Progress } from './progress.js';
import { sayInputWarning, skippedInputsWarning } from './inputWarnings.js';
import { warnMissingTranscripts } from './missingTranscripts.js';
import { PriceGapCheck } from '../../pricing/recordedCost.js';
import type { SweepRead } from './sweepWork.js';
import { joinRunHeaderFacts } from './sweepHeaderFacts.js';
import { noBrakesConfiguration, type NoBrakesCounted } from './sweepCompletion.js';
import { addNoBrakeRuns, completionCountsOf } from '../../population/noBrakeRuns.js';

function sizeOf(file: string): number {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
}

/** A thread's part of the queue: on a worker thread, or on this one (this thread works rather than waits). */
interface ThreadSweep {
  first(): Promise<UnitsTallies>;
  /** The quantiles of some costs (each configuration's arrays, every thread's), selected (joined) on this thread. */
  select(costs: Float64Array[][]): Promise<CostQuantiles[]>;
  /** The tallies of `configs` (the halved step caps; none: the thread is done). */
  halve(configs: PopulationConfig[]): Promise<SweepTally[]>;
  stop(): void;
}

function onWorker(worker: SweepWorker): ThreadSweep {
  return {
    first: async () => {
      const reply = await worker.next();
      if (!('tallies' in reply)) throw new Error('sweep: a worker sent no tallies');
      return reply;
    },
    select: async (costs) => {
      worker.send({ select: costs }, costs.flatMap((parts) => parts.map((c) => c.buffer as ArrayBuffer)));
      return ((reply) => ('quantiles' in reply ? reply.quantiles : []))(await worker.next());
    },
    halve: async (configs) => {
      worker.send({ configs });
      return configs.length === 0 ? [] : ((reply) => ('tallies' in reply ? reply.tallies : []))(await worker.next());
    },
    stop: () => worker.stop(),
  };
}

/** What sweepRowsInShares is given; `whole`: files to read whole though they could be split (sweepSplit.ts). */
type SharesArgs = { inputs: string[]; opts: SweepFlags; given: GivenFlag; setup: SweepSetup; range: { from: number; to: number }; workers: number; io: CliIO; started?: SweepWorker[]; whole?: ReadonlySet<string> };

/**
 * The rows of configurations `range`, `workers` threads (this one included: N − 1 worker threads, those
 * `started` early first) taking the units of the runs off one queue; and what the header says of the runs read.
 * A file split in byte ranges and found bad (or with a header line the split cannot place) is one bad file
 * however many ranges found it, but other threads may have tallied its good ranges already, which cannot
 * be taken back out of their tallies: the sweep is done again with that file read whole, by one thread, as
 * today, so that it is refused or left out (--skip-bad) with exactly the problems a whole read reports.
 * Nothing was written yet (a bad file is rare: it costs a second sweep, not a cost on every sweep).
 */
export async function sweepRowsInShares(args: SharesArgs): Promise<{ rows: SweepRow[]; read: SweepRead & NoBrakesCounted }> {
  const done = await sharesOnce(args);
  return 'whole' in done ? sweepRowsInShares({ ...args, started: [], whole: done.whole }) : done;
}

/** The files split in byte ranges that a range found bad, with `whole`: undefined when there is none. */
function splitFilesFoundBad(units: readonly SweepUnit[], replies: readonly UnitsTallies[], whole: ReadonlySet<string> = new Set()): Set<string> | undefined {
  const split = new Set(units.flatMap((unit) => (unit.range === undefined ? [] : unit.files)));
  const bad = replies.flatMap((reply) => reply.skipped.flatMap((unit) => unit.bad.map((input) => input.file))).filter((file) => split.has(file));
  return bad.length === 0 ? undefined : new Set([...whole, ...bad]);
}

async function sharesOnce(args: SharesArgs): Promise<{ rows: SweepRow[]; read: SweepRead & NoBrakesCounted } | { whole: Set<string> }> {
  const { setup, range, io } = args;
  const inputs = traceInputs(setup.traceFiles, args.opts, { besideScenarios: setup.scenarios.length > 0, unread: setup.unread, broughtIn: setup.broughtIn });
  const sizes = inputs.files.map(sizeOf);
  const ranges = fileRanges({ files: inputs.files, sizes, opts: args.opts, threads: args.workers, whole: args.whole ?? new Set() });
  // With progress drawn, each scenario's runs in finer chunks, so that a long closed-loop sweep moves the bar (the figures are the same).
  const units = sweepUnits(inputs.files, sizes, setup.scenarios.map((s) => s.settings.runs), args.workers, { ranges, progress: io.stderrIsTerminal === true });
  // Int32 at 0: the next unit; at 1: the units done by every thread (sweepUnitsHere).
  const next = new SharedArrayBuffer(8);
  const sweeps = workerSweeps(args, units, next);
  // With stderr a terminal: the units done so far by every thread, drawn as this thread ends one.
  const progress = new Progress(io, units.length, 'sweep: units');
  let drawn = 0;
  const drawTo = (done: number) => (progress.add(done - drawn), (drawn = done));
  try {
    const here = await sweepUnitsHere({ inputs: args.inputs, opts: args.opts, setup, range, units, next, onUnitDone: drawTo });
    sweeps.push({ first: async () => here.first, select: async (costs) => costs.map(costQuantilesInPlace), halve: async (configs) => (configs.length === 0 ? [] : here.halve(configs)), stop: () => undefined });
    const first = await Promise.all(sweeps.map((sweep) => sweep.first()));
    drawTo(units.length);
    const whole = splitFilesFoundBad(units, first, args.whole);
    if (whole !== undefined) return { whole };
    sayBadAndMissing(first, inputs, io);
    const read = readOfThreads(first, noBrakesConfiguration(setup, range) !== undefined);
    const slice = setup.configurations.slice(range.from, range.to);
    const tallies = mergedTallies(first.map((reply) => reply.tallies));
    const quantiles = await selectedOnEveryThread(tallies, sweeps);
    const rows = rowsOf(slice, tallies.map((tally, c) => sweepTallyMetrics(tally, quantiles[c])), { took: { recordedCaches: read.recordedCaches, scenarios: setup.scenarios, fixed: setup.fixed, runFlags: setup.runFlags } });
    const halved = halvedCaps(slice, rows, setup.targetCompletion);
    const second = await Promise.all(sweeps.map((sweep) => sweep.halve(halved.map((h) => h.config))));
    if (halved.length > 0) addHalfStepCaps(rows, halved, merged(second));
    return { rows, read };
  } finally {
    progress.finish();
    for (const sweep of sweeps) sweep.stop();
  }
}

/** The worker threads' sweeps (N − 1, no more than the units besides this thread's first): those `started` early first, told their share. */
function workerSweeps(args: SharesArgs, units: SweepUnit[], next: SharedArrayBuffer): ThreadSweep[] {
  const { range } = args;
  const given = Object.keys(args.opts).filter((key) => args.given(key));
  const started = args.started ?? [];
  const threads = Math.min(args.workers, units.length);
  for (const idle of started.slice(threads - 1)) idle.stop();
  return Array.from({ length: threads - 1 }, (_, k) => {
    const early = started[k];
    if (early === undefined) return onWorker(new SweepWorker({ mode: 'share', inputs: args.inputs, opts: args.opts, given, range, units, next }));
    early.send({ range, units, next });
    return onWorker(early);
  });
}

/**
 * Bad files refused (or, with --skip-bad, listed) as reading them all on one thread would, in file order
 * (the files of no model call a directory brought in, which a thread reports as bad, left out by `inputs`
 * and said in one line); missing sub-agent transcripts said here once, in file order, whichever thread
 * read them (workers stay quiet).
 */
function sayBadAndMissing(first: readonly UnitsTallies[], inputs: ReturnType<typeof traceInputs>, io: CliIO): void {
  const skipped = first.flatMap((reply) => reply.skipped).sort((a, b) => a.order - b.order);
  for (const { bad } of skipped) for (const input of bad) inputs.markBad(input.file, new UserError(input.issues));
  const skippedBad = inputs.finish();
  sayIdleScenarioFlags(io, inputs);
  sayNoModelCall(io, inputs);
  sayInputWarning(io, skippedInputsWarning(skippedBad, inputs.inputCount), skippedMessage(skippedBad, inputs.inputCount));
  const missing = first.flatMap((reply) => reply.missingTranscripts ?? []).sort((a, b) => a.order - b.order);
  warnMissingTranscripts(missing.flatMap((unit) => unit.missing), io);
}

/** What every thread read of the runs, joined: what the header says of them; `noBrakes`: the threads counted the synthetic runs with no brakes. */
function readOfThreads(first: readonly UnitsTallies[], noBrakes: boolean): SweepRead & NoBrakesCounted {
  const recordedCaches = [...new Set(first.flatMap((reply) => reply.recordedCaches ?? []))];
  const sums = first.flatMap((reply) => (reply.contextSums === undefined ? [] : [reply.contextSums]));
  const recordedRuns = first.reduce((n, reply) => n + reply.recordedRuns, 0);
  const priceGaps = new PriceGapCheck();
  for (const reply of first) priceGaps.addSums(reply.priceGaps);
  const windowless = first.flatMap((reply) => reply.windowless ?? []);
  const pricedRuns = new PricedRunKinds().join(first.flatMap((reply) => reply.pricedRuns ?? [])).kinds();
  // In the order of the files, whichever thread read which (joinRunHeaderFacts).
  const headerFacts = joinRunHeaderFacts(first.flatMap((reply) => reply.headerFacts ?? []));
  const counted = noBrakes ? addNoBrakeRuns(first.map((reply) => reply.noBrakes)) : undefined;
  return { ...(counted === undefined ? {} : { noBrakes: completionCountsOf(counted) }), recordedRuns, priceGaps, windowless, recordedCaches, pricedRuns, headerFacts, ...(sums.length === 0 ? {} : { contextTokens: contextCurvesOf(mergeContextTokenSums(sums)) }) };
}

/** Per configuration, the threads' tallies added up (a thread that took no unit gave none). */
function mergedTallies(perThread: readonly SweepTally[][]): SweepTally[] {
  const given = perThread.filter((tallies) => tallies.length > 0);
  return (given[0] ?? []).map((_, c) => mergeSweepTallies(given.map((tallies) => tallies[c]!)));
}

/** Per configuration, the threads' tallies added up, as figures. */
function merged(perThread: readonly SweepTally[][]): ReturnType<typeof sweepTallyMetrics>[] {
  return mergedTallies(perThread).map((tally) => sweepTallyMetrics(tally));
}

/**
 * Each tally's cost quantiles, the configurations split over the threads (contiguous slices; each worker
 * is sent its slice's joined costs, this thread selects the last slice meanwhile): exact, as selection
 * on one thread.
 */
async function selectedOnEveryThread(tallies: readonly SweepTally[], sweeps: readonly ThreadSweep[]): Promise<CostQuantiles[]> {
  const costs = tallies.map((tally) => tally.population.costs);
  const cut = (k: number) => Math.floor((k * costs.length) / sweeps.length);
  const parts = sweeps.map((sweep, k) => sweep.select(costs.slice(cut(k), cut(k + 1))));
  return (await Promise.all(parts)).flat();
}
