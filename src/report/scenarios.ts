/**
 * Scenario files among a report's inputs: the settings each one's synthetic runs ran under (the file's,
 * with the flags given on top), their number and seed. JSON: `settings.scenarios` (replay, whatif) or
 * `inputs` (sweep, project: inputsRecord); text: one `synthetic:` line per file (scenarioLine) and one
 * note; CSV: each synthetic run's row carries its file's settings.
 */
import type { BrakeConfig } from '../brakes/config.js';
import type { CacheMode, ContextStrategy } from '../context/strategy.js';
import type { LatencyModel } from '../loop/latency.js';
import { brakeSettingsRecord, contextSettingsRecord } from './records.js';
import { reportSettings, settingsColumns, settingsText, type ReportSettings } from './settings.js';
import { recordedRunBrakes, recordedRunPart, runCache, scenarioLatency } from './runsTook.js';
import { counted } from '../plural.js';

/** The latency rules live with the settings (runsTook.ts); here for the population commands that import them from here. */

/** What one scenario file's runs ran under. */
export interface ScenarioRunSettings {
  source: string;
  runs: number;
  seed: number;
  brakes: BrakeConfig;
  strategy: ContextStrategy;
  latency?: LatencyModel;
}

export interface ScenarioSettingsRecord {
  source: string;
  runs: number;
  seed: number;
  brakes: Record<string, unknown>;
  context: Record<string, unknown>;
  /** The same settings as reproducible strings (`--try` / `--context` syntax), as the report's own `spec`. */
  spec: Omit<ReportSettings, 'model'>;
}

export const SYNTHETIC_NOTE =
  "synthetic runs: closed-loop agents that react to what their context holds; not recorded, so they have no recorded cost; each run's ground truth is its recordedOutcome";

export function scenarioSettingsRecords(scenarios: readonly ScenarioRunSettings[]): ScenarioSettingsRecord[] {
  return scenarios.map((s) => ({
    source: s.source,
    runs: s.runs,
    seed: s.seed,
    brakes: brakeSettingsRecord(s.brakes),
    context: contextSettingsRecord(s.strategy),
    spec: { ...reportSettings(s), latency: scenarioLatency(s) },
  }));
}

/** `scenarios/x.yaml (20 runs, seed 1)`: a scenario file's runs as every report names them (replay's and project's `synthetic:` lines). */
export function scenarioRunsText(s: Pick<ScenarioRunSettings, 'source' | 'runs' | 'seed'>): string {
  return `${s.source} (${counted(s.runs, 'run')}, seed ${s.seed})`;
}

/** A scenario file among a population report's inputs (JSON `inputs.scenarios`): its runs, seed and the latency they took. */
export interface ScenarioInputRecord {
  source: string;
  runs: number;
  seed: number;
  latency: string;
}

/** What a population report's runs were (JSON `inputs` of sweep and project). */
export interface InputsRecord {
  recordedRuns: number;
  syntheticRuns: number;
  scenarios: ScenarioInputRecord[];
}

export function inputsRecord(recordedRuns: number, scenarios: readonly Pick<ScenarioRunSettings, 'source' | 'runs' | 'seed' | 'latency'>[]): InputsRecord {
  return {
    recordedRuns,
    syntheticRuns: scenarios.reduce((n, s) => n + s.runs, 0),
    scenarios: scenarios.map((s) => ({ source: s.source, runs: s.runs, seed: s.seed, latency: scenarioLatency(s) })),
  };
}

/**
 * `synthetic: scenarios/x.yaml (20 runs, seed 1) · context window:3 · latency call=2500,…`, one per file:
 * the settings its runs took where they differ from the report's settings line (`shown`).
 */
export function scenarioLine(record: Pick<ScenarioSettingsRecord, 'source' | 'runs' | 'seed'> & { spec: Partial<ReportSettings> }, shown?: ReportSettings): string {
  const differing = Object.fromEntries(Object.entries(record.spec).filter(([key, value]) => shown?.[key as keyof ReportSettings] !== value));
  const head = `synthetic: ${scenarioRunsText(record)}`;
  return Object.keys(differing).length === 0 ? `${head} · as the settings above` : `${head} · ${settingsText(differing)}`;
}

/** The scenario file a run (`<file>#<n>`) is a synthetic run of; undefined for a trace file's run. */
export function scenarioOfRun<S extends { source: string }>(source: string, scenarios: readonly S[] | undefined): S | undefined {
  return scenarios?.find((s) => source.startsWith(`${s.source}#`));
}

/**
 * The settings a run ran under: its scenario file's for a synthetic run (`<file>#<n>`); else the report's
 * as a trace file's run took them, not the label of every run: its own cache (`cache`: RunResult.cache,
 * where the row carries it), latency (recordedRunPart: `as recorded`, not `as recorded (synthetic: …)`) and
 * brakes and context (recordedRunBrakes: the flags', not `none (synthetic: …)`).
 */
export function runSettings(row: { source: string; cache?: unknown }, spec: ReportSettings, scenarios: readonly ScenarioSettingsRecord[] | undefined): ReportSettings {
  const scenario = scenarioOfRun(row.source, scenarios);
  if (scenario) return { ...spec, ...scenario.spec };
  const cache = typeof row.cache === 'string' ? runCache(row.cache as CacheMode) : recordedRunPart(spec.cache);
  return { ...spec, brakes: recordedRunBrakes(spec.brakes), context: recordedRunBrakes(spec.context), cache, latency: recordedRunPart(spec.latency) };
}

/**
 * CSV rows and the columns every row shares (settings, then the price source). With synthetic runs among
 * the rows the settings differ per row, so they move from the shared columns into each row.
 */
export function csvSettings<R extends { source: string }>(
  rows: readonly R[],
  spec: ReportSettings,
  scenarios: readonly ScenarioSettingsRecord[] | undefined,
  priceColumns: Record<string, string>,
): { rows: readonly object[]; shared: Record<string, string> } {
  if (scenarios === undefined || scenarios.length === 0) return { rows, shared: { ...settingsColumns(spec), ...priceColumns } };
  return { rows: rows.map((row) => ({ ...row, ...settingsColumns(runSettings(row, spec, scenarios)) })), shared: priceColumns };
}
