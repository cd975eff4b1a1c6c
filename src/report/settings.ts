/**
 * The settings that produced a report, written so a pasted report can be reproduced: brakes in the
 * `--try` syntax (`max-steps=50,max-cost=0.05,budget-mode=check`, which `--try` and `brakesFromSpec`
 * read back), the context strategy in `--context` syntax, the cache mode, the latency model and the
 * model a run was re-priced as. One line of text, one set of CSV columns, one JSON object.
 */
import { NO_BRAKES, type BrakeConfig } from '../brakes/config.js';
import { contextSpecOf, type ContextStrategy } from '../context/strategy.js';
import type { LatencyModel } from '../loop/latency.js';
import { picoToUsdString } from '../money.js';

export interface ReportSettings {
  /** `--try` syntax; `none` without brakes; `recorded` (+ what was given on top) when each run used its own recorded limits. */
  brakes: string;
  /** `full`, `window:K`, `mask:M`, `summary:…`, `hybrid:…` (`--context` syntax), plus `,tool-result-cap=T`. */
  context: string;
  /** `on`, `off`, or (the default) `as recorded (synthetic: off)`; with scenario files, their cache instead of `off` (defaultCacheSpec). */
  cache: string;
  /** `--latency-model` syntax, or `as recorded`; `none` where nothing was recorded (a curve, a synthetic run without a model). */
  latency: string;
  /** `--model`: every run re-priced as this model. */
  model?: string;
}

/** Brake settings in `--try` syntax; modes only beside the brake they govern. `none` when no brake is set. */
export function brakeSpec(brakes: BrakeConfig): string {
  const parts: string[] = [];
  if (brakes.maxSteps !== undefined) parts.push(`max-steps=${brakes.maxSteps}`);
  if (brakes.maxCostPico !== undefined) parts.push(`max-cost=${picoToUsdString(brakes.maxCostPico)}`, ...budgetModeParts(brakes));
  if (brakes.timeoutMs !== undefined) parts.push(`timeout=${brakes.timeoutMs / 1000}`);
  if (brakes.maxRepeat !== undefined) parts.push(`max-repeat=${brakes.maxRepeat}`, `repeat-mode=${brakes.repeatMode}`);
  if (brakes.maxRepeat !== undefined && brakes.repeatAction === 'skip') {
    parts.push('repeat-action=skip');
    if (brakes.maxSkips !== undefined) parts.push(`max-skips=${brakes.maxSkips}`);
    if (brakes.skipWarningTokens !== undefined) parts.push(`skip-warning=${brakes.skipWarningTokens}`);
  }
  if (brakes.maxSameError !== undefined) parts.push(`max-same-error=${brakes.maxSameError}`, `same-error-mode=${brakes.sameErrorMode}`);
  if (brakes.maxTokens !== undefined) parts.push(`max-tokens=${brakes.maxTokens}`);
  if (brakes.maxBacktracks !== undefined) parts.push(`max-backtracks=${brakes.maxBacktracks}`);
  if (brakes.contextWindow !== undefined) parts.push(`context-window=${brakes.contextWindow}`);
  // Under `model` the max_tokens sent counts against the window: stated when given, once (predict states it beside the budget).
  if (brakes.contextWindow === 'model' && brakes.maxOutputTokens !== undefined && !parts.some((p) => p.startsWith('max-output-tokens='))) parts.push(`max-output-tokens=${brakes.maxOutputTokens}`);
  return parts.length === 0 ? 'none' : parts.join(',');
}

/** `budget-mode=predict,max-output-tokens=1000`: the output bound only where it counts (predict), and only when given. */
function budgetModeParts(brakes: BrakeConfig): string[] {
  const bound = brakes.budgetMode === 'predict' && brakes.maxOutputTokens !== undefined ? [`max-output-tokens=${brakes.maxOutputTokens}`] : [];
  return [`budget-mode=${brakes.budgetMode}`, ...bound];
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

/** `budget-mode=predict,repeat-mode=consecutive`: modesOverRecorded in `--try` syntax. */
function modesSpec(modes: Partial<BrakeConfig>): string[] {
  const parts: string[] = [];
  if (modes.budgetMode !== undefined) parts.push(...budgetModeParts({ ...NO_BRAKES, ...modes }));
  if (modes.repeatMode !== undefined) parts.push(`repeat-mode=${modes.repeatMode}`);
  if (modes.repeatAction !== undefined) parts.push(`repeat-action=${modes.repeatAction}`);
  if (modes.maxSkips !== undefined) parts.push(`max-skips=${modes.maxSkips}`);
  if (modes.skipWarningTokens !== undefined) parts.push(`skip-warning=${modes.skipWarningTokens}`);
  if (modes.sameErrorMode !== undefined) parts.push(`same-error-mode=${modes.sameErrorMode}`);
  return parts;
}

/** `recorded`, `recorded+max-steps=50`, `recorded+budget-mode=predict`: each run's own limits, what was given on top. */
function recordedSpec(brakes: BrakeConfig): string {
  const given = brakeSpec(brakes);
  const onTop = [...(given === 'none' ? [] : [given]), ...modesSpec(modesOverRecorded(brakes))];
  return onTop.length === 0 ? 'recorded' : `recorded+${onTop.join(',')}`;
}

/**
 * The cache when `--cache` is not given: recorded runs bill it as recorded; synthetic runs as their
 * scenario file says (off when it says nothing, or when no file's cache applies).
 */
export function defaultCacheSpec(scenarioCaches: readonly (string | undefined)[] = []): string {
  return `as recorded (synthetic: ${syntheticCache(scenarioCaches)})`;
}

/** The cache synthetic runs took without `--cache`: `off`, `on`, or `each scenario file's own` when the files differ. */
export function syntheticCache(scenarioCaches: readonly (string | undefined)[]): string {
  const modes = [...new Set(scenarioCaches.map((mode) => mode ?? 'off'))];
  return modes.length > 1 ? "each scenario file's own" : (modes[0] ?? 'off');
}

/** `settings` with the default cache said as it was for these scenario files' runs; a `--cache` given stays. */
export function withScenarioCaches(settings: ReportSettings, scenarioCaches: readonly (string | undefined)[]): ReportSettings {
  return settings.cache === defaultCacheSpec() ? { ...settings, cache: defaultCacheSpec(scenarioCaches) } : settings;
}

export function contextSpec(strategy: ContextStrategy): string {
  const base = contextSpecOf(strategy);
  return strategy.toolResultCap === undefined ? base : `${base},tool-result-cap=${strategy.toolResultCap}`;
}

/** The latency of runs that have nothing recorded to fall back on and no `--latency-model`: calls and tools take no time. */
export const NO_LATENCY = 'none';

export function latencySpec(latency: LatencyModel | undefined): string {
  if (!latency) return 'as recorded';
  return `call=${latency.perCallMs},input-token=${latency.perInputTokenMs},output-token=${latency.perOutputTokenMs},tool=${latency.perToolCallMs}`;
}

export function reportSettings(args: {
  brakes: BrakeConfig;
  /** Each run replayed with its own recorded limits, `brakes` given on top. */
  perRunRecordedLimits?: boolean;
  strategy: ContextStrategy;
  latency?: LatencyModel;
  model?: string;
  /** The cache each scenario file among the inputs gave its runs (flags given on top). */
  scenarioCaches?: readonly (string | undefined)[];
}): ReportSettings {
  const settings: ReportSettings = {
    brakes: args.perRunRecordedLimits ? recordedSpec(args.brakes) : brakeSpec(args.brakes),
    context: contextSpec(args.strategy),
    cache: args.strategy.cache ?? defaultCacheSpec(args.scenarioCaches),
    latency: latencySpec(args.latency),
  };
  if (args.model !== undefined) settings.model = args.model;
  return settings;
}

/** Between the parts of the settings line (a wrapped line breaks only there). */
export const SETTINGS_SEPARATOR = ' · ';

/** `brakes max-steps=50 · context full · cache as recorded · latency as recorded`. */
export function settingsText(settings: Partial<ReportSettings>): string {
  const parts: string[] = [];
  if (settings.brakes !== undefined) parts.push(`brakes ${settings.brakes}`);
  if (settings.context !== undefined) parts.push(`context ${settings.context}`);
  if (settings.cache !== undefined) parts.push(`cache ${settings.cache}`);
  if (settings.latency !== undefined) parts.push(`latency ${settings.latency}`);
  if (settings.model !== undefined) parts.push(`re-priced as ${settings.model}`);
  return parts.join(SETTINGS_SEPARATOR);
}

/** `settings: brakes max-steps=50 · context full · cache as recorded · latency as recorded` (one line). */
export function settingsLine(settings: ReportSettings): string {
  return `settings: ${settingsText(settings)}`;
}

export const SETTINGS_COLUMNS = ['brakes', 'context', 'cacheMode', 'latency', 'repricedAs'] as const;

export function settingsColumns(settings: ReportSettings): Record<(typeof SETTINGS_COLUMNS)[number], string> {
  return { brakes: settings.brakes, context: settings.context, cacheMode: settings.cache, latency: settings.latency, repricedAs: settings.model ?? '' };
}
