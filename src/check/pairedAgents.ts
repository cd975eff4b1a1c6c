/**
 * Common random numbers for a check against its baseline. A baseline stores what re-runs its scenario's
 * synthetic agents (`agents`: the scenario file's fields that make them, as parsed, and the settings the check
 * ran them under, each as its flag takes it). When the runs now are another sample than the baseline's (another
 * seed, run count, entries in another order or changed: noise.ts sampleKey), check runs the baseline's agents
 * again on these runs' draws (this seed and run count), and judges each figure against them by the tolerance
 * alone: the two differ by the change alone, not by which runs were drawn. The re-run is trusted only where it
 * gives the baseline's own figures at its own seed and run count (this loopcost draws its agents as the one that
 * wrote it did) and the agents are as written (their `hash`: that re-run vouches only for the entries the baseline's
 * draws picked, and an entry it never drew, edited, would pass it); else, and for a baseline without `agents` (written before), the
 * figures are judged against the noise band as before, and the report says why. Recorded runs beside the synthetic ones
 * replay exactly: the baseline's are its recordings replayed again under its settings (pairedRecordings.ts).
 */
import { z } from 'zod';
import { NO_BRAKES, type BrakeConfig } from '../brakes/config.js';
import { contextSpecOf, type ContextStrategy } from '../context/strategy.js';
import { UserError } from '../errors.js';
import { brakesFromSpec, latencyFromSpec, strategyFromFlags } from '../flags/settingsFlags.js';
import { populationMetrics, type PopulationMetrics } from '../metrics/population.js';
import { configurationRuns } from '../population/run.js';
import type { PriceTable } from '../pricing/types.js';
import { brakeSpec } from '../report/settings.js';
import { latencySpec } from '../report/runsTook.js';
import { parseAnyScenario, type Scenario } from '../scenario/load.js';
import { SCENARIO_SCHEMA } from '../scenario/schema.js';
import type { PopulationEntry } from '../scenario/schema.js';
import type { ScenarioSettings } from '../scenario/settings.js';
import { figuresOf, type BaselineFigures } from './baselineFigures.js';
import type { BaselineScenario } from './baselineFile.js';
import type { ScenarioCheck } from './run.js';
import { canonicalJson } from '../brakes/fingerprint.js';
import { entryContent, textKey } from './noise.js';
import { recordedCacheOf, recordedRunsUnder, RECORDED_CACHE, type CheckRecordings } from './pairedRecordings.js';
import type { PopulationRun } from '../population/run.js';

/**
 * What re-runs a scenario's synthetic agents: open records, read by the scenario schema and flag parsers of the
 * loopcost reading them; `hash` (agentsHash), of the two as written: the agents as the check that wrote them ran
 * them, not edited since (absent in baselines written before it).
 */
export const agentsSchema = z.strictObject({ scenario: z.record(z.string(), z.unknown()), settings: z.record(z.string(), z.string()), hash: z.string().optional() });
export type StoredAgents = z.infer<typeof agentsSchema>;

/**
 * A short key of what the agents are (their scenario fields and settings, as JSON reads them back): the gate
 * re-runs them only on the baseline's own draws, so an entry those draws never picked is vouched for by this alone.
 */
export function agentsHash(agents: Pick<StoredAgents, 'scenario' | 'settings'>): string {
  return textKey(canonicalJson(JSON.parse(JSON.stringify({ scenario: agents.scenario, settings: agents.settings }))));
}

/** A scenario file's fields that make no agent (or are stored as settings, or drawn by the check: runs, seed). */
const NOT_AGENTS = new Set(['scenario', 'name', 'description', 'expect', 'traces', 'runs', 'seed', 'runsPerDay', 'brakes', 'context', 'latency', 'source']);
/** The settings an `agents` block may hold, as their flags take them (ContextFlags' names for the context). */
const SETTINGS = new Set(['brakes', 'context', 'toolResultCap', 'cache', 'latency', 'model', RECORDED_CACHE]);

/**
 * The `agents` block of a scenario with a synthetic population under `settings` (`model`: `--model`); undefined without one.
 * `recorded`: the strategy its recordings replayed under, when it has any (stored as `recordedCache`: pairedRecordings.ts).
 */
export function agentsOf(scenario: { population?: unknown } & object, settings: ScenarioSettings, model?: string, recorded?: ContextStrategy): StoredAgents | undefined {
  if (scenario.population === undefined) return undefined;
  const made = Object.fromEntries(Object.entries(scenario).filter(([key, value]) => !NOT_AGENTS.has(key) && value !== undefined && typeof value !== 'function'));
  const s = settings.strategy;
  const stored: Record<string, string> = { brakes: brakeSpec(settings.brakes), context: contextSpecOf(s) };
  if (s.toolResultCap !== undefined) stored.toolResultCap = `${s.toolResultCap}`;
  stored.cache = s.cache ?? 'off';
  if (settings.latency !== undefined) stored.latency = latencySpec(settings.latency);
  if (model !== undefined) stored.model = model;
  if (recorded !== undefined) stored[RECORDED_CACHE] = recordedCacheOf(recorded);
  return { scenario: made, settings: stored, hash: agentsHash({ scenario: made, settings: stored }) };
}

// Each check's own agents, kept out of its fields (a check is compared and serialized whole).
const agentsKept = new WeakMap<object, StoredAgents>();
const recordingsKept = new WeakMap<object, CheckRecordings>();

/** Keeps a check's agents, and the recordings it replayed beside them (what pairs its recorded part: pairedRecordings.ts). */
export function keepAgents(check: object, agents: StoredAgents | undefined, recordings?: CheckRecordings): void {
  if (agents !== undefined) agentsKept.set(check, agents);
  if (recordings !== undefined) recordingsKept.set(check, recordings);
}

/** The agents of a checked scenario (undefined: no synthetic population, or a check made elsewhere). */
export function scenarioAgents(check: object): StoredAgents | undefined {
  return agentsKept.get(check);
}

/** The baseline's agents read by this loopcost: the scenario, its settings; a problem's words when they do not read. */
type Readied = { scenario: Scenario; brakes: BrakeConfig; settings: Record<string, string> } | { problem: string };

function readied(agents: StoredAgents, label: string): Readied {
  const unknown = Object.keys(agents.settings).filter((key) => !SETTINGS.has(key));
  if (unknown.length > 0) return { problem: `its settings name ${unknown.join(', ')}, which this loopcost does not run` };
  try {
    const scenario = parseAnyScenario(JSON.stringify({ scenario: SCENARIO_SCHEMA, ...agents.scenario }), label) as Scenario;
    const spec = agents.settings.brakes ?? 'none';
    return { scenario, brakes: spec === 'none' ? NO_BRAKES : brakesFromSpec(spec), settings: agents.settings };
  } catch (error) {
    if (!(error instanceof UserError)) throw error;
    const issue = error.issues[0]!;
    return { problem: `they do not read as a scenario here (${issue.field === undefined ? '' : `${issue.field}: `}${issue.message})` };
  }
}

/** The agents' runs `0 … runs−1` of `seed` under their stored settings, priced by `prices`. */
function agentRuns(agents: Exclude<Readied, { problem: string }>, draws: { runs: number; seed: number }, prices: PriceTable): PopulationRun[] {
  const { settings } = agents;
  const strategy = strategyFromFlags({ context: settings.context ?? 'full', cache: settings.cache ?? 'off', ...(settings.toolResultCap === undefined ? {} : { toolResultCap: settings.toolResultCap }) });
  const latency = settings.latency === undefined ? {} : { latency: latencyFromSpec(settings.latency) };
  const config = { brakes: agents.brakes, strategy, ...latency, ...(settings.model === undefined ? {} : { model: settings.model }) };
  return configurationRuns({ scenarios: [{ scenario: agents.scenario, runs: draws.runs, seed: draws.seed }] }, config, prices);
}

/**
 * The baseline's entries in the order of the entries now that are them (the same content, else the same name,
 * else the same behaviour), the rest after: the same population, its draws laid as this one's are, so that an
 * entry reordered or reweighted draws the same runs on both sides (a run's entry is where its draw falls).
 */
export function alignedEntries(baseline: readonly PopulationEntry[], now: readonly PopulationEntry[]): PopulationEntry[] {
  const left = [...baseline];
  const sameBy = [(a: PopulationEntry, b: PopulationEntry) => entryContent(a) === entryContent(b), (a: PopulationEntry, b: PopulationEntry) => a.name !== undefined && a.name === b.name, (a: PopulationEntry, b: PopulationEntry) => a.behaviour === b.behaviour];
  const placed: (PopulationEntry | undefined)[] = now.map(() => undefined);
  for (const same of sameBy) {
    now.forEach((entry, i) => {
      if (placed[i] !== undefined) return;
      const k = left.findIndex((candidate) => same(candidate, entry));
      if (k >= 0) placed[i] = left.splice(k, 1)[0];
    });
  }
  return [...placed.filter((entry): entry is PopulationEntry => entry !== undefined), ...left];
}

/**
 * What pairing a scenario with its baseline's agents gave: their figures on this check's draws, or why it could not
 * (`rewrite: false`: writing the baseline again would not pair it; absent, it would).
 */
export type Pairing = { metrics: PopulationMetrics } | { unpaired: string; rewrite?: false };

/** A scenario judged against the noise band, not paired, and why (`rewrite: false`: writing the baseline again would not pair it). */
export interface Unpaired {
  scenario: string;
  reason: string;
  rewrite?: false;
}

export interface PairingArgs {
  /** The baseline's agents, seed, run counts and figures. */
  before: { agents?: StoredAgents; seed?: number; syntheticRuns?: number; recordedRuns?: number; figures: BaselineFigures };
  /** This check's draws and population. */
  now: { seed: number; syntheticRuns: number; recordedRuns: number; population: readonly PopulationEntry[]; recordings?: CheckRecordings };
  /** The prices the baseline's figures were made at (its stored prices for the models it stored). */
  prices: PriceTable;
  /** Names the stored scenario in a problem. */
  label: string;
}

/** The figures a baseline compares, as JSON: a re-run gives the baseline's when these are equal. */
function comparedFigures(figures: Omit<BaselineFigures, 'worstCasePerRunUsd'> & { worstCasePerRunUsd?: unknown }): string {
  const { worstCasePerRunUsd: _worst, ...compared } = figures;
  return canonicalJson(compared);
}

/** The baseline's agents on this check's draws (pairedFigures' reasons when not: said in the report). */
export function pairedFigures(args: PairingArgs): Pairing {
  const { before, now } = args;
  const recordedThen = before.recordedRuns ?? 0;
  if (recordedThen > 0 && now.recordings === undefined) return { unpaired: 'its recorded runs were not kept to replay again under the baseline’s settings (session trees, or a check made through the library)', rewrite: false };
  if (before.agents === undefined || before.seed === undefined || before.syntheticRuns === undefined) return { unpaired: 'the baseline holds no agents to run again (written before baselines stored them)' };
  // Without a hash (a baseline written before them) an edit could not be told: not trusted, as an edited one is not.
  if (before.agents.hash === undefined) return { unpaired: "the baseline's agents carry no hash (written before baselines stored one): write it again with --update-baseline to pair" };
  if (before.agents.hash !== agentsHash(before.agents)) return { unpaired: "the baseline's agents were edited since it was written (their hash does not match them)" };
  const agents = readied(before.agents, args.label);
  if ('problem' in agents) return { unpaired: `the baseline's agents cannot be run again: ${agents.problem}` };
  const own = agentRuns(agents, { runs: before.syntheticRuns, seed: before.seed }, args.prices);
  // The baseline's recorded runs: its recordings (as they are now) replayed under its settings, where they give its figures.
  const candidates = recordedThen === 0 ? [[]] : recordedRunsUnder(now.recordings!, agents, args.prices).filter((runs) => runs.length === recordedThen);
  const recorded = candidates.find((runs) => sameFigures(populationMetrics([...runs, ...own]), before.figures));
  if (recorded === undefined) {
    if (recordedThen === 0) return { unpaired: "the baseline's agents, run again here at its seed and run count, do not give its figures (another loopcost draws them otherwise)" };
    return { unpaired: "its recordings replayed under the baseline's settings beside the baseline's agents at its seed and run count do not give its figures (a recording changed since it was written, or another loopcost replays or draws them otherwise)" };
  }
  const aligned = { ...agents, scenario: { ...agents.scenario, population: alignedEntries(agents.scenario.population, now.population) } };
  return { metrics: populationMetrics([...recorded, ...agentRuns(aligned, { runs: now.syntheticRuns, seed: now.seed }, args.prices)]) };
}

/** Whether a re-run's figures are the baseline's (every figure it compares). */
function sameFigures(own: PopulationMetrics, figures: BaselineFigures): boolean {
  return comparedFigures(figuresOf(own)) === comparedFigures(figures);
}

/**
 * What pairs a check's scenario with its baseline's agents at `prices` (the baseline's): undefined for one with no
 * synthetic runs now (nothing drawn: recorded runs replay exactly).
 */
export function pairWithBaseline(prices: PriceTable, file: string): (check: ScenarioCheck, before: BaselineScenario) => Pairing | undefined {
  return (check, before) => {
    const agents = scenarioAgents(check);
    if (check.syntheticRuns === 0 || check.seed === undefined || agents === undefined) return undefined;
    if (check.tree !== undefined) return { unpaired: 'its recorded runs are session trees (--tree), which are not replayed again under the baseline’s settings', rewrite: false };
    const population = agents.scenario.population as PopulationEntry[];
    const recordings = recordingsKept.get(check);
    const now = { seed: check.seed, syntheticRuns: check.syntheticRuns, recordedRuns: check.recordedRuns, population, ...(recordings === undefined ? {} : { recordings }) };
    return pairedFigures({ before, now, prices, label: `${file} (the agents of ${before.source})` });
  };
}
