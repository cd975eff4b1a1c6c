/**
 * The settings that produced a report, written so a pasted report can be reproduced: brakes in the
 * `--try` syntax (`max-steps=50,max-cost=0.05,budget-mode=check`, which `--try` and `brakesFromSpec`
 * read back), the context strategy in `--context` syntax, the cache mode, the latency model and the
 * model a run was re-priced as. One line of text, one set of CSV columns, one JSON object.
 */
import type { BrakeConfig } from '../brakes/config.js';
import { contextSpecOf, type ContextStrategy } from '../context/strategy.js';
import type { LatencyModel } from '../loop/latency.js';
import { picoToUsdString } from '../money.js';

export interface ReportSettings {
  /** `--try` syntax; `none` without brakes; `recorded` (+ spec) when each run used its own recorded limits. */
  brakes: string;
  /** `full`, `window:K`, `mask:M`, `summary:…`, `hybrid:…` (`--context` syntax), plus `,tool-result-cap=T`. */
  context: string;
  /** `on`, `off`, or `as recorded (synthetic: off)` (the default). */
  cache: string;
  /** `--latency-model` syntax, or `as recorded`. */
  latency: string;
  /** `--model`: every run re-priced as this model. */
  model?: string;
}

/** Brake settings in `--try` syntax; modes only beside the brake they govern. `none` when no brake is set. */
export function brakeSpec(brakes: BrakeConfig): string {
  const parts: string[] = [];
  if (brakes.maxSteps !== undefined) parts.push(`max-steps=${brakes.maxSteps}`);
  if (brakes.maxCostPico !== undefined) parts.push(`max-cost=${picoToUsdString(brakes.maxCostPico)}`, `budget-mode=${brakes.budgetMode}`);
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
  return parts.length === 0 ? 'none' : parts.join(',');
}

export function contextSpec(strategy: ContextStrategy): string {
  const base = contextSpecOf(strategy);
  return strategy.toolResultCap === undefined ? base : `${base},tool-result-cap=${strategy.toolResultCap}`;
}

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
}): ReportSettings {
  const given = brakeSpec(args.brakes);
  const settings: ReportSettings = {
    brakes: args.perRunRecordedLimits ? (given === 'none' ? 'recorded' : `recorded+${given}`) : given,
    context: contextSpec(args.strategy),
    cache: args.strategy.cache ?? 'as recorded (synthetic: off)',
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
