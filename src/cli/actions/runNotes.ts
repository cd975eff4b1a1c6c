/**
 * What a command notes about each run as it replays it, for its report: whether the price table prices
 * the run as it was billed (price gap), whether a recorded run is replayed under a context strategy it
 * was not recorded with (open loop), and the day its dated prices were read at. Synthetic runs (from
 * scenario files) are neither: they were not recorded, so they have no recorded cost and run closed-loop.
 */
import { isIdentity, type CacheMode, type ContextStrategy } from '../../context/strategy.js';
import { PriceGapCheck } from '../../pricing/recordedCost.js';
import { ProviderFallbackTally } from '../../report/providerFallbackWarning.js';
import type { PriceDays } from '../../pricing/source.js';
import { PriceDaysTally } from '../../report/priceDays.js';
import type { ModelPricing, PriceTable } from '../../pricing/types.js';
import { UserError } from '../../errors.js';
import { runOfFile } from '../../io/openInput.js';
import type { RunResult } from '../../replay/replay.js';
import { tracePricing } from '../../replay/tracePricing.js';
import { isBrakeStop } from '../../brakes/stopReasons.js';
import { COMMAND_LINE_MODEL } from '../../options/given.js';
import { recordedCostCheckOf, recordedWebSearches } from '../../replay/runFacts.js';
import { UnpricedSearches, unpricedSearchesOf, type UnpricedRunSearches } from '../../pricing/unpricedSearches.js';
import { contextText } from '../../report/settings.js';
import { cachePriceWarnings, openLoopWarnings, PRICE_GAP_TOLERANCE, priceGapWarnings, SessionParts, sessionPartsWarnings, type PartsSaid, type ReportWarning } from '../../report/warnings.js';
import { recordedStrategyOf } from '../../replay/recordedStrategy.js';
import { rebuiltStrategyWarnings, recordedContextText, recordedStrategyWarnings } from '../../report/recordedStrategyWarning.js';
import { WindowlessModels } from '../../population/modelWindow.js';
import type { Trace } from '../../trace/types.js';
import { counted } from '../../plural.js';
import { ImportNotesTally } from '../../report/importNotesWarning.js';
import { isMissingTranscriptNote } from '../../import/claudeCode/missingTranscript.js';
import { readsWithoutWrites, repricedWithCacheAsRecorded, RepricedCacheWrites } from '../../report/repricedCacheWrites.js';
import { CacheIdleTally, idleCallsOf, recordedCallsMade } from '../../report/cacheIdleWarning.js';
import type { LatencyModel } from '../../loop/latency.js';
import { PastWindowTally, runWindowsOf, type RunWindow, type WindowSetting } from '../../report/pastWindowRuns.js';
import { OutputOverCapTally, runOverCaps, type RunOverCap } from '../../report/outputOverCap.js';

/** What one recorded run adds to the notes (see RunNotes.noteOf). */
export interface RunNote {
  source: string;
  pricing: ModelPricing;
  /** The table's price of the run as recorded beside its recorded cost, when it recorded one. */
  recordedCost?: { computedPico: number; recordedPico: number };
  /** The session tree the run is a part of (header.agent), when it is one. */
  sessionId?: string;
  /** The context strategy its recording states and it replays under (replay/recordedStrategy.ts), when it does (under full context or that same strategy). */
  ranUnder?: string;
  /** The context strategy its recording states when it replays under another, its full history rebuilt (recordedStrategy.ts recordingUnder). */
  rebuiltFrom?: string;
  /** Replayed under the strategy its recording states (not full context): as it ran, its cost as billed — no context changed it. */
  ownStrategy?: true;
  /** Its importer's notes (header.importedFrom.notes), but those warned of on stderr already (missingTranscripts.ts). */
  importNotes?: readonly string[];
  /** Its web searches, when the table prices them at $0 (pricing/unpricedSearches.ts). */
  unpricedSearches?: UnpricedRunSearches;
  /** Re-priced as another model that bills cache writes, the cache as recorded: the cached tokens it read with no write recorded (report/repricedCacheWrites.ts). */
  readsWithoutWrites?: number;
  /** With the cache on: its calls that came after the cache's lifetime (report/cacheIdleWarning.ts), when any did. */
  cacheIdleCalls?: number;
  /** Its idle calls were counted over its whole recording (no one replay of it at hand: whatif's, contexts'), not the calls a replay made. */
  cacheIdleOverWholeRecording?: true;
  /** The windows its settings count it against (report/pastWindowRuns.ts), over the calls its replay made or its whole recording; shared by runs alike. */
  pastWindow?: { windows: readonly RunWindow[]; wholeRecording: boolean };
  /** Its recorded calls past the max_tokens its settings send (report/outputOverCap.ts), over the calls its replay made or its whole recording. */
  outputOverCap?: { caps: readonly RunOverCap[]; wholeRecording: boolean };
  /** The max_tokens sent by its own brakes that take the model's window (modelWindowMaxTokens), where each run has its own (RunNotes' `runModelWindowBrake`). */
  modelWindowBrake?: readonly number[];
}

/** A run's importer's notes (header.importedFrom.notes) but those warned of on stderr already (missingTranscripts.ts); undefined: none. */
export function importNotesOf(trace: Trace): readonly string[] | undefined {
  const given = trace.header.importedFrom?.notes;
  if (given === undefined || given.length === 0) return undefined;
  const notes = given.filter((text) => !isMissingTranscriptNote(text));
  return notes.length > 0 ? notes : undefined;
}

/** The import notes of `traces`, in their order, added to `tally` (a new one by default): what commands that hold their runs warn of (importNotesWarning.ts). */
export function importNotesTallyOf(traces: readonly Trace[], tally: ImportNotesTally = new ImportNotesTally()): ImportNotesTally {
  for (const trace of traces) tally.add(trace.source, importNotesOf(trace));
  return tally;
}

/** What brakeOpenLoopWarnings reads of a replay's result (replay/replay.ts RunResult). */
export type StoppedRun = Pick<RunResult, 'stopReason' | 'modelCalls' | 'recordedCalls' | 'synthetic'>;

/**
 * A brake stopped recorded runs before their last recorded call: they replay open loop, so what the report
 * shows after a stop (a later part of the session, completed as recorded; every other run) is what the
 * recording did, not what the agent would have done once stopped. Synthetic runs (`synthetic`: a scenario's)
 * run closed loop and are not counted.
 */
export function brakeOpenLoopWarnings(results: Iterable<StoppedRun>): ReportWarning[] {
  let stopped = 0;
  for (const result of results) if (result.synthetic === undefined && isBrakeStop(result.stopReason) && result.modelCalls < result.recordedCalls) stopped += 1;
  if (stopped === 0) return [];
  return [
    {
      code: 'open_loop_brakes',
      message:
        `a brake stopped ${counted(stopped, 'recorded run')} early: recorded responses are replayed as recorded (open loop), so a brake changes where a run stops, not what the agent would have done after a stop (later parts of its session and other runs go on as recorded); ` +
        `for the brakes' effect on what agents do, fit a synthetic population to these runs and replay it closed loop (loopcost fit, then replay profile.yaml --runs N)`,
    },
  ];
}

export class RunNotes {
  private readonly priceGaps = new PriceGapCheck();
  private recordedRuns = 0;
  /** A scenario file's runs noted (addSynthetic): in the report, not counted where only recorded runs are. */
  private syntheticRuns = 0;
  /** Recorded runs replayed under the strategy their recording states: the command's context changed nothing of them (no open_loop). */
  private ownStrategyRuns = 0;
  private readonly dayBySource = new Map<string, string>();
  private readonly days = new PriceDaysTally();
  private readonly uncachedModels = new Set<string>();
  private readonly windowless = new WindowlessModels();
  /** Runs per session tree (runs that are parts of one). */
  private readonly sessionRuns = new SessionParts();
  /** Runs replayed under the strategy their recording states, by its spec. */
  private readonly ranUnder = new Map<string, number>();
  /** Runs replayed under another strategy than their recording states, their full history rebuilt, by its spec. */
  private readonly rebuiltFrom = new Map<string, number>();
  private readonly importNotes = new ImportNotesTally();
  private readonly unpricedSearches = new UnpricedSearches();
  private readonly cacheIdle = new CacheIdleTally();
  private readonly repricedCacheWrites = new RepricedCacheWrites();
  private readonly pastWindow = new PastWindowTally();
  private readonly outputOverCap = new OutputOverCapTally();
  private readonly providerFallbacks = new ProviderFallbackTally();
  /** Each distinct RunNote.pastWindow, once (a replay keeps a note per run: runs alike share one). */
  private readonly pastWindowNotes = new Map<string, NonNullable<RunNote['pastWindow']>>();

  /**
   * `modelWindowBrake`: the max_tokens sent by the settings that take `--context-window model`, which
   * needs each run's model's window (population/modelWindow.ts modelWindowMaxTokens; none: no such setting);
   * `runModelWindowBrake`: a recorded run's own, where each has its own brakes (`--preset recorded`: its recording's).
   * `partsBraked`: brakes bind each run on its own (no --tree), so runs that are parts of a session say so;
   * `parts`: what else the report does with such runs (its figures per run or task), said whether braked or not.
   */
  /**
   * `contextSaid`: the report's settings line names the context as recordedContext says it (replay's): where
   * every recorded run replays under its recording's strategy, no warning says it again.
   */
  /** `windowSettings`: the settings each run replays under, as the prompts past a window count them (report/pastWindowRuns.ts); none: not counted. `windowRemedy`: that warning's way out where the command takes no brakes (report/pastWindowWarnings.ts). `sentCaps`: the max_tokens each setting sends for a run (one entry a setting: outputOverCap.ts sentCaps), as recorded outputs past them are counted and said with the settings that send them (report/outputOverCap.ts); none: not counted. */
  constructor(private readonly options: { strategy: ContextStrategy; model?: string; tolerance?: number; modelWindowBrake?: readonly number[]; runModelWindowBrake?: (trace: Trace) => readonly number[]; partsBraked?: boolean; parts?: Omit<PartsSaid, 'braked'>; latency?: LatencyModel; contextSaid?: boolean; windowSettings?: (trace: Trace) => readonly WindowSetting[]; windowRemedy?: string; sentCaps?: (trace: Trace) => readonly number[] }) {}

  /**
   * What one run priced with `pricing` (as resolved for it) adds, taken while the run is at hand; noted
   * (`addNote`) once its file has read cleanly, so a file left out (--skip-bad) leaves nothing in the
   * report's notes, and no trace is kept meanwhile. `ran`: the run's replay under the report's one setting, when
   * there is one (replay's): its idle calls are those it made.
   */
  noteOf(trace: Trace, pricing: ModelPricing, ran?: Pick<RunResult, 'modelCalls' | 'summaryCalls' | 'recordedCalls'>): RunNote {
    const note: RunNote = { source: trace.source, pricing };
    // Re-priced as another model (--model), the recorded cost is of a different model: no comparison.
    const check = this.options.model === undefined ? recordedCostCheckOf(trace, pricing) : undefined;
    if (check) note.recordedCost = check;
    const unwritten = repricedWithCacheAsRecorded({ model: this.options.model, cache: this.options.strategy.cache }) ? readsWithoutWrites(trace, pricing) : 0;
    if (unwritten > 0) note.readsWithoutWrites = unwritten;
    if (trace.header.agent !== undefined) note.sessionId = trace.header.agent.sessionId;
    // Replayed as its loop ran it: said where the settings line names full context (under its own strategy, the line names it); else rebuilt.
    const asRan = recordedStrategyOf(trace, this.options.strategy) !== undefined;
    if (asRan && isIdentity(this.options.strategy)) note.ranUnder = trace.header.context!.spec;
    else if (asRan) note.ownStrategy = true;
    else if (!asRan && trace.header.context !== undefined) note.rebuiltFrom = trace.header.context.spec;
    const importNotes = importNotesOf(trace);
    if (importNotes !== undefined) note.importNotes = importNotes;
    const unpriced = unpricedSearchesOf(recordedWebSearches(trace), pricing, trace.header);
    if (unpriced !== undefined) note.unpricedSearches = unpriced;
    const callsMade = ran === undefined ? undefined : recordedCallsMade(ran, asRan);
    const idle = this.options.strategy.cache === 'on' ? idleCallsOf(trace, { latency: this.options.latency, callsMade }) : 0;
    if (idle > 0) note.cacheIdleCalls = idle;
    if (idle > 0 && callsMade === undefined) note.cacheIdleOverWholeRecording = true;
    const pastWindow = this.pastWindowOf(trace, pricing, callsMade);
    if (pastWindow !== undefined) note.pastWindow = pastWindow;
    const overCap = runOverCaps(trace, this.options.sentCaps?.(trace) ?? [], callsMade);
    if (overCap.length > 0) note.outputOverCap = { caps: overCap, wholeRecording: callsMade === undefined };
    const asks = this.options.runModelWindowBrake?.(trace);
    if (asks !== undefined) note.modelWindowBrake = asks;
    return note;
  }

  /** The windows the run's settings count it against, priced with `pricing` (every setting prices it alike), over the calls its replay made (`callsMade`) or its whole recording. */
  private pastWindowOf(trace: Trace, pricing: ModelPricing, callsMade: number | undefined): RunNote['pastWindow'] {
    const settings = this.options.windowSettings?.(trace);
    if (settings === undefined) return undefined;
    const windows = runWindowsOf(trace, { settings, pricingOf: () => pricing, ...(callsMade === undefined ? {} : { callsMade }) });
    if (windows.length === 0) return undefined;
    const note = { windows, wholeRecording: callsMade === undefined };
    const key = JSON.stringify(note);
    return this.pastWindowNotes.get(key) ?? (this.pastWindowNotes.set(key, note), note);
  }

  /** Notes one run (see `noteOf`). */
  addNote(note: RunNote): void {
    if (note.recordedCost) this.priceGaps.addCheck(note.pricing.model, note.recordedCost);
    this.sessionRuns.add(note.sessionId);
    if (note.ranUnder !== undefined) this.ranUnder.set(note.ranUnder, (this.ranUnder.get(note.ranUnder) ?? 0) + 1);
    if (note.rebuiltFrom !== undefined) this.rebuiltFrom.set(note.rebuiltFrom, (this.rebuiltFrom.get(note.rebuiltFrom) ?? 0) + 1);
    this.importNotes.add(note.source, note.importNotes);
    this.unpricedSearches.add(note.unpricedSearches);
    this.cacheIdle.add(note.cacheIdleCalls, note.cacheIdleOverWholeRecording === true);
    this.repricedCacheWrites.add(note.pricing, note.readsWithoutWrites ?? 0);
    if (note.pastWindow !== undefined) this.pastWindow.addRun(note.pastWindow.windows, note.pastWindow.wholeRecording);
    this.outputOverCap.add(note.outputOverCap?.caps, note.outputOverCap?.wholeRecording === true);
    // Every run read from a file replays as written down (open loop), a generated one (origin synthetic) too.
    this.recordedRuns += 1;
    if (note.ownStrategy) this.ownStrategyRuns += 1;
    this.notePricing(note.source, note.pricing, { cache: this.options.strategy.cache, asks: note.modelWindowBrake });
  }

  /** Notes a synthetic run (`cache`: the mode it ran under; `sent`: the max_tokens its settings send, sentMaxTokens): how it was priced. */
  addSynthetic(source: string, pricing: ModelPricing, cache: CacheMode | undefined, sent: readonly number[]): void {
    this.syntheticRuns += 1;
    this.notePricing(source, pricing, { cache, asks: undefined });
    this.windowless.noteSynthetic(sent, pricing);
  }

  /** `asks`: the run's own modelWindowBrake, where each run has its own; else the settings'. */
  private notePricing(source: string, pricing: ModelPricing, run: { cache: CacheMode | undefined; asks: readonly number[] | undefined }): void {
    if (run.cache === 'on' && pricing.base.cachedInput === undefined) this.uncachedModels.add(pricing.model);
    this.windowless.note(run.asks ?? this.options.modelWindowBrake ?? [], pricing);
    const { asOf } = pricing.source;
    if (asOf !== undefined) this.dayBySource.set(source, asOf);
    this.days.add(pricing);
    this.providerFallbacks.add(pricing);
  }

  /** `results`: the replays' results, when at hand (replay's): a brake's early stop of a recorded run is said (brakeOpenLoopWarnings). */
  warnings(inputs: readonly string[], results: Iterable<StoppedRun> = []): ReportWarning[] {
    return [
      ...priceGapWarnings(this.priceGaps.gaps(this.options.tolerance ?? PRICE_GAP_TOLERANCE), inputs),
      ...this.providerFallbacks.warnings(),
      ...(isIdentity(this.options.strategy) ? [] : openLoopWarnings(this.recordedRuns - this.ownStrategyRuns, contextText(this.options.strategy))),
      ...brakeOpenLoopWarnings(results),
      ...this.outputOverCap.warnings(),
      ...cachePriceWarnings([...this.uncachedModels].sort()),
      ...this.cacheIdle.warnings(),
      ...this.repricedCacheWrites.warnings(),
      // Only recorded runs are counted: `of N recorded runs` where a scenario file's runs are in the report too.
      ...this.pastWindow.warnings({ remedy: this.options.windowRemedy, recordedOnly: this.syntheticRuns > 0 }),
      ...this.windowless.warnings(),
      ...sessionPartsWarnings(this.sessionRuns.parts(), { ...this.options.parts, braked: this.options.partsBraked === true }),
      ...(this.options.contextSaid === true && this.recordedContext() !== undefined ? [] : recordedStrategyWarnings(this.ranUnder)),
      ...rebuiltStrategyWarnings(this.rebuiltFrom),
      ...this.importNotes.warnings(),
      ...this.unpricedSearches.warnings(),
    ];
  }

  /** `as recorded (window:8 ×1)` when every recorded run noted replays under the strategy its recording states (recordedContextText); else undefined. */
  recordedContext(): string | undefined {
    return recordedContextText(this.ranUnder, this.recordedRuns);
  }

  /** The day a run's dated prices were read at (absent for undated tables). */
  priceDay(source: string): string | undefined {
    return this.dayBySource.get(source);
  }

  priceDays(): PriceDays {
    return this.days.priceDays();
  }

  /** The days the runs were priced as of, after the prices line (report/priceDays.ts: the one source of these words, project's too). */
  pricesNote(): string {
    return this.days.note();
  }
}

/** Where each imported format names the model, as its users know the field. */
const MODEL_FIELD: Record<string, string> = {
  'mini-swe-agent': 'info.config.model.model_name',
  'swe-agent': 'model_name (replay_config, args.yaml or the file name)',
  'vcr-cassette': 'request body "model"',
  'http-exchanges': 'request body "model"',
  'otlp-json': 'gen_ai.request.model',
  'claude-code': 'message.model',
  codex: 'payload.model (turn_context)',
};

/**
 * A run's prices (resolveTracePricing), with an unknown model reported under the name the run's own
 * format gives the field (`info.config.model.model_name`, not the native `header.model`).
 */
export function pricingFor(trace: Trace, options: { prices: PriceTable; model?: string }): ModelPricing {
  try {
    return tracePricing(trace, { ...options, modelPlace: COMMAND_LINE_MODEL });
  } catch (error) {
    const from = trace.header.importedFrom;
    // A native file converted by `loopcost import` names the model in `header.model`, as its reader sees it.
    const readFromOriginal = from !== undefined && (runOfFile(trace.source, from.path) || trace.modelPlace?.file === from.path);
    const field = readFromOriginal ? MODEL_FIELD[from.format] : undefined;
    if (!(error instanceof UserError) || field === undefined) throw error;
    throw new UserError(error.issues.map((issue) => (issue.field === 'header.model' ? { ...issue, field } : issue)));
  }
}
