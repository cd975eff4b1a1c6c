/**
 * A unit's trace files streamed through the sweep: read, compiled and swept a batch of runs at a time,
 * each batch dropped once its runs are tallied (and their context-token curves summed), so no thread
 * holds a whole file's runs (and its collector less to trace). A file found bad part way has the
 * tallies of its batches rolled back, as one thread reading it whole would never have tallied them. The
 * tallies do not depend on the batch size: sums are exact and every cost is kept (merged in order).
 */
import { CompileArena, compiledTraceIn } from '../../fast/compile.js';
import type { CompiledTrace } from '../../fast/layout.js';
import { handedOverCompiled, handOverCompiled } from '../../replay/compiledRuns.js';
import type { BadInput, InputRun, TraceInputs } from '../../import/inputSet.js';
import { mergeContextTokenSums, type ContextTokenSums } from '../../population/contextTokens.js';
import type { PopulationConfig } from '../../population/run.js';
import { hasStrategyFigures, statesItsStrategy, SWEEP_SLICE_TRACES, SweepPopulation, SweepTallier, type SweepResults, type SweepTallierMark, type SweepTally } from '../../population/sweep.js';
import type { RangeRead } from '../../io/byteRange.js';
import type { Trace } from '../../trace/types.js';
import { PriceGapCheck, type PriceGapSums } from '../../pricing/recordedCost.js';
import { traceInputs } from './inputs.js';
import { contextSumsOf, type SweepFlags, type SweepSetup } from './sweepWork.js';
import { gridWindows } from './sweepWarnings.js';
import { ownPricingOf, priceCheckOf } from './sweepPricing.js';
import type { PopulationWindows } from '../../population/modelWindow.js';
import type { CacheMode } from '../../context/strategy.js';
import { defaultCacheMode } from '../../replay/replay.js';
import { missingTranscriptsOf, type MissingTranscript } from './missingTranscripts.js';
import { PricedRunKinds, type PricedRunKind } from './pricedRunKinds.js';
import { gridFactsReading, RunHeaderFactsTally, saysAnything, type GridFactsReading, type RunHeaderFacts } from './sweepHeaderFacts.js';
import { appendAll } from '../../appendAll.js';

/** Runs read, compiled and swept at once: the recorded sweep's slice. */
const STREAM_BATCH_RUNS = SWEEP_SLICE_TRACES;

/** What a unit's files gave: each configuration's tally over their good runs (unless added to a given tallier), and their bad files. */
export interface StreamedFiles {
  /** Empty when no run of a good file was read. */
  tallies: SweepTally[];
  recordedRuns: number;
  skipped: BadInput[];
  contextSums?: ContextTokenSums;
  /** The good files' runs priced as recorded beside what they recorded (sweepPricing.ts priceCheckOf: whatever they are priced as). */
  priceGaps: PriceGapSums;
  /** The good files' runs' models a configuration's `--context-window model` finds no window for (sweepWarnings.ts); absent: none. */
  windowless?: string[];
  /** Each cache the good files' runs take without one given (defaultCacheMode), once; absent: none. */
  recordedCaches?: CacheMode[];
  /** The good files' runs' notes of a missing sub-agent transcript, in the order read (the command warns of them); absent: none. */
  missingTranscripts?: MissingTranscript[];
  /** The good files' runs counted by what prices them as their own model (pricedRunKinds.ts: the prices block's, the cache warnings'); absent: none. */
  pricedRuns?: PricedRunKind[];
  /** What the good files' runs' headers say (import notes, stated strategies), counted in the order read (sweepHeaderFacts.ts); absent: nothing. */
  headerFacts?: RunHeaderFacts;
}

/**
 * A run compiled, its calls let go: what a sweep reads of them it reads off the compiled trace (handed
 * over: runFacts.ts), unless a configuration replays its runs call by call (hasStrategyFigures: then
 * the calls are kept). Its parsed records die young instead of living (and being promoted by the
 * collector) until the batch is swept: ~5 KB a run of the ~10 KB a batch promoted. Whatever asked for
 * them after this would be a mistake, so it throws rather than read no calls.
 */
function letCallsGo(trace: Trace, compiled: CompiledTrace): void {
  handOverCompiled(trace, compiled);
  Object.defineProperty(trace, 'calls', {
    configurable: true,
    enumerable: true,
    get(): never {
      throw new Error(`sweep: the calls of ${trace.source} were let go once compiled`);
    },
  });
}

/** The file being read: where the tallies were when it opened (rolled back to if it turns out bad), its runs swept, its curves' sums. */
interface OpenFile {
  file: string;
  mark: SweepTallierMark;
  runs: number;
  sums: ContextTokenSums[];
  gaps: PriceGapCheck;
  windows: PopulationWindows;
  caches: Set<CacheMode>;
  missing: MissingTranscript[];
  priced: PricedRunKinds;
  facts: RunHeaderFactsTally;
}

/** streamFiles' arguments (see there). */
export interface StreamFilesArgs {
  files: readonly string[];
  opts: SweepFlags;
  setup: SweepSetup;
  configs: readonly PopulationConfig[];
  batchRuns?: number;
  results?: SweepResults;
  into?: SweepTallier;
  windows?: PopulationWindows;
  range?: RangeRead;
}

/**
 * Each configuration's tally over `files`' good runs, swept `batchRuns` at a time (bad files set aside,
 * not refused). `results`: the sweep's grids and result columns, shared by every batch of every file and
 * by every call that passes the same map for the same configurations (a batch's result is read before
 * the next). `into`: a tallier the runs are added to (a thread's, over all its units: its tallies are
 * then left to its caller, `tallies` is empty), else one of this call's own; every file is added to the
 * same tallier (a few large arrays of costs per configuration, not a few small ones per file), a file
 * found bad rolled back. `windows`: where the good files' runs' models without a window are noted (a
 * thread's, over all its units), else this call's own. `range`: only the runs of that byte range of the
 * (one) file (sweepSplit.ts).
 */
export async function streamFiles(args: StreamFilesArgs): Promise<StreamedFiles> {
  const set = traceInputs(args.files, { ...args.opts, skipBad: true }, { compiled: true, walk: args.setup.traceFiles, ...(args.range === undefined ? {} : { range: args.range }) });
  const stream = new FileStream(args, set);
  for await (const run of set.runs()) stream.read(run);
  stream.close();
  return stream.streamed();
}

/** A unit's files as they are read: the open file and its batch, and what the good files closed so far gave. */
class FileStream {
  private readonly batchRuns: number;
  private readonly tallier: SweepTallier;
  private readonly sums: ContextTokenSums[] = [];
  private readonly gaps = new PriceGapCheck();
  private readonly windows: PopulationWindows;
  private readonly caches = new Set<CacheMode>();
  private readonly missing: MissingTranscript[] = [];
  /** What the prices block and the cache warning need of the runs: one run of each kind, and how many. */
  private readonly priced = new PricedRunKinds();
  private readonly facts = new RunHeaderFactsTally();
  /** Every configuration's context, one of each, and the windows their prompts are counted against: what each run's header facts are read under (sweepHeaderFacts.ts). */
  private readonly factsReading: GridFactsReading;
  /** Each run's own pricing, when something prices runs so: a model the table lacks makes its file bad (sweepPricing.ts). */
  private readonly ownPricing: ReturnType<typeof ownPricingOf>;
  private readonly notePrice: ReturnType<typeof priceCheckOf>;
  private goodFiles = 0;
  private recordedRuns = 0;
  /** Each run compiled as it is read, into memory its batch shares and the next batch reuses (compile.ts CompileArena). */
  private readonly arena: CompileArena;
  private readonly needsCalls: boolean;
  private open: OpenFile | undefined;
  private batch: Trace[] = [];

  constructor(
    private readonly args: StreamFilesArgs,
    private readonly set: TraceInputs,
  ) {
    this.batchRuns = args.batchRuns ?? STREAM_BATCH_RUNS;
    this.tallier = args.into ?? new SweepTallier(args.configs, args.setup.prices, args.results ?? new Map());
    this.windows = args.windows ?? gridWindows(args.setup);
    this.ownPricing = ownPricingOf(args.setup);
    this.notePrice = priceCheckOf(args.setup);
    this.arena = new CompileArena();
    this.needsCalls = args.configs.some(hasStrategyFigures) || args.setup.configurations.some((c) => hasStrategyFigures(c.config));
    this.factsReading = gridFactsReading(args.setup.configurations.map((c) => c.config), args.setup.prices);
  }

  /** One run read: its file opened when it is the first of it, the run compiled and noted, its batch swept when full. */
  read(run: InputRun): void {
    if (this.open?.file !== run.file) {
      this.close();
      this.open = { file: run.file, mark: this.tallier.mark(), runs: 0, sums: [], gaps: new PriceGapCheck(), windows: this.windows.apart(), caches: new Set(), missing: [], priced: new PricedRunKinds(), facts: RunHeaderFactsTally.ofGrid(this.factsReading) };
    }
    const open = this.open;
    const pricing = this.set.guard(run, () => this.ownPricing(run.trace));
    if (this.set.isBad(run.file)) return; // its file stops being read; close() rolls back what it tallied
    // (A run served by a cache of compiled traces comes with its compiled trace: its calls never decoded.)
    const compiled = handedOverCompiled(run.trace) ?? compiledTraceIn(run.trace, this.arena);
    // A recording that states its strategy keeps its calls: a full-history configuration replays it as it ran (sweepRecorded.ts).
    if (!this.needsCalls && !statesItsStrategy(run.trace)) letCallsGo(run.trace, compiled);
    this.notePrice(open.gaps, { trace: run.trace, pricing });
    open.windows.addTrace(run.trace);
    open.caches.add(defaultCacheMode(run.trace));
    open.missing.push(...missingTranscriptsOf(run.trace));
    open.priced.add([run.trace]);
    // Its header's facts, read under the configurations' contexts: a stated strategy that does not parse makes its file bad, as its replay would.
    this.set.guard(run, () => open.facts.add(run.trace));
    if (this.set.isBad(run.file)) return;
    this.batch.push(run.trace);
    if (this.batch.length >= this.batchRuns) this.flush();
  }

  /** A batch swept and tallied (or dropped) is read no more: the arena's memory is handed out again. */
  private flush(): void {
    const open = this.open;
    if (open === undefined || this.batch.length === 0) return;
    open.runs += this.batch.length;
    const batch = this.batch;
    // A run past $9,007 under some configuration makes its file bad (named by the tallier: population/blameRun.ts); close() rolls it back.
    const batchSums = this.set.guard({ file: open.file, trace: batch[0]! }, () => {
      this.tallier.add(new SweepPopulation(batch, []));
      return contextSumsOf(this.args.setup, batch);
    });
    if (batchSums !== undefined) open.sums.push(batchSums);
    this.batch = [];
    this.arena.reset();
  }

  /** A file is closed once its runs are all read, when its badness is known: a bad file's last batch is never swept, the others are rolled back. */
  close(): void {
    if (this.open !== undefined && !this.set.isBad(this.open.file)) this.flush();
    const open = this.open;
    if (open !== undefined && !this.set.isBad(open.file)) this.keep(open);
    else if (open !== undefined && open.runs > 0) this.tallier.rollback(open.mark);
    this.open = undefined;
    this.batch = [];
    this.arena.reset();
  }

  /** A good file's runs, sums and notes joined to the good files'. */
  private keep(open: OpenFile): void {
    this.goodFiles += 1;
    this.recordedRuns += open.runs;
    appendAll(this.sums, open.sums);
    this.gaps.addSums(open.gaps.sums());
    this.windows.add(open.windows.models());
    for (const cache of open.caches) this.caches.add(cache);
    appendAll(this.missing, open.missing);
    this.priced.join(open.priced.kinds());
    this.facts.addFacts(open.facts.facts());
  }

  /** What the good files gave (every file closed). */
  streamed(): StreamedFiles {
    const { windows, caches, missing, priced, sums } = this;
    const facts = this.facts.facts();
    return {
      tallies: this.args.into !== undefined || this.goodFiles === 0 ? [] : this.tallier.finish(),
      recordedRuns: this.recordedRuns,
      skipped: this.set.badInputs,
      priceGaps: this.gaps.sums(),
      ...(windows.models().length === 0 ? {} : { windowless: windows.models() }),
      ...(caches.size === 0 ? {} : { recordedCaches: [...caches] }),
      ...(missing.length === 0 ? {} : { missingTranscripts: missing }),
      ...(priced.size === 0 ? {} : { pricedRuns: priced.kinds() }),
      ...(sums.length === 0 ? {} : { contextSums: mergeContextTokenSums(sums) }),
      ...(saysAnything(facts) ? { headerFacts: facts } : {}),
    };
  }
}
