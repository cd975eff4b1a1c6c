/**
 * The settings that produced a report, written so a pasted report can be reproduced, each part as its
 * flag takes it: brakes in `--try` syntax (`max-steps=50,max-cost=0.05,budget-mode=check`: the brake
 * flags' names without `--`, which `--try` reads back), the context strategy as `--context`, the tool-result
 * cap as `--tool-result-cap`, the cache mode, the latency model and the model a run was re-priced as. One
 * line of text, one set of CSV columns, one JSON object; and for a combined label (a sweep's configuration),
 * the command-line flags that reproduce it (settingsFlags). The one formatter of each setting: the parsers
 * in src/cli/parseFlags.ts read back what it writes (test/report/settingsRoundTrip.test.ts).
 */
import { NO_BRAKES, type BrakeConfig } from '../brakes/config.js';
import { RECORDED_PRESET } from '../flags/settingsFlags.js';
import { gridBrakeParts, withGridAxes, type SettingsAxis } from './settingsGrid.js';
import { contextSpecOf, type ContextStrategy } from '../context/strategy.js';
import type { LatencyModel } from '../loop/latency.js';
import type { SubagentLimits } from '../tree/engine.js';
import { picoToUsdString } from '../money.js';
import { defaultCacheSpec, latencySpec, runsBrakes, runsCache, runsContext, runsLatency, tookOwnContext, type RunsTook } from './runsTook.js';


export interface ReportSettings {
  /** `--try` syntax; `none` without brakes; `preset=recorded` (+ what was given on top) when each run used its own recorded limits. */
  brakes: string;
  /** `full`, `window:K`, `mask:M`, `summary:…`, `hybrid:…` (`--context` syntax). */
  context: string;
  /** `--tool-result-cap`: tokens a tool result may add (absent: no cap). */
  toolResultCap?: string;
  /** `on`, `off`, or (the default) `as recorded (synthetic: off)`; with scenario files, their cache instead of `off` (defaultCacheSpec). */
  cache: string;
  /** `--latency-model` syntax, or `as recorded`; `none` where nothing was recorded (a curve, a synthetic run without a model). */
  latency: string;
  /** `--model`: every run re-priced as this model. */
  model?: string;
}

/** One setting as its flag takes it: the flag's name without `--`, and its value (`['max-steps', '50']`). */
export type FlagPart = readonly [name: string, value: string];

/**
 * The brakes, part by part, as their flags take them; modes only beside the brake they govern. The one
 * formatter of brake settings: `--try` syntax (brakeSpec) and command-line flags (settingsFlags) both
 * write these parts.
 */
export function brakeParts(brakes: BrakeConfig): FlagPart[] {
  const parts: FlagPart[] = [];
  if (brakes.maxSteps !== undefined) parts.push(['max-steps', `${brakes.maxSteps}`]);
  if (brakes.maxCostPico !== undefined) parts.push(['max-cost', picoToUsdString(brakes.maxCostPico)], ['budget-mode', brakes.budgetMode]);
  if (brakes.timeoutMs !== undefined) parts.push(['timeout', `${brakes.timeoutMs / 1000}`]);
  if (brakes.maxRepeat !== undefined) parts.push(['max-repeat', `${brakes.maxRepeat}`], ['repeat-mode', brakes.repeatMode], ...repeatActionParts(brakes));
  if (brakes.maxSameError !== undefined) parts.push(['max-same-error', `${brakes.maxSameError}`], ['same-error-mode', brakes.sameErrorMode]);
  if (brakes.maxTokens !== undefined) parts.push(['max-tokens', `${brakes.maxTokens}`]);
  if (brakes.maxBacktracks !== undefined) parts.push(['max-backtracks', `${brakes.maxBacktracks}`]);
  if (brakes.contextWindow !== undefined) parts.push(['context-window', `${brakes.contextWindow}`]);
  return withOutputTokens(parts, brakes.maxOutputTokens);
}

/** `repeat-action` as `--repeat-action` takes it (`skip,max-skips=2,warning=10`), when given. */
function repeatActionParts(brakes: Pick<BrakeConfig, 'repeatAction' | 'maxSkips' | 'skipWarningTokens'>): FlagPart[] {
  if (brakes.repeatAction === undefined) return [];
  const options = [...(brakes.maxSkips === undefined ? [] : [`max-skips=${brakes.maxSkips}`]), ...(brakes.skipWarningTokens === undefined ? [] : [`warning=${brakes.skipWarningTokens}`])];
  return [['repeat-action', [brakes.repeatAction, ...options].join(',')]];
}

/**
 * `max-output-tokens` whenever given (the max_tokens every call sends: the predictive bound, the model's
 * window, and where a synthetic agent's provider cuts its output), once: beside `budget-mode=predict` or
 * `context-window=model` where it counts against them, else last.
 */
function withOutputTokens(parts: FlagPart[], maxOutputTokens: number | undefined): FlagPart[] {
  if (maxOutputTokens === undefined) return parts;
  const after = [parts.findIndex(([name, value]) => name === 'budget-mode' && value === 'predict'), parts.findIndex(([name, value]) => name === 'context-window' && value === 'model')].find((i) => i >= 0) ?? parts.length - 1;
  return [...parts.slice(0, after + 1), ['max-output-tokens', `${maxOutputTokens}`], ...parts.slice(after + 1)];
}

/** `max-steps=50,max-cost=0.05`: parts in `--try` syntax (the flags' names without `--`). */
export function trySyntax(parts: readonly FlagPart[]): string {
  return parts.map(([name, value]) => `${name}=${value}`).join(',');
}

/** Brake settings in `--try` syntax (which `--try` reads back); `none` when no brake is set. */
export function brakeSpec(brakes: BrakeConfig): string {
  return trySyntax(brakeParts(brakes)) || 'none';
}

/** True when any brake is set (the settings line's brakes are not `none`). */
export function hasBrakes(brakes: BrakeConfig): boolean {
  return brakeParts(brakes).length > 0;
}

/**
 * Under `--preset recorded`, the modes given without their brake: they apply to each run's recorded one
 * (`--budget-mode predict` makes a recorded cost limit predictive). Only those that differ from the
 * default, as brakesForRun applies them.
 */
export function modesOverRecorded(brakes: BrakeConfig): Partial<BrakeConfig> {
  const modes: Partial<BrakeConfig> = {};
  if (brakes.maxCostPico === undefined && brakes.budgetMode !== NO_BRAKES.budgetMode) {
    modes.budgetMode = brakes.budgetMode;
    if (brakes.budgetMode === 'predict' && brakes.maxOutputTokens !== undefined) modes.maxOutputTokens = brakes.maxOutputTokens;
  }
  if (brakes.maxRepeat === undefined && brakes.repeatMode !== NO_BRAKES.repeatMode) modes.repeatMode = brakes.repeatMode;
  if (brakes.maxRepeat === undefined && brakes.repeatAction === 'skip') {
    modes.repeatAction = 'skip';
    if (brakes.maxSkips !== undefined) modes.maxSkips = brakes.maxSkips;
    if (brakes.skipWarningTokens !== undefined) modes.skipWarningTokens = brakes.skipWarningTokens;
  }
  if (brakes.maxSameError === undefined && brakes.sameErrorMode !== NO_BRAKES.sameErrorMode) modes.sameErrorMode = brakes.sameErrorMode;
  return modes;
}

/**
 * `preset=recorded,max-steps=50,budget-mode=predict`: each run's own limits (`--preset recorded`), the
 * brakes given on top and the modes given for the recorded brakes (modesOverRecorded).
 */
function recordedParts(brakes: BrakeConfig): FlagPart[] {
  const given = brakeParts({ ...brakes, maxOutputTokens: undefined });
  return [['preset', RECORDED_PRESET], ...withOutputTokens([...given, ...modeParts(brakes)], brakes.maxOutputTokens)];
}

/** The modes set (not their defaults) of brakes `brakes` does not hold (modesOverRecorded), as their flags take them. */
function modeParts(brakes: BrakeConfig): FlagPart[] {
  const modes = modesOverRecorded(brakes);
  return [
    ...(modes.budgetMode === undefined ? [] : [['budget-mode', modes.budgetMode] as const]),
    ...(modes.repeatMode === undefined ? [] : [['repeat-mode', modes.repeatMode] as const]),
    ...repeatActionParts(modes),
    ...(modes.sameErrorMode === undefined ? [] : [['same-error-mode', modes.sameErrorMode] as const]),
  ];
}

/** `settings` with the default cache said as it was for these scenario files' runs; a `--cache` given stays. */
export function withScenarioCaches(settings: ReportSettings, scenarioCaches: readonly (string | undefined)[]): ReportSettings {
  return settings.cache === defaultCacheSpec() ? { ...settings, cache: defaultCacheSpec(scenarioCaches) } : settings;
}

/** The context strategy and its tool-result cap, each as its flag takes it (`--context`, `--tool-result-cap`). */
function contextSettings(strategy: ContextStrategy): Pick<ReportSettings, 'context' | 'toolResultCap'> {
  return { context: contextSpecOf(strategy), ...(strategy.toolResultCap === undefined ? {} : { toolResultCap: `${strategy.toolResultCap}` }) };
}

/** `window:3`, or with a cap `window:3 · tool-result-cap 500`: the context as the settings line says it. */
export function contextText(strategy: ContextStrategy): string {
  return settingsText(contextSettings(strategy)).replace(/^context /, '');
}

/** What a report's settings are made of. */
export interface SettingsOf {
  brakes: BrakeConfig;
  /** Each run replayed with its own recorded limits (`--preset recorded`), `brakes` given on top. */
  perRunRecordedLimits?: boolean;
  strategy: ContextStrategy;
  latency?: LatencyModel;
  model?: string;
  /**
   * A sweep's grid axes (`max-repeat=3,5`, `context=full,window:4`): each configuration gives their values, so
   * each setting an axis gives is named as the axis (`max-repeat=grid (3, 5)`, `context grid (full, window:4)`:
   * gridValuesText), never as the flag's or a scenario file's value the axis replaced (gridBrakeParts, withGridAxes).
   */
  grid?: readonly SettingsAxis[];
}

function brakeSettings(args: SettingsOf): FlagPart[] {
  if (args.perRunRecordedLimits) return recordedParts(args.brakes);
  return args.grid === undefined || args.grid.length === 0 ? brakeParts(args.brakes) : gridBrakeParts({ parts: brakeParts(args.brakes), modes: modeParts(args.brakes) }, args.grid);
}

/**
 * The settings; with `took`, the cache and latency no flag gave said as the runs took them (runsCache,
 * runsLatency), else as the default rule says them (defaultCacheSpec, `latency as recorded`).
 */
export function reportSettings(args: SettingsOf & { /** The cache each scenario file among the inputs gave its runs (flags given on top). */ scenarioCaches?: readonly (string | undefined)[]; took?: RunsTook; /** With `took`: the context every recorded run replayed under, its recording's (`as recorded (window:8 ×1)`: RunNotes.recordedContext). */ recordedContext?: string | undefined }): ReportSettings {
  const runs = args.took;
  const settings: ReportSettings = {
    brakes: brakesTook(args),
    ...(runs === undefined ? contextSettings(args.strategy) : contextTook(args.strategy, runs, args.recordedContext)),
    cache: runs === undefined ? (args.strategy.cache ?? defaultCacheSpec(args.scenarioCaches)) : runsCache({ ...runs, ...(args.strategy.cache === undefined ? {} : { given: args.strategy.cache }) }),
    latency: runs === undefined ? latencySpec(args.latency) : runsLatency({ ...(args.latency === undefined ? {} : { given: args.latency }), recordedRuns: runs.recordedCaches.length, scenarios: runs.scenarios }),
  };
  if (args.model !== undefined) settings.model = args.model;
  return withGridAxes(settings, args.grid);
}

/** The brakes the runs took: the settings' own (`none` without any), and what scenario files' runs took of their files' (runsBrakes). */
function brakesTook(args: SettingsOf & { took?: RunsTook }): string {
  const own = trySyntax(brakeSettings(args)) || 'none';
  const took = args.took;
  if (took === undefined) return own;
  const files = took.scenarios.flatMap((s) => (s.brakes === undefined ? [] : [trySyntax(brakeSettings({ ...args, perRunRecordedLimits: false, brakes: s.brakes })) || 'none']));
  return runsBrakes(own, files, took.recordedCaches.length > 0);
}

/**
 * The context and tool-result cap the runs took (runsContext): the settings' own — or, where every recorded run
 * replayed under the strategy its recording states, that (`recorded`: `as recorded (window:8 ×1)`) — and what
 * scenario files' runs took of their files' (as brakesTook), a file's own cap included.
 */
function contextTook(strategy: ContextStrategy, took: RunsTook, recorded: string | undefined): Pick<ReportSettings, 'context' | 'toolResultCap'> {
  const files = took.scenarios.flatMap((s) => (tookOwnContext(s.strategy) ? [s.strategy] : []));
  const recordedRuns = took.recordedCaches.length > 0;
  const said = runsContext({ own: strategy, ...(recordedRuns ? { ownLabel: recorded } : {}), files, recordedRuns, capText: contextText });
  return { context: said.context, ...(said.toolResultCap === undefined ? {} : { toolResultCap: `${said.toolResultCap}` }) };
}

/** Per-agent limits (`--tree`) as their flags take them: `--subagent-max-steps`, `--subagent-max-cost`. */
function subagentParts(limits: SubagentLimits | undefined): FlagPart[] {
  return [
    ...(limits?.maxSteps === undefined ? [] : [['subagent-max-steps', `${limits.maxSteps}`] as const]),
    ...(limits?.maxCostPico === undefined ? [] : [['subagent-max-cost', picoToUsdString(limits.maxCostPico)] as const]),
  ];
}

/** `subagent-max-steps=2,subagent-max-cost=0.05`: per-agent limits as the brakes are written (the flags' names without `--`); `none` without them. */
export function subagentLimitsSpec(limits: SubagentLimits | undefined): string {
  return trySyntax(subagentParts(limits)) || 'none';
}

/** A flag's value as a shell word: quoted only when it holds something a shell would read otherwise. */
export function shellWord(value: string): string {
  return /^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replace(/'/g, "'\\''")}'`;
}

/**
 * The settings as the command-line flags that reproduce them (`--max-steps 50 --context window:5
 * --tool-result-cap 500 --cache on`), what a run took by default left out: what a user pastes after
 * `loopcost replay INPUTS` for a configuration a report names by a combined label (a sweep's row).
 */
export function settingsFlags(args: SettingsOf & { /** Session trees as one loop (`--tree`), each sub-agent under these limits. */ tree?: { subagent?: SubagentLimits } }): string {
  const { strategy } = args;
  const parts: FlagPart[] = [
    ...(args.tree === undefined ? [] : [['tree', ''] as const, ...subagentParts(args.tree.subagent)]),
    ...brakeSettings(args),
    ...(strategy.kind === 'full' ? [] : [['context', contextSpecOf(strategy)] as const]),
    ...(strategy.toolResultCap === undefined ? [] : [['tool-result-cap', `${strategy.toolResultCap}`] as const]),
    ...(strategy.cache === 'on' || strategy.cache === 'off' ? [['cache', strategy.cache] as const] : []),
    ...(args.latency === undefined ? [] : [['latency-model', latencySpec(args.latency)] as const]),
    ...(args.model === undefined ? [] : [['model', args.model] as const]),
  ];
  return parts.map(([name, value]) => (value === '' ? `--${name}` : `--${name} ${shellWord(value)}`)).join(' ');
}

/**
 * `replay --max-steps 50 --context window:5`: settingsFlags as a CSV cell writes them, after the command
 * that takes them, so the cell is pasted whole after `loopcost` (the inputs after it). A cell that started
 * with `-` would be read as a formula by a spreadsheet, and csv.ts's guard would prefix it with `'`.
 */
export function replayCommandLine(flags: string): string {
  return flags === '' ? 'replay' : `replay ${flags}`;
}

/** Between the parts of the settings line (a wrapped line breaks only there). */
export const SETTINGS_SEPARATOR = ' · ';

/** `brakes max-steps=50 · context full · cache as recorded · latency as recorded`. */
export function settingsText(settings: Partial<ReportSettings>): string {
  const parts: string[] = [];
  if (settings.brakes !== undefined) parts.push(`brakes ${settings.brakes}`);
  if (settings.context !== undefined) parts.push(`context ${settings.context}`);
  if (settings.toolResultCap !== undefined) parts.push(`tool-result-cap ${settings.toolResultCap}`);
  if (settings.cache !== undefined) parts.push(`cache ${settings.cache}`);
  if (settings.latency !== undefined) parts.push(`latency ${settings.latency}`);
  if (settings.model !== undefined) parts.push(`re-priced as ${settings.model}`);
  return parts.join(SETTINGS_SEPARATOR);
}

/** `settings: brakes max-steps=50 · context full · cache as recorded · latency as recorded` (one line). */
export function settingsLine(settings: ReportSettings): string {
  return `settings: ${settingsText(settings)}`;
}

export const SETTINGS_COLUMNS = ['brakes', 'context', 'toolResultCap', 'cacheMode', 'latency', 'repricedAs'] as const;

export function settingsColumns(settings: ReportSettings): Record<(typeof SETTINGS_COLUMNS)[number], string> {
  return { brakes: settings.brakes, context: settings.context, toolResultCap: settings.toolResultCap ?? '', cacheMode: settings.cache, latency: settings.latency, repricedAs: settings.model ?? '' };
}
