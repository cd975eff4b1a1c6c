/**
 * What project, sweep and calibrate warn of, in the order they say it, written once for the command
 * (cli/actions/project.ts, cli/actions/sweepWarnings.ts gridWarnings, cli/actions/calibrate.ts) and the
 * library (library/warnings.ts): each computes the pieces that depend on how it holds its runs (the cache
 * and window warnings of its parts, the scenario files', trees') and passes them here. The library is given
 * runs, not paths: it has no scenario file, tree or swept context, so it leaves those pieces out.
 */
import { isIdentity, type ContextStrategy } from '../context/strategy.js';
import type { PromptCrossing } from '../population/project.js';
import { holdsBrake, type PopulationConfig } from '../population/run.js';
import type { ModelPricing, PriceTable } from '../pricing/types.js';
import { priceGapWarningsOf } from '../replay/priceGaps.js';
import { repricedCacheWritesWarnings } from './repricedCacheWrites.js';
import { ProviderFallbackTally } from './providerFallbackWarning.js';
import type { Trace } from '../trace/types.js';
import { cacheIdleWarnings, type IdleCounts } from './cacheIdleWarning.js';
import { importNotesWarnings, type ImportNotesSeen } from './importNotesWarning.js';
import { oneRunWarnings } from './projectConfidenceText.js';
import { ConfiguredContextTally, rebuiltStrategyWarnings, recordedStrategyWarnings, statedStrategiesOf, type StatedStrategies } from './recordedStrategyWarning.js';
import { contextText, hasBrakes } from './settings.js';
import { bySummaryStrategy, SummaryCallTally, summaryCallWarnings, type SummaryRun } from './summaryCallWarning.js';
import { pastWindowWarnings } from './pastWindowWarnings.js';
import { openLoopWarnings, SessionParts, sessionPartsWarnings, skipOpenLoopWarnings, unrecordedAgentsWarnings, type PartsSaid, type ReportWarning, type UnrecordedInTree } from './warnings.js';
import type { SessionRuns } from './sessionParts.js';
import { pastWindowCountWarnings, sendsRecordedPrompts, type PastWindowCounts } from './pastWindowRuns.js';
import { outputOverCapWarnings, type OutputOverCapCounts } from './outputOverCap.js';

/** A configuration as the lists read it: its brakes and context. */
type ConfigSaid = Pick<PopulationConfig, 'brakes' | 'strategy' | 'model'>;

/** Inputs with no ground truth (calibrate says it when it reads them, the library first): precision and recall need synthetic runs. */
export function noGroundTruthWarning(): ReportWarning {
  return {
    code: 'no_ground_truth',
    message: 'no scenario file or generated trace among the inputs: precision and recall need synthetic runs (ground truth); only false stops on recorded runs are reported',
  };
}

/**
 * Recordings that state their strategy replay under it in the configurations of full context (recordedStrategyWarning.ts): where some do not, said so;
 * under the other configurations' contexts their full history is rebuilt (`rebuilt`: the runs some configuration rebuilds, counted where the runs were read: ConfiguredContextTally).
 */
function statedStrategyWarnings(configs: readonly ConfigSaid[], stated: StatedStrategies | undefined, rebuilt: StatedStrategies | undefined): ReportWarning[] {
  const full = configs.filter((c) => isIdentity(c.strategy)).length;
  return [...(full === 0 ? [] : recordedStrategyWarnings(stated, full === configs.length ? 'settings' : 'some configurations')), ...rebuiltStrategyWarnings(rebuilt)];
}

/** The recorded runs a context other than full changes the cost of (open_loop): all but those replayed as they ran under their own strategy (ConfiguredContextTally), as replay counts them (RunNotes). */
function openLoopRuns(recordedRuns: number, ownStrategyRuns: number | undefined): number {
  return recordedRuns - (ownStrategyRuns ?? 0);
}

/** What the recorded runs' own headers tell (cli/actions/sweepHeaderFacts.ts RunHeaderFacts): each absent where no run has it. */
export interface HeaderFactsSaid {
  importNotes?: ImportNotesSeen;
  statedStrategies?: StatedStrategies;
  /** Of those, the runs some configuration rebuilds to full history, by spec. */
  rebuiltStrategies?: StatedStrategies;
  /** Of those, the runs every configuration replays as they ran, some under their own strategy (with --tree: the trees all of whose runs are). */
  ownStrategyRuns?: number;
  cacheIdle?: IdleCounts;
  sessionRuns?: SessionRuns;
  /** The runs counted against each window less max_tokens, and those whose recorded prompts pass it (report/pastWindowRuns.ts). */
  pastWindow?: PastWindowCounts;
  /** The recorded calls whose outputs pass each max_tokens the configurations send (report/outputOverCap.ts). */
  outputOverCap?: OutputOverCapCounts;
}

/** What a sweep's and a calibration's figures do with runs that are parts of session trees, and the way to see each session as one run. */
const GRID_PARTS: Record<'sweep' | 'calibrate', Omit<PartsSaid, 'braked'>> = {
  sweep: {
    figures: "each configuration's runs, completions, cost per completed run and false stops",
    remedy: "sweep --tree replays each session as one run, one loop under each configuration's brakes (a budget binding the whole tree)",
  },
  calibrate: {
    figures: 'the false stops on recorded runs',
    remedy: "calibrate has no --tree: sweep --tree replays each session as one run, one loop under each configuration's brakes (a budget binding the whole tree), its false stops counted by session",
  },
};

/** The pieces of a sweep's or a calibration's warnings that depend on how the caller holds its runs. */
export interface GridWarningPieces {
  /** Whose warnings (the words of the session-parts warning). */
  command: 'sweep' | 'calibrate';
  configs: readonly ConfigSaid[];
  /** The recorded runs (not a scenario file's). */
  recordedRuns: number;
  /** Price gaps (and a model grid's no-check), as the caller checked them. */
  priceGaps: readonly ReportWarning[];
  /** The context the recorded runs replay under open loop, in words (`as swept`, contextText); absent: full history. */
  openLoop?: string;
  cache: readonly ReportWarning[];
  windows: readonly ReportWarning[];
  /** What the scenario files among the inputs warn of (unread traces, fitted profiles, triggers, a fitted profile's context). */
  scenarioFiles?: readonly ReportWarning[];
  /** Scenario files' runs are among the runs (the header facts count the recorded runs only). */
  scenarioRuns?: boolean;
  /** `--tree`: the trees' started agents with no recording (and no session-parts warning: each tree is one run); absent: no --tree. */
  unrecorded?: readonly UnrecordedInTree[];
  facts: HeaderFactsSaid;
}

/** A sweep's or a calibration's warnings (after what reading the inputs said), in their order. */
export function gridWarningList(p: GridWarningPieces): ReportWarning[] {
  return [
    ...p.priceGaps,
    ...(p.openLoop === undefined ? [] : openLoopWarnings(openLoopRuns(p.recordedRuns, p.facts.ownStrategyRuns), p.openLoop)),
    // A configuration that skips repeated actions: the recorded runs' calls after a skip are replayed as recorded, as replay says it.
    ...(p.configs.some((c) => c.brakes.repeatAction === 'skip') ? skipOpenLoopWarnings(p.recordedRuns) : []),
    // Recorded outputs past a max_tokens the configurations send (counted where the runs were read: sweepHeaderFacts.ts), as replay and whatif say them.
    ...outputOverCapWarnings(p.facts.outputOverCap),
    ...p.cache,
    // Recorded prompts past a window less max_tokens, with no --context-window model (counted where the runs were read: sweepHeaderFacts.ts), as project says them.
    ...pastWindowCountWarnings(p.facts.pastWindow, { configurations: { counted: p.configs.filter(sendsRecordedPrompts).length, of: p.configs.length }, recordedOnly: p.scenarioRuns === true }),
    ...p.windows,
    ...(p.scenarioFiles ?? []),
    // Without --tree: runs that are parts of session trees, each brake (anything but a per-request cap: holdsBrake) binding each part.
    ...(p.unrecorded === undefined ? sessionPartsWarnings(new SessionParts().addCounted(p.facts.sessionRuns).parts(), { ...GRID_PARTS[p.command], braked: p.configs.some((c) => holdsBrake(c.brakes)) }) : unrecordedAgentsWarnings(p.unrecorded)),
    ...importNotesWarnings(p.facts.importNotes ?? { runs: 0, notes: 0 }),
    ...statedStrategyWarnings(p.configs, p.facts.statedStrategies, p.facts.rebuiltStrategies),
    // Recorded runs' calls past the cache's lifetime, where a configuration models the cache (cacheIdleWarning.ts), as replay says them (counted over the whole recordings: sweepHeaderFacts.ts).
    ...(p.configs.some((c) => c.strategy.cache === 'on') ? cacheIdleWarnings(p.facts.cacheIdle ?? { calls: 0, runs: 0 }) : []),
  ];
}

/** What a projection of session parts can do instead. */
const PROJECT_TREE = 'project --tree projects each session as one task, replayed as one loop under the brakes (its budget binding the whole tree), as replay --tree and sweep --tree replay it';

/** The pieces of a projection's warnings that depend on how the caller holds its runs. */
export interface ProjectWarningPieces {
  config: ConfigSaid;
  /** The recorded runs. */
  traces: readonly Trace[];
  /** Each of `traces`' pricing as the projection priced its run (in their order): what the re-priced runs' warning reads, no trace priced again. */
  pricings: readonly ModelPricing[];
  /** The runs projected from (recorded and generated). */
  runs: number;
  prices: PriceTable;
  /** The paths read (the price-gap warning names the files); the library's: none. */
  inputs: readonly string[];
  /** Prompts past a model's window less max_tokens (population/project.ts PromptCrossings). */
  crossings: readonly PromptCrossing[];
  cache: readonly ReportWarning[];
  windows: readonly ReportWarning[];
  scenarioFiles?: readonly ReportWarning[];
  /** `--tree`: the trees' started agents with no recording (and no session-parts warning: each tree is one task). */
  unrecorded?: readonly UnrecordedInTree[];
  /** The recorded runs' importers' notes. */
  importNotes: readonly ReportWarning[];
  /** Every run projected, by the context strategy it took (a scenario file's own, else the flags'): what its summaries did. */
  summaries: readonly SummaryRuns[];
}

/** Runs replayed (or run) under one context strategy, with their steps and summary calls. */
export interface SummaryRuns {
  strategy: ContextStrategy;
  runs: readonly SummaryRun[];
}

/**
 * What each summary strategy's summaries did over the runs that took it (summaryCallWarning.ts, the rule replay
 * and sweep say it by): `summary_none` where no run made a summary call, `summary_most_steps` where runs made
 * one before most steps. Runs of the same strategy (the flags' and a file's) are counted together, as sweep groups them.
 */
export function projectSummaryWarnings(summaries: readonly SummaryRuns[]): ReportWarning[] {
  return bySummaryStrategy(summaries).flatMap(({ strategy, items }) => summaryCallWarnings(strategy, SummaryCallTally.of(items.flatMap((s) => s.runs)), { what: 'run' }));
}

/** A projection's warnings (after what reading the inputs said), in their order. */
export function projectWarningList(p: ProjectWarningPieces): ReportWarning[] {
  const { config } = p;
  const model = config.model === undefined ? {} : { model: config.model };
  const parts = { braked: hasBrakes(config.brakes), figures: 'the runs each simulated day draws (and so its spend and the worst case per run)', remedy: PROJECT_TREE };
  const configured = ConfiguredContextTally.of(p.traces, [config.strategy]);
  return [
    ...oneRunWarnings(p.runs),
    ...priceGapWarningsOf(p.traces, { prices: p.prices, ...model, inputs: p.inputs }),
    ...ProviderFallbackTally.of(p.pricings).warnings(),
    ...(isIdentity(config.strategy) ? [] : openLoopWarnings(openLoopRuns(p.traces.length, configured.ownStrategyRuns), contextText(config.strategy))),
    ...p.cache,
    // Runs re-priced (--model) as a model that bills cache writes, with the cache as recorded (repricedCacheWrites.ts), as replay says them: each at the pricing its run took.
    ...repricedCacheWritesWarnings(p.traces, { model: config.model, cache: config.strategy.cache, pricings: p.pricings }),
    // An explicit --context-window n past the window less max_tokens lets through prompts a provider refuses: warned as with none.
    ...pastWindowWarnings(p.crossings, config.brakes.contextWindow === 'model'),
    ...p.windows,
    ...(p.scenarioFiles ?? []),
    ...(p.unrecorded === undefined ? sessionPartsWarnings(SessionParts.of(p.traces).parts(), parts) : unrecordedAgentsWarnings(p.unrecorded)),
    ...p.importNotes,
    ...statedStrategyWarnings([config], statedStrategiesOf(p.traces), configured.rebuiltStrategies),
    ...projectSummaryWarnings(p.summaries),
  ];
}
