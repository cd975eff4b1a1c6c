/**
 * Common random numbers for a check against its baseline. A baseline stores what re-runs its scenario's
 * synthetic agents (`agents`: the scenario file's fields that make them, as parsed, and the settings the check
 * ran them under, each as its flag takes it). When the runs now are another sample than the baseline's (another
 * seed, run count, entries in another order or changed: noise.ts sampleKey), check runs the baseline's agents
 * again on these runs' draws (this seed and run count), and judges each figure against them by the tolerance
 * alone: the two differ by the change alone, not by which runs were drawn. The re-run is trusted only where it
 * gives the baseline's own figures at its own seed and run count (this loopcost draws its agents as the one that
 * wrote it did) and the agents are as written (their `hash`: that re-run vouches only for the entries the baseline's
 * draws picked, and an entry it never drew, edited, would pass it); else, and for a baseline without `agents` (written before) or a scenario with recorded runs
 * beside its synthetic ones, the figures are judged against the noise band as before, and the report says why.
 */
import { z } from 'zod';
import { NO_BRAKES, type BrakeConfig } from '../brakes/config.js';
import { contextSpecOf } from '../context/strategy.js';
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
import type { BaselineFigures, BaselineScenario } from './baselineFile.js';
import type { ScenarioCheck } from './run.js';
import { canonicalJson } from '../brakes/fingerprint.js';
import { entryContent, textKey } from './noise.js';

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
const SETTINGS = new Set(['brakes', 'context', 'toolResultCap', 'cache', 'latency', 'model']);

/** The `agents` block of a scenario with a synthetic population under `settings` (`model`: `--model`); undefined without one. */
export function agentsOf(scenario: { population?: unknown } & object, settings: ScenarioSettings, model?: string): StoredAgents | undefined {
  if (scenario.population === undefined) return undefined;
  const made = Object.fromEntries(Object.entries(scenario).filter(([key, value]) => !NOT_AGENTS.has(key) && value !== undefined && typeof value !== 'function'));
  const s = settings.strategy;
  const stored: Record<string, string> = { brakes: brakeSpec(settings.brakes), context: contextSpecOf(s) };
  if (s.toolResultCap !== undefined) stored.toolResultCap = `${s.toolResultCap}`;
  stored.cache = s.cache ?? 'off';
  if (settings.latency !== undefined) stored.latency = latencySpec(settings.latency);
  if (model !== undefined) stored.model = model;
  return { scenario: made, settings: stored, hash: agentsHash({ scenario: made, settings: stored }) };
}

// Each check's own agents, kept out of its fields (a check is compared and serialized whole).
const agentsKept = new WeakMap<object, StoredAgents>();

export function keepAgents(check: object, agents: StoredAgents | undefined): void {
  if (agents !== undefined) agentsKept.set(check, agents);
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

/** The figures of the agents' runs `0 … runs−1` of `seed` under their stored settings, priced by `prices`. */
function agentFigures(agents: Exclude<Readied, { problem: string }>, draws: { runs: number; seed: number }, prices: PriceTable): PopulationMetrics {
  const { settings } = agents;
  const strategy = strategyFromFlags({ context: settings.context ?? 'full', cache: settings.cache ?? 'off', ...(settings.toolResultCap === undefined ? {} : { toolResultCap: settings.toolResultCap }) });
  const latency = settings.latency === undefined ? {} : { latency: latencyFromSpec(settings.latency) };
  const config = { brakes: agents.brakes, strategy, ...latency, ...(settings.model === undefined ? {} : { model: settings.model }) };
  return populationMetrics(configurationRuns({ scenarios: [{ scenario: agents.scenario, runs: draws.runs, seed: draws.seed }] }, config, prices));
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

/** What pairing a scenario with its baseline's agents gave: their figures on this check's draws, or why it could not. */
export type Pairing = { metrics: PopulationMetrics } | { unpaired: string };

export interface PairingArgs {
  /** The baseline's agents, seed, run counts and figures. */
  before: { agents?: StoredAgents; seed?: number; syntheticRuns?: number; recordedRuns?: number; figures: BaselineFigures };
  /** This check's draws and population. */
  now: { seed: number; syntheticRuns: number; recordedRuns: number; population: readonly PopulationEntry[] };
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
  if (now.recordedRuns > 0 || (before.recordedRuns ?? 0) > 0) return { unpaired: 'it has recorded runs beside its synthetic ones (the baseline does not hold them to run again)' };
  if (before.agents === undefined || before.seed === undefined || before.syntheticRuns === undefined) return { unpaired: 'the baseline holds no agents to run again (written before baselines stored them)' };
  // Without a hash (a baseline written before them) an edit could not be told: not trusted, as an edited one is not.
  if (before.agents.hash === undefined) return { unpaired: "the baseline's agents carry no hash (written before baselines stored one): write it again with --update-baseline to pair" };
  if (before.agents.hash !== agentsHash(before.agents)) return { unpaired: "the baseline's agents were edited since it was written (their hash does not match them)" };
  const agents = readied(before.agents, args.label);
  if ('problem' in agents) return { unpaired: `the baseline's agents cannot be run again: ${agents.problem}` };
  const own = agentFigures(agents, { runs: before.syntheticRuns, seed: before.seed }, args.prices);
  if (comparedFigures({ runs: own.runs, completionRate: own.completionRate, falseStopRate: own.falseStopRate, wastedShare: own.wastedShare, costUsd: own.costUsd, costPerRunUsd: { ...own.costPerRunUsd }, costPerCompletedUsd: own.costPerCompletedUsd }) !== comparedFigures(before.figures)) {
    return { unpaired: "the baseline's agents, run again here at its seed and run count, do not give its figures (another loopcost draws them otherwise)" };
  }
  const aligned = { ...agents, scenario: { ...agents.scenario, population: alignedEntries(agents.scenario.population, now.population) } };
  return { metrics: agentFigures(aligned, { runs: now.syntheticRuns, seed: now.seed }, args.prices) };
}

/**
 * What pairs a check's scenario with its baseline's agents at `prices` (the baseline's): undefined for one with no
 * synthetic runs now (nothing drawn: recorded runs replay exactly).
 */
export function pairWithBaseline(prices: PriceTable, file: string): (check: ScenarioCheck, before: BaselineScenario) => Pairing | undefined {
  return (check, before) => {
    const agents = scenarioAgents(check);
    if (check.syntheticRuns === 0 || check.seed === undefined || agents === undefined) return undefined;
    const population = agents.scenario.population as PopulationEntry[];
    const now = { seed: check.seed, syntheticRuns: check.syntheticRuns, recordedRuns: check.recordedRuns, population };
    return pairedFigures({ before, now, prices, label: `${file} (the agents of ${before.source})` });
  };
}
