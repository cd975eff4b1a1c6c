/**
 * What a sweep's (a calibration's) warnings say of its recorded runs' own headers, counted run by run:
 * their importers' notes (importNotesWarning.ts), the context strategies their recordings state and what the
 * configurations' contexts do with them, rebuilt or replayed as they ran (recordedStrategyWarning.ts
 * ConfiguredContextTally), the session trees they are parts of (sessionParts.ts), the runs whose recorded prompts
 * pass the configurations' context windows less max_tokens (report/pastWindowRuns.ts), and their recorded calls whose
 * outputs pass the max_tokens the configurations send (report/outputOverCap.ts). One value, carried through
 * the same per-file, per-unit and per-thread plumbing (sweepStream.ts, sweepUnits.ts, sweepShares.ts) and joined by one merge, so another such fact
 * is one field here: its tally in RunHeaderFactsTally, its warning in sweepWarnings.ts.
 *
 * Threads take units in any order; each unit's facts travel with its place among the inputs (`order`), and
 * the parts are joined in that order (joinRunHeaderFacts), so the facts — the first import note too — are
 * those one thread reading every file in order gives, whichever thread read which.
 */
import { ImportNotesTally, type ImportNotesSeen } from '../../report/importNotesWarning.js';
import { ConfiguredContextTally, distinctContexts, StatedStrategyTally, type StatedStrategies } from '../../report/recordedStrategyWarning.js';
import type { ContextStrategy } from '../../context/strategy.js';
import type { Trace } from '../../trace/types.js';
import { importNotesOf } from './runNotes.js';
import { CacheIdleTally, idleCallsOf, idleCallsOfCompiled, type IdleCounts } from '../../report/cacheIdleWarning.js';
import { handedOverCompiled } from '../../replay/compiledRuns.js';
import { SessionParts, type SessionRuns } from '../../report/sessionParts.js';
import type { SessionTree } from '../../tree/group.js';
import { PastWindowTally, runWindowsOf, windowSettingsOf, type PastWindowCounts, type WindowSetting } from '../../report/pastWindowRuns.js';
import type { PopulationConfig } from '../../population/run.js';
import type { ModelPricing, PriceTable } from '../../pricing/types.js';
import { pricingFor } from './runNotes.js';
import { OutputOverCapTally, runOverCaps, sentCaps, type OutputOverCapCounts } from '../../report/outputOverCap.js';

/** Facts of runs' headers (plain data: a worker thread sends them), each absent where none of the runs has it. */
export interface RunHeaderFacts {
  /** The runs' importers' notes, counted in the order read; absent: none. */
  importNotes?: ImportNotesSeen;
  /** The runs whose recordings state their context strategy, by spec; absent: none. */
  statedStrategies?: StatedStrategies;
  /** Of those, the runs some configuration's context rebuilds to full history, by spec (recordedStrategyWarning.ts ConfiguredContextTally); absent: none. */
  rebuiltStrategies?: StatedStrategies;
  /** Of those, the runs every configuration replays as they ran, some under their own strategy (no open_loop said of them); absent: none. */
  ownStrategyRuns?: number;
  /** Calls that came after the cache's lifetime by their recorded latencies (report/cacheIdleWarning.ts), their runs and what they were counted over (the whole recordings); absent: none. */
  cacheIdle?: IdleCounts;
  /** The runs that are parts of a session tree (`header.agent`), by session; absent: none. */
  sessionRuns?: SessionRuns;
  /** The runs counted against each context window less max_tokens the configurations price them at, and those whose recorded prompts pass it (over the whole recordings); absent: none counted. */
  pastWindow?: PastWindowCounts;
  /** The recorded calls whose outputs pass each max_tokens the configurations send (over the whole recordings); absent: none. */
  outputOverCap?: OutputOverCapCounts;
}

/**
 * The configurations (every one, a shard's too) as the facts read them: their contexts, the windows (with the table that prices them) the runs' prompts are
 * counted against, and the max_tokens each sends (one entry a configuration: outputOverCap.ts sentCaps), which the runs' recorded outputs are counted against, as whatif counts its tries'.
 */
export interface GridFactsReading {
  contexts: readonly ContextStrategy[];
  windows: { settings: readonly WindowSetting[]; prices: PriceTable };
  sentCaps: readonly number[];
}

/** What the facts read of `configs` priced by `prices`: every context (one of each), the settings that count prompts past a window (windowSettingsOf), the max_tokens sent. */
export function gridFactsReading(configs: readonly Pick<PopulationConfig, 'brakes' | 'strategy' | 'model'>[], prices: PriceTable): GridFactsReading {
  return { contexts: distinctContexts(configs.map((c) => c.strategy)), windows: { settings: windowSettingsOf(configs), prices }, sentCaps: sentCaps(configs.map((c) => c.brakes)) };
}

/** Facts of some runs (a sweep unit's) and where they come among the inputs (the unit's `order`: sweepUnits.ts). */
export interface RunHeaderFactsPart {
  order: number;
  facts: RunHeaderFacts;
}

/**
 * Counts the facts run by run, or adds up facts counted apart, in the order the runs come among the inputs.
 * `contexts`: the configurations' contexts (every configuration's, a shard's too), which runs added one by one
 * are read under (ConfiguredContextTally); none needed to add up facts counted apart.
 */
export class RunHeaderFactsTally {
  private readonly notes = new ImportNotesTally();
  private readonly stated = new StatedStrategyTally();
  private readonly configured: ConfiguredContextTally;
  private readonly idle = new CacheIdleTally();
  private readonly sessions = new SessionParts();
  private readonly pastWindow = new PastWindowTally();
  private readonly overCap = new OutputOverCapTally();
  private readonly lastPricing = new Map<string | undefined, { key: string; pricing: ModelPricing }>();

  private readonly windows: GridFactsReading['windows'] | undefined;
  private readonly sentCaps: readonly number[];

  /** `grid`: the settings and table the runs' prompts are counted against and the max_tokens their outputs are (GridFactsReading); none: not counted. */
  constructor(contexts: Iterable<ContextStrategy> = [], grid?: Pick<GridFactsReading, 'windows' | 'sentCaps'>) {
    this.configured = new ConfiguredContextTally(contexts);
    this.windows = grid?.windows;
    this.sentCaps = grid?.sentCaps ?? [];
  }

  /** A tally of runs read under a grid's configurations (gridFactsReading). */
  static ofGrid(read: GridFactsReading): RunHeaderFactsTally {
    return new RunHeaderFactsTally(read.contexts, read);
  }

  /** One run, read after those counted so far. */
  add(trace: Trace): this {
    this.notes.add(trace.source, importNotesOf(trace));
    this.stated.add(trace);
    this.configured.add(trace);
    // A sweep's run has its calls let go once compiled (sweepStream.ts letCallsGo): read off the compiled trace then.
    const compiled = handedOverCompiled(trace);
    // No setting's replay at hand: counted over the whole recording.
    this.idle.add(compiled === undefined ? idleCallsOf(trace) : idleCallsOfCompiled(compiled), true);
    this.sessions.add(trace.header.agent?.sessionId);
    if (this.windows !== undefined) this.addWindows(trace, this.windows);
    // No setting's replay at hand: counted over the whole recording, as whatif counts its tries'.
    this.overCap.add(runOverCaps(trace, this.sentCaps), true);
    return this;
  }

  /** The run's windows under the configurations, each priced as the configuration prices it (its model, else the run's own), counted over the whole recording. */
  private addWindows(trace: Trace, { settings, prices }: NonNullable<RunHeaderFactsTally['windows']>): void {
    const pricingOf = (model: string | undefined) => {
      // A pricing is the table's for the model (the run's provider's, when its own) on the run's day: the last one kept per model asked, as runs of a file mostly share it.
      const key = `${model ?? `${trace.header.provider ?? ''}\u0000${trace.header.model}`}\u0000${trace.header.recordedAt ?? ''}`;
      const last = this.lastPricing.get(model);
      if (last?.key === key) return last.pricing;
      const pricing = pricingFor(trace, { prices, ...(model === undefined ? {} : { model }) });
      this.lastPricing.set(model, { key, pricing });
      return pricing;
    };
    this.pastWindow.addRun(runWindowsOf(trace, { settings, pricingOf }), true);
  }

  /** Facts of runs that come after those counted so far (their first note counts only when none came before). */
  addFacts(facts: RunHeaderFacts | undefined): this {
    if (facts?.importNotes !== undefined) this.notes.addSeen(facts.importNotes);
    this.stated.addCounted(facts?.statedStrategies);
    this.configured.addCounted(facts);
    this.idle.addCounted(facts?.cacheIdle);
    this.sessions.addCounted(facts?.sessionRuns);
    this.pastWindow.addCounted(facts?.pastWindow);
    this.overCap.addCounted(facts?.outputOverCap);
    return this;
  }

  /** What it counted (copies). */
  facts(): RunHeaderFacts {
    const notes = this.notes.counted();
    const stated = this.stated.counted();
    const counted = this.idle.counted();
    const idle = counted === undefined ? {} : { cacheIdle: counted };
    const sessionRuns = this.sessions.counted();
    const pastWindow = this.pastWindow.counted();
    const overCap = this.overCap.counted();
    return {
      ...(notes.runs === 0 ? {} : { importNotes: notes }),
      ...(stated === undefined ? {} : { statedStrategies: stated }),
      ...this.configured.counted(),
      ...idle,
      ...(sessionRuns === undefined ? {} : { sessionRuns }),
      ...(pastWindow === undefined ? {} : { pastWindow }),
      ...(overCap === undefined ? {} : { outputOverCap: overCap }),
    };
  }
}

/** The facts of `traces`, in their order, read under the configurations' `contexts` (RunHeaderFactsTally), or a grid's configurations (gridFactsReading: their windows too). */
export function runHeaderFactsOf(traces: Iterable<Trace>, read: Iterable<ContextStrategy> | GridFactsReading = []): RunHeaderFacts {
  const tally = 'contexts' in read ? RunHeaderFactsTally.ofGrid(read) : new RunHeaderFactsTally(read);
  for (const trace of traces) tally.add(trace);
  return tally.facts();
}

/**
 * With `--tree` (each session tree one run of the report): the facts of the trees' runs (`traces`, in their order),
 * but the runs replayed as they ran under their own strategy counted by tree: those all of whose runs are.
 */
export function treeHeaderFactsOf(traces: readonly Trace[], trees: readonly SessionTree[], read: GridFactsReading): RunHeaderFacts {
  const distinct = read.contexts;
  const facts = runHeaderFactsOf(traces, read);
  delete facts.ownStrategyRuns; // counted by tree below, not by run
  const ownTrees = trees.filter((tree) => {
    const runs = tree.agents.flatMap((agent) => agent.runs);
    return ConfiguredContextTally.of(runs, distinct).ownStrategyRuns === runs.length;
  }).length;
  return { ...facts, ...(ownTrees === 0 ? {} : { ownStrategyRuns: ownTrees }) };
}

/** Whether `facts` say anything (a part saying nothing need not be sent; a run rebuilt or replayed under its own strategy states it: statedStrategies). */
export function saysAnything(facts: RunHeaderFacts): boolean {
  return facts.importNotes !== undefined || facts.statedStrategies !== undefined || facts.cacheIdle !== undefined || facts.sessionRuns !== undefined || facts.pastWindow !== undefined || facts.outputOverCap !== undefined;
}

/** The one merge: parts counted apart (units, on whichever thread) joined in the inputs' order, as one tally of them all in that order counts them. */
export function joinRunHeaderFacts(parts: Iterable<RunHeaderFactsPart>): RunHeaderFacts {
  const tally = new RunHeaderFactsTally();
  for (const part of [...parts].sort((a, b) => a.order - b.order)) tally.addFacts(part.facts);
  return tally.facts();
}
