/**
 * `--workers N` by runs, the work queue: the population cut into units — each trace file (a big plain
 * native one cut in byte ranges: sweepSplit.ts; largest first) and chunks of each scenario's runs (last,
 * small: they even out the end) — that the N threads take in turn as each finishes one (a counter in
 * shared memory, no messages: a thread that finished early takes more). Each thread adds up its units' tallies (exact: BigInt money, whole counts,
 * every cost kept), so which thread took which unit changes nothing in the report; bad files are listed
 * in the order of the files, as one thread reading them all would.
 */
import type { BadInput } from '../../import/inputSet.js';
import type { Trace } from '../../trace/types.js';
import type { ByteRange, CountedStart } from '../../io/byteRange.js';
import type { CacheMode } from '../../context/strategy.js';
import { mergeContextTokenSums, type ContextTokenSums } from '../../population/contextTokens.js';
import type { PopulationConfig } from '../../population/run.js';
import { SweepTallier, type SweepPopulation, type SweepResults, type SweepTally } from '../../population/sweep.js';
import { PriceGapCheck, type PriceGapSums } from '../../pricing/recordedCost.js';
import { sweepPriceGaps } from './sweepPricing.js';
import { streamFiles, type StreamedFiles } from './sweepStream.js';
import { gridWindows } from './sweepWarnings.js';
import { missingTranscriptsOf, type MissingTranscript } from './missingTranscripts.js';
import { PricedRunKinds, type PricedRunKind } from './pricedRunKinds.js';
import { addDropping } from './sweepDrop.js';
import { cachesTaken, contextSumsOf, prepareSweep, type PreparedSweep, type SweepFlags, type SweepSetup, type SweepShare } from './sweepWork.js';
import type { PopulationWindows } from '../../population/modelWindow.js';
import { gridFactsReading, runHeaderFactsOf, saysAnything, type RunHeaderFacts, type RunHeaderFactsPart } from './sweepHeaderFacts.js';
import { noBrakesConfiguration } from './sweepCompletion.js';
import type { NoBrakeRuns } from '../../population/noBrakeRuns.js';

/**
 * A unit of the queue: a share of the population, and where its files come among the inputs (`order`: a
 * byte range of file k, k + its index / the file's ranges, so its reports keep the file's place and the
 * ranges' order). `range`: only that byte range of its one file (sweepSplit.ts).
 */
export interface SweepUnit extends SweepShare {
  order: number;
  range?: ByteRange;
}

/** Chunks each scenario's runs is cut into, per thread. */
const SCENARIO_CHUNKS_PER_THREAD = 2;

/** With progress drawn: each scenario's runs cut into up to 50 chunks (the bar moves every 2%), of 20 runs at least (a unit's own cost stays small). */
const PROGRESS_CHUNKS = { most: 50, leastRuns: 20 };

/** The chunks a scenario's `runs` are cut into: two per thread, with `progress` finer; never more than the runs. */
function scenarioChunks(runs: number, threads: number, progress: boolean): number {
  const finer = progress ? Math.min(PROGRESS_CHUNKS.most, Math.floor(runs / PROGRESS_CHUNKS.leastRuns)) : 0;
  return Math.min(runs, Math.max(threads * SCENARIO_CHUNKS_PER_THREAD, finer));
}

/**
 * The queue: one unit per file (per byte range of a file split: `cut.ranges`), largest first (ties in file
 * order), then each scenario's runs in contiguous chunks (scenarioChunks: finer with `cut.progress`, progress
 * drawn: sweepShares.ts); one empty unit when there is nothing (its tallies are still the answer). How the
 * runs are cut changes no figure (each thread's tallies are exact, joined in the units' order).
 */
export function sweepUnits(files: readonly string[], sizes: readonly number[], scenarioRuns: readonly number[], threads: number, cut: { ranges?: readonly (ByteRange[] | undefined)[]; progress?: boolean } = {}): SweepUnit[] {
  const ranges = cut.ranges ?? [];
  const none = scenarioRuns.map(() => ({ firstRun: 0, runs: 0 }));
  const sized = files.flatMap((file, order) => {
    const split = ranges[order];
    if (split === undefined) return [{ unit: { files: [file], scenarioRuns: none, order }, bytes: sizes[order]! }];
    // (Each of a file's ranges sized alike: taken in the file's order, each thread counts on from its last: nativeRange.ts.)
    return split.map((range, k) => ({ unit: { files: [file], scenarioRuns: none, order: order + k / split.length, range }, bytes: sizes[order]! / split.length }));
  });
  sized.sort((a, b) => b.bytes - a.bytes || a.unit.order - b.unit.order);
  const byFile: SweepUnit[] = sized.map((entry) => entry.unit);
  const byScenario = scenarioRuns.flatMap((runs, k) => {
    const chunks = scenarioChunks(runs, threads, cut.progress === true);
    return Array.from({ length: chunks }, (_, c) => {
      const firstRun = Math.floor((c * runs) / chunks);
      const next = Math.floor(((c + 1) * runs) / chunks);
      return { files: [], scenarioRuns: none.map((zero, j) => (j === k ? { firstRun, runs: next - firstRun } : zero)), order: files.length };
    });
  });
  // Each chunk its own place after the files (scenario by scenario, run by run): a sweep's runs in that order whoever took them (recommendRuns.ts).
  byScenario.forEach((unit, j) => (unit.order = files.length + j / byScenario.length));
  const units = [...byFile, ...byScenario];
  return units.length > 0 ? units : [{ files: [], scenarioRuns: none, order: 0 }];
}

/** What a thread gives for the units it took: each configuration's tally over them, and what it read. */
export interface UnitsTallies {
  /** Empty when the thread took no unit (it adds nothing). */
  tallies: SweepTally[];
  recordedRuns: number;
  /** Bad files, with their unit's `order`. */
  skipped: { order: number; bad: BadInput[] }[];
  contextSums?: ContextTokenSums;
  /** Its runs priced as recorded beside what they recorded (src/replay/priceGaps.ts). */
  priceGaps: PriceGapSums;
  /** Its recorded runs' models a configuration's `--context-window model` finds no window for (sweepWarnings.ts); absent: none. */
  windowless?: string[];
  /** Each cache its recorded runs take without one given (defaultCacheMode), once; absent: none. */
  recordedCaches?: CacheMode[];
  /** Its good files' runs' notes of a missing sub-agent transcript, with their unit's `order` (the command's thread warns of them, in file order); absent: none. */
  missingTranscripts?: { order: number; missing: MissingTranscript[] }[];
  /** Its good runs counted by what prices them as their own model (pricedRunKinds.ts: the prices block's, the cache warnings'); absent: none. */
  pricedRuns?: PricedRunKind[];
  /** What its units' good files' runs' headers say, unit by unit with each unit's `order` (the command joins every thread's: joinRunHeaderFacts); absent: nothing. */
  headerFacts?: RunHeaderFactsPart[];
  /** Its synthetic runs with no brakes, by stop, under the configuration noBrakesConfiguration names (absent: none named). */
  noBrakes?: NoBrakeRuns;
}

/** Units swept on this thread: their tallies, and a way to tally more configurations over the same runs. */
export interface UnitsSwept {
  first: UnitsTallies;
  halve(configs: PopulationConfig[]): SweepTally[];
}

/**
 * Takes units off the queue (`next`: the shared counters, Int32 at 0 the next unit, at 1 if there the units
 * done by every thread) until none is left, and sweeps each over configurations `range` of the setup;
 * `onUnitDone` after each, with the units done by every thread so far (progress: sweepShares.ts).
 */
export async function sweepUnitsHere(args: { inputs: readonly string[]; opts: SweepFlags; setup: SweepSetup; range: { from: number; to: number }; units: readonly SweepUnit[]; next: SharedArrayBuffer; onUnitDone?: (unitsDone: number) => void }): Promise<UnitsSwept> {
  const counter = new Int32Array(args.next);
  const configs = args.setup.configurations.slice(args.range.from, args.range.to).map((c) => c.config);
  const populations: SweepPopulation[] = [];
  const read = new UnitsRead(args.setup);
  // One set of grids and result columns for every unit this thread sweeps (the same configurations).
  const results: SweepResults = new Map();
  // With a target: each run's completion kept, unit by unit, for how sure the recommendation is (recommendBootstrap.ts).
  // The synthetic runs with no brakes counted on the way, for the header's note (sweepCompletion.ts).
  const tallier = new SweepTallier(configs, args.setup.prices, results, { keepRuns: args.setup.targetCompletion !== undefined, noBrakesOf: noBrakesConfiguration(args.setup, args.range) });
  // What this thread counted of each split file's start (its newlines and header lines), for its next range.
  const counted = new Map<string, CountedStart>();
  const countedOf = (file: string) => counted.get(file) ?? counted.set(file, { at: 0, lines: 0, headers: 0 }).get(file)!;
  let took = 0;
  const unitDone = () => args.onUnitDone?.(counter.length > 1 ? Atomics.add(counter, 1, 1) + 1 : took);
  for (let i = Atomics.add(counter, 0, 1); i < args.units.length; unitDone(), i = Atomics.add(counter, 0, 1)) {
    const unit = args.units[i]!;
    took += 1;
    tallier.unit(unit.order);
    // A file's runs streamed through the sweep, unless a target needs them kept for a second pass.
    if (unit.files.length > 0 && args.setup.targetCompletion === undefined) {
      // Into this thread's tallier: one set of cost arrays per configuration for all its files.
      const range = unit.range === undefined ? {} : { range: { ...unit.range, counted: countedOf(unit.files[0]!) } };
      read.streamed(unit, await streamFiles({ files: unit.files, opts: args.opts, setup: args.setup, configs, results, into: tallier, windows: read.windows, ...range }));
      continue;
    }
    const prepared = await preparedUnit(args, unit, { tallier, countedOf });
    // Kept for a second pass only with a target (the halved step caps); else each unit's runs go once swept.
    if (args.setup.targetCompletion !== undefined) populations.push(prepared.population);
    read.prepared(unit, prepared);
  }
  return {
    first: read.finish(took > 0 ? tallier.finish() : [], tallier.noBrakeRuns()),
    halve: (halved) => (populations.length === 0 ? [] : populations.reduce((tallier, population) => tallier.add(population), new SweepTallier(halved, args.setup.prices)).finish()),
  };
}

/** A unit read whole and added to the tallier; a run past $9,007 sets its file aside as bad, its runs left out (sweepDrop.ts). */
async function preparedUnit(
  args: { inputs: readonly string[]; opts: SweepFlags; setup: SweepSetup },
  unit: SweepUnit,
  into: { tallier: SweepTallier; countedOf: (file: string) => CountedStart },
): Promise<PreparedSweep> {
  const quiet = { stdout: () => undefined, stderr: () => undefined, cwd: process.cwd() };
  const counting = unit.range === undefined ? {} : { counted: into.countedOf(unit.files[0]!) };
  const read = await prepareSweep(args.inputs, args.opts, () => false, quiet, { share: unit, setup: args.setup, ...counting });
  const added = addDropping(into.tallier, read.population, unit.files);
  return added.overflowed.length === 0 ? read : { ...read, population: added.population, traces: added.population.traces as Trace[], recordedCaches: cachesTaken(added.population.traces), skipped: [...read.skipped, ...added.overflowed] };
}

/** What a thread read of its units besides the tallies (bad files, context sums, price gaps, caches, windows, …), unit by unit. */
class UnitsRead {
  readonly windows: PopulationWindows;
  private readonly first: UnitsTallies = { tallies: [], recordedRuns: 0, skipped: [], priceGaps: [] };
  private readonly sums: ContextTokenSums[] = [];
  private readonly gaps = new PriceGapCheck();
  private readonly caches = new Set<CacheMode>();
  private readonly missing: { order: number; missing: MissingTranscript[] }[] = [];
  private readonly priced = new PricedRunKinds();
  private readonly facts: RunHeaderFactsPart[] = [];

  constructor(private readonly setup: SweepSetup) {
    this.windows = gridWindows(setup);
  }

  /** A unit whose files were streamed through the sweep. */
  streamed(unit: SweepUnit, files: StreamedFiles): void {
    this.first.recordedRuns += files.recordedRuns;
    if (files.skipped.length > 0) this.first.skipped.push({ order: unit.order, bad: files.skipped });
    if (files.contextSums !== undefined) this.sums.push(files.contextSums);
    this.gaps.addSums(files.priceGaps);
    for (const cache of files.recordedCaches ?? []) this.caches.add(cache);
    if (files.missingTranscripts !== undefined) this.missing.push({ order: unit.order, missing: files.missingTranscripts });
    this.priced.join(files.pricedRuns ?? []);
    this.addFacts(unit, files.headerFacts);
  }

  /** A unit read whole (prepareSweep). */
  prepared(unit: SweepUnit, prepared: PreparedSweep): void {
    this.first.recordedRuns += prepared.traces.length;
    this.gaps.addSums(sweepPriceGaps(this.setup, prepared.traces).sums());
    this.windows.addInputs({ traces: prepared.traces });
    for (const cache of prepared.recordedCaches) this.caches.add(cache);
    if (prepared.skipped.length > 0) this.first.skipped.push({ order: unit.order, bad: prepared.skipped });
    const unitMissing = prepared.traces.flatMap(missingTranscriptsOf);
    if (unitMissing.length > 0) this.missing.push({ order: unit.order, missing: unitMissing });
    this.priced.add(prepared.traces);
    const unitSums = contextSumsOf(prepared, prepared.population.traces);
    if (unitSums !== undefined) this.sums.push(unitSums);
    this.addFacts(unit, runHeaderFactsOf(prepared.traces, gridFactsReading(this.setup.configurations.map((c) => c.config), this.setup.prices)));
  }

  private addFacts(unit: SweepUnit, facts: RunHeaderFacts | undefined): void {
    if (facts !== undefined && saysAnything(facts)) this.facts.push({ order: unit.order, facts });
  }

  /** The thread's answer, with its tallies (none when it took no unit) and its synthetic runs with no brakes, counted (if asked). */
  finish(tallies: SweepTally[], noBrakes: NoBrakeRuns | undefined): UnitsTallies {
    const first = this.first;
    first.tallies = tallies;
    if (noBrakes !== undefined) first.noBrakes = noBrakes;
    if (this.sums.length > 0) first.contextSums = mergeContextTokenSums(this.sums);
    first.priceGaps = this.gaps.sums();
    if (this.windows.models().length > 0) first.windowless = this.windows.models();
    if (this.caches.size > 0) first.recordedCaches = [...this.caches];
    if (this.missing.length > 0) first.missingTranscripts = this.missing;
    if (this.priced.size > 0) first.pricedRuns = this.priced.kinds();
    if (this.facts.length > 0) first.headerFacts = this.facts;
    return first;
  }
}
