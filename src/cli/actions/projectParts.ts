/**
 * `project`'s runs part by part, under the one rule of sweep, replay and calibrate (population/scenarioBase.ts):
 * each scenario file's synthetic runs take the file's own brakes, context and cache with the flags given on
 * top; recorded runs beside them take the flags alone (before, they took the first file's: a production mix's
 * timeout stopped 32 of 38 recorded runs and halved the projection). Here: each part's runs made (where their
 * prompts pass a threshold read in the same pass), the worst case over the parts, how each part's runs ended,
 * and the cache and window warnings of each part under what it took.
 */
import { canonicalJson } from '../../brakes/fingerprint.js';
import { PopulationWindows } from '../../population/modelWindow.js';
import { PromptCrossings } from '../../population/project.js';
import { latestPricesOf } from '../../population/projectPrices.js';
import type { CostStratum } from '../../population/projectConfidence.js';
import { fitRunsOf } from '../../scenario/fitWarnings.js';
import { heldOutStatement } from '../../scenario/fit.js';
import { configurationRuns, scenarioConfig, type PopulationConfig, type PopulationInputs } from '../../population/run.js';
import { summaryCallsOf, uncountedCallsOf, worstCaseRun, type WorstCase } from '../../population/worstCase.js';
import type { RunPair } from '../../metrics/population.js';
import { meanPico, picoToUsd } from '../../money.js';
import type { ModelPricing } from '../../pricing/types.js';
import type { LatencyModel } from '../../loop/latency.js';
import type { RunResult } from '../../replay/replay.js';
import type { ProjectPart } from '../../report/projectParts.js';
import type { FittedProfile, GeneratedRuns, HandWrittenInputs, HandWrittenScenario } from '../../report/projectConfidenceText.js';
import type { Trace } from '../../trace/types.js';
import { traceRunKinds } from '../../population/generatedRuns.js';
import type { SummaryRuns } from '../../report/warningLists.js';
import { everyStopReason } from '../../report/stopReasonCounts.js';
import { reportSettings, type ReportSettings } from '../../report/settings.js';
import { scenarioLatency } from '../../report/runsTook.js';
import type { ReportWarning } from '../../report/warnings.js';
import { cacheOnRuns, pricedRunsWarnings } from './scenarioWarnings.js';
import { stoppedRunOf, type MadeRun } from './projectStops.js';
import type { PreparedSweep } from './sweepWork.js';
import { perPartConfig } from './projectTree.js';

/** A part of the population and what its runs take: the recorded runs, a scenario file's runs, or (--tree) the session trees. */
export interface RunsPart {
  kind: ProjectPart['kind'];
  /** The scenario file (synthetic runs). */
  source?: string;
  runs: number;
  config: PopulationConfig;
  inputs: PopulationInputs;
  /** A scenario file's runs: the latency they took (the file's, or --latency-model). */
  latency?: LatencyModel;
  /** Every pricing its runs came with (filled as they are made). */
  pricings: Set<ModelPricing>;
}

/** The one configuration of a projection: the flags' (recorded runs take it), each scenario file's own in `perScenario` (sweepWork.ts, as a sweep's). */
export function projectConfig(prepared: Pick<PreparedSweep, 'configurations'>): PopulationConfig {
  return prepared.configurations[0]!.config;
}

/** The parts of the population, in the order its runs come (recorded runs first, then each file's). */
function partsOf(prepared: PreparedSweep, config: PopulationConfig): RunsPart[] {
  if (prepared.trees !== undefined) return [{ kind: 'trees', runs: prepared.trees.trees.length, config, inputs: { traces: prepared.traces }, pricings: new Set() }];
  const { recorded, synthetic } = prepared.population;
  const traces = recorded.traces ?? [];
  const parts: RunsPart[] = traces.length === 0 ? [] : [{ kind: 'recorded', runs: traces.length, config, inputs: recorded, pricings: new Set() }];
  (synthetic.scenarios ?? []).forEach((population, s) => {
    const latency = prepared.scenarios[s]?.settings.latency;
    parts.push({ kind: 'synthetic', source: population.scenario.source, runs: population.runs, config: scenarioConfig(config, s), inputs: { scenarios: [population] }, pricings: new Set(), ...(latency === undefined ? {} : { latency }) });
  });
  return parts;
}

/**
 * What the pass over the runs saw of each: the pricing it took, in the order the runs are made (recorded runs
 * first, then each file's; --tree: each run of the trees), and how each run made under the part's brakes
 * stopped against its recording (replay's open-loop rule reads these: runNotes.ts brakeOpenLoopWarnings;
 * none with --tree, whose runs are read under the per-call brakes alone).
 */
export interface ObservedRuns {
  pricings: ModelPricing[];
  stopped: MadeRun[];
}

/**
 * Every run under its part's settings, paired with its baseline (recorded runs first, as sweepPairs gives
 * them), the parts, where the runs' prompts passed a price tier or the context window less the max_tokens
 * sent (the flags': a scenario file sets none), and what was seen of each run: one pass, each run's steps
 * read as it is made.
 */
export function projectedRuns(prepared: PreparedSweep, config: PopulationConfig): { pairs: RunPair[]; crossings: PromptCrossings; parts: RunsPart[]; observed: ObservedRuns } {
  const crossings = new PromptCrossings({ maxOutputTokens: config.brakes.maxOutputTokens });
  const parts = partsOf(prepared, config);
  const observed: ObservedRuns = { pricings: [], stopped: [] };
  let made = 0;
  let part = 0;
  const observe = (result: RunResult, pricing: ModelPricing) => {
    // Runs come in the parts' order: the part of the run made is the first not yet full (trees: one part).
    while (part < parts.length - 1 && made >= parts[part]!.runs) (made = 0), (part += 1);
    const into = parts[part]!;
    into.pricings.add(pricing);
    crossings.add(pricing, result.rows);
    observed.pricings.push(pricing);
    if (prepared.trees === undefined) observed.stopped.push(stoppedRunOf(result));
    made += 1;
  };
  if (prepared.trees !== undefined) {
    // --tree: each tree one run (sweep --tree's TreePopulation); its runs' prompts read each on its own (projectTree.ts).
    configurationRuns({ traces: prepared.traces }, perPartConfig(config), prepared.prices, observe);
    return { pairs: prepared.trees.pairs(config), crossings, parts, observed };
  }
  const { recorded, synthetic } = prepared.population;
  const pairs = [...configurationRuns(recorded, config, prepared.prices, observe), ...configurationRuns(synthetic, config, prepared.prices, observe)];
  return { pairs, crossings, parts, observed };
}

/** Parts whose runs take the same brakes and context share one worst case. */
function settingsKey(config: PopulationConfig): string {
  return canonicalJson({ brakes: config.brakes, strategy: config.strategy });
}

/** Who a group of parts is, as the worst case's rule names it. */
function groupWords(group: readonly RunsPart[]): string {
  return group.map((p) => (p.kind === 'synthetic' ? `${p.source}'s runs (its own brakes, the flags on top)` : 'the recorded runs (the flags\' brakes alone)')).join(' and ');
}

/**
 * The most one run can cost: parts under the same brakes and context as one (as before parts differed), else
 * the dearest part's worst case (unbounded when any part's is), its rule naming the part.
 */
export function worstCaseOverParts(parts: readonly RunsPart[], prepared: Pick<PreparedSweep, 'prices'>): WorstCase {
  const groups = new Map<string, RunsPart[]>();
  for (const part of parts) groups.set(settingsKey(part.config), [...(groups.get(settingsKey(part.config)) ?? []), part]);
  const worst = [...groups.values()].map((group) => {
    const { brakes, strategy } = group[0]!.config;
    const inputs = { traces: group.flatMap((p) => p.inputs.traces ?? []), scenarios: group.flatMap((p) => p.inputs.scenarios ?? []) };
    const pricings = [...new Set(group.flatMap((p) => [...p.pricings]))];
    return { group, worst: worstCaseRun(brakes, pricings, { uncounted: uncountedCallsOf(inputs), ...summaryCallsOf(strategy, prepared.prices) }) };
  });
  if (worst.length === 1) return worst[0]!.worst;
  const dearest = worst.find((w) => w.worst.perRunUsd === null) ?? worst.reduce((a, b) => (b.worst.perRunUsd! > a.worst.perRunUsd! ? b : a));
  const why = dearest.worst.perRunUsd === null ? '' : ', the dearest of the parts\' worst cases';
  return { perRunUsd: dearest.worst.perRunUsd, rule: `${groupWords(dearest.group)}${why}: ${dearest.worst.rule}` };
}

/**
 * The worst case over the parts were every run priced at the table's latest (projectPrices.ts latestPricesOf:
 * what `--prices-as-of <release day>` prices at), for the past-prices warning: a recording day's tier the latest
 * drop prices the largest call otherwise (a Claude Code session's: $22.0717 a run, at the latest $12.0614). A
 * pricing the latest cannot resolve is kept (the warning then finds no gap for it).
 */
export function worstCaseAtLatest(parts: readonly RunsPart[], prepared: Pick<PreparedSweep, 'prices'>, worst: WorstCase): WorstCase {
  // Every pricing read at the latest already (undated, or as of the release day): the same worst case, not priced again.
  const releasedOn = prepared.prices.source.releasedOn;
  if (parts.every((part) => [...part.pricings].every((p) => p.source.asOf === undefined || p.source.asOf === releasedOn))) return worst;
  const latest = latestPricesOf(prepared.prices);
  const atLatest = (pricing: ModelPricing): ModelPricing => {
    try {
      return latest.resolve(pricing.model, pricing.provider);
    } catch {
      return pricing;
    }
  };
  return worstCaseOverParts(parts.map((part) => ({ ...part, pricings: new Set([...part.pricings].map(atLatest)) })), { prices: latest });
}

/** How each part's runs ended under its settings (`pairs` in the parts' order), what they cost on average, and a file's settings. */
export function partRecords(parts: readonly RunsPart[], pairs: readonly RunPair[]): ProjectPart[] {
  let from = 0;
  return parts.map((part) => {
    const runs = pairs.slice(from, (from += part.runs));
    const counts: Record<string, number> = {};
    let totalPico = 0n;
    for (const { run } of runs) (counts[run.stopReason] = (counts[run.stopReason] ?? 0) + 1), (totalPico += BigInt(run.costPico));
    const settings = part.kind !== 'synthetic' ? {} : { settings: fileSettings(part) };
    const generated = part.kind === 'recorded' ? traceRunKinds(part.inputs.traces ?? []).generatedRuns : 0;
    return { kind: part.kind, ...(part.source === undefined ? {} : { source: part.source }), runs: runs.length, ...(generated === 0 ? {} : { generated }), completed: counts.completed ?? 0, stopReasons: everyStopReason(counts), meanCostPerRunUsd: runs.length === 0 ? 0 : picoToUsd(meanPico(totalPico, runs.length)), ...settings };
  });
}

/** What a scenario file's runs took (the file's settings, the flags on top), as replay says them (report/scenarios.ts): synthetic runs without a cache run uncached. */
function fileSettings(part: RunsPart): Omit<ReportSettings, 'model'> {
  const { model: _model, ...settings } = reportSettings(part.config);
  return { ...settings, cache: part.config.strategy.cache ?? 'off', latency: scenarioLatency(part) };
}

/** The cache warning (scenarioWarnings.ts) of each part's runs under the cache it took. */
export function partCacheWarnings(parts: readonly RunsPart[], prepared: Pick<PreparedSweep, 'prices' | 'traces'>): ReportWarning[] {
  return pricedRunsWarnings(
    parts.flatMap((part) => {
      const scenarios = (part.inputs.scenarios ?? []).map((p) => p.scenario);
      return cacheOnRuns([part.config], { prices: prepared.prices, scenarios, ...(part.kind === 'synthetic' ? {} : { traces: prepared.traces }) });
    }),
  );
}

/** The window warnings (modelWindow.ts) of each part's runs under the brakes it took, said once. */
export function partWindowWarnings(parts: readonly RunsPart[], prepared: Pick<PreparedSweep, 'prices' | 'traces'>): ReportWarning[] {
  const [first, ...rest] = parts;
  if (first === undefined) return [];
  const windows = PopulationWindows.of([first.config], prepared.prices).addInputs(first.kind === 'trees' ? { traces: prepared.traces } : first.inputs);
  for (const part of rest) windows.add(PopulationWindows.of([part.config], prepared.prices).addInputs(part.inputs).models());
  return windows.warnings();
}

/**
 * The runs by part for the intervals and each period's resample (projectConfidence.ts): a fitted profile's runs
 * stand for the recorded runs it was fitted to (fitWarnings.ts fitRunsOf), every other part for its own runs;
 * the fitted profiles; and what rests on a scenario's assumptions alone: the scenario files fit did not write
 * (hand-written: no fitted-runs line) and the traces `loopcost generate` wrote (header.synthetic).
 */
export function fittedStrata(parts: readonly RunsPart[], pairs: readonly RunPair[]): { strata?: CostStratum[]; fitted: FittedProfile[]; handWritten: HandWrittenInputs } {
  let from = 0;
  const fitted: FittedProfile[] = [];
  const scenarios: HandWrittenScenario[] = [];
  const handWritten = { scenarios, generated: generatedRuns(parts.flatMap((part) => part.inputs.traces ?? [])) };
  const strata = parts.map((part): CostStratum => {
    const costsPico = pairs.slice(from, (from += part.runs)).map((pair) => pair.run.costPico);
    const scenario = part.inputs.scenarios?.[0]?.scenario;
    const fittedOnRuns = part.kind === 'synthetic' && scenario !== undefined ? fitRunsOf(scenario) : undefined;
    if (part.kind === 'synthetic' && fittedOnRuns === undefined) scenarios.push({ source: part.source!, syntheticRuns: costsPico.length });
    if (fittedOnRuns === undefined) return { costsPico, sampleRuns: costsPico.length };
    fitted.push({ source: part.source!, fittedOnRuns, syntheticRuns: costsPico.length, caveat: heldOutStatement(fittedOnRuns) });
    return { costsPico, sampleRuns: fittedOnRuns };
  });
  return fitted.length === 0 ? { fitted, handWritten } : { strata, fitted, handWritten };
}

/** The traces `loopcost generate` wrote (their header.synthetic), counted by the scenario file each header names. */
function generatedRuns(traces: readonly Trace[]): GeneratedRuns[] {
  const runs = new Map<string | null, number>();
  for (const trace of traces) {
    const synthetic = trace.header.synthetic;
    if (synthetic !== undefined) runs.set(synthetic.scenario ?? null, (runs.get(synthetic.scenario ?? null) ?? 0) + 1);
  }
  return [...runs].map(([scenario, count]) => ({ scenario, runs: count }));
}

/**
 * Each part's runs under the context strategy they took (`pairs` in the parts' order), for the summary
 * warnings (warningLists.ts projectSummaryWarnings). --tree: none (a tree's figures keep no summary calls).
 */
export function partSummaryRuns(parts: readonly RunsPart[], pairs: readonly RunPair[]): SummaryRuns[] {
  if (parts.some((part) => part.kind === 'trees')) return [];
  let from = 0;
  return parts.map((part) => ({ strategy: part.config.strategy, runs: pairs.slice(from, (from += part.runs)).map((pair) => pair.run) }));
}
