/**
 * What a report's runs took of the settings no flag gave — the cache and the latency — said the one way
 * every report says them: `as recorded`, the synthetic runs' own, or `as recorded (synthetic: …)` with
 * both (runsCache, runsLatency); what one trace file's run took, for its own CSV row (runCache,
 * recordedRunPart); and the default rule said without the runs (defaultCacheSpec).
 */
import type { BrakeConfig } from '../brakes/config.js';
import { sameContext } from '../context/sameContext.js';
import { contextSpecOf, type CacheMode, type ContextStrategy } from '../context/strategy.js';
import type { LatencyModel } from '../loop/latency.js';

/**
 * The cache when `--cache` is not given: recorded runs bill it as recorded; synthetic runs as their
 * scenario file says (off when it says nothing, or when no file's cache applies).
 */
export function defaultCacheSpec(scenarioCaches: readonly (string | undefined)[] = []): string {
  return withSynthetic(syntheticCache(scenarioCaches));
}

/** The cache synthetic runs took without `--cache`: `off`, `on`, or `each scenario file's own` when the files differ. */
export function syntheticCache(scenarioCaches: readonly (string | undefined)[]): string {
  return ownLabel(scenarioCaches.map((mode) => mode ?? 'off')) ?? 'off';
}

/** The one value synthetic runs took, or `each scenario file's own` when they differ; undefined without any. */
function ownLabel(values: readonly string[]): string | undefined {
  const own = [...new Set(values)];
  return own.length > 1 ? "each scenario file's own" : own[0];
}

const AS_RECORDED = 'as recorded';
const WITH_SYNTHETIC = `${AS_RECORDED} (synthetic: `;

/** `as recorded (synthetic: …)`: recorded runs took theirs, synthetic runs `label`. */
function withSynthetic(label: string): string {
  return `${WITH_SYNTHETIC}${label})`;
}

/** The latency of runs that have nothing recorded to fall back on and no `--latency-model`: calls and tools take no time. */
export const NO_LATENCY = 'none';

export function latencySpec(latency: LatencyModel | undefined): string {
  if (!latency) return AS_RECORDED;
  return `call=${latency.perCallMs},input-token=${latency.perInputTokenMs},output-token=${latency.perOutputTokenMs},tool=${latency.perToolCallMs}`;
}

/**
 * The latency a scenario file's runs took, in `--latency-model` syntax: its own model (or the flag's, given
 * on top), else `none` — a synthetic call without a latency model takes no time: nothing recorded to fall back on.
 */
export function scenarioLatency(s: { latency?: LatencyModel }): string {
  return s.latency === undefined ? NO_LATENCY : latencySpec(s.latency);
}

/**
 * What a report's runs took of a setting no flag gave, cache and latency alike: `as recorded` when every
 * run took its recording's, the others' (`each scenario file's own` when they differ) when none did, and
 * with both `as recorded (synthetic: …)`.
 */
function asRecordedOr(anyRecorded: boolean, others: readonly string[]): string {
  const label = ownLabel(others);
  if (label === undefined) return AS_RECORDED;
  return anyRecorded ? withSynthetic(label) : label;
}

/**
 * What a trace file's run took of a setting a report's label names for all its runs (a CSV row of that
 * run alone): `as recorded` of `as recorded (synthetic: …)` (asRecordedOr); any other label a flag gave every run.
 */
export function recordedRunPart(label: string): string {
  return label.startsWith(WITH_SYNTHETIC) ? AS_RECORDED : label;
}

const SYNTHETIC_OWN = ' (synthetic: ';

/**
 * A setting a scenario file's runs take from the file (brakes, context) unless a flag gives it: `own` (the
 * flags', which trace files' runs take) unless a file's runs took others (`files`: each file's, as the
 * setting is written) — then those, named when the files share them, else `each scenario file's own, listed
 * below` (each file's line, or JSON `settings.scenarios`, names them); with recorded runs too, `own (synthetic: …)`.
 */
function runsOwn(own: string, files: readonly string[], recordedRuns: boolean): string {
  if (files.every((spec) => spec === own)) return own;
  const shared = new Set(files).size === 1 ? files[0]! : "each scenario file's own, listed below";
  return recordedRuns ? `${own}${SYNTHETIC_OWN}${shared})` : shared;
}

/** The brakes a report's runs took (runsOwn): the flags' (`own`), and each scenario file's (`files`: brakeSpec). */
export function runsBrakes(own: string, files: readonly string[], recordedRuns: boolean): string {
  return runsOwn(own, files, recordedRuns);
}

/** What runsContext says of the runs: the context (`--context` syntax where they took one) and the tool-result cap they all took (absent: none, or caps that differ). */
export interface ContextTook {
  context: string;
  toolResultCap?: number;
}

/**
 * The context and tool-result cap a report's runs took (a settings line, a sweep's row), decided on the strategies
 * (runsStrategy): where they took one — the flags' `own` (said `ownLabel` where given: every recorded run under its
 * recording's, so never one with scenario files' runs beside), or every scenario file's (`files`) — its context and
 * cap; else the context as the brakes are said (runsOwn: `full (synthetic: window:3)`), with the one cap the runs
 * took, or, where their caps differ, each strategy said with its cap (`capText`: contextText, `summary:… (synthetic:
 * summary:… · tool-result-cap 500)`) and no cap of its own.
 */
export function runsContext(args: { own: ContextStrategy; ownLabel?: string | undefined; files: readonly ContextStrategy[]; recordedRuns: boolean; capText: (strategy: ContextStrategy) => string }): ContextTook {
  const { own, files, recordedRuns } = args;
  const one = args.ownLabel !== undefined && files.length > 0 ? undefined : runsStrategy(own, files, recordedRuns);
  if (one !== undefined) return withCap(one === own ? (args.ownLabel ?? contextSpecOf(own)) : contextSpecOf(one), one.toolResultCap);
  const caps = new Set((recordedRuns ? [own, ...files] : files).map((strategy) => strategy.toolResultCap));
  if (caps.size === 1) return withCap(runsOwn(args.ownLabel ?? contextSpecOf(own), files.map(contextSpecOf), recordedRuns), [...caps][0]);
  return { context: runsOwn(args.ownLabel ?? args.capText(own), files.map(args.capText), recordedRuns) };
}

function withCap(context: string, toolResultCap: number | undefined): ContextTook {
  return toolResultCap === undefined ? { context } : { context, toolResultCap };
}

/**
 * The context strategy a report's runs took (the rule runsContext says in words): the flags' (`own`, which
 * trace files' runs take) when every scenario file's runs took it too (`files`: each file's), else the one every
 * file's runs took when no trace file's run is among them; none where the runs took several. Two strategies are one when their context and tool-result cap are (sameContext).
 */
export function runsStrategy(own: ContextStrategy, files: readonly ContextStrategy[], recordedRuns: boolean): ContextStrategy | undefined {
  if (files.every((file) => sameContext(file, own))) return own;
  if (recordedRuns || files.some((file) => !sameContext(file, files[0]!))) return undefined;
  return files[0];
}

/** What a trace file's run took of the brakes or context runsOwn names for all the runs: `own`, without what synthetic runs took. */
export function recordedRunBrakes(label: string): string {
  const at = label.indexOf(SYNTHETIC_OWN);
  return at < 0 ? label : label.slice(0, at);
}

/** Whether a scenario file's runs took its own context (replay, whatif), not only a cache (a sweep's threads: the sweep's context). */
export function tookOwnContext(strategy: RunsTook['scenarios'][number]['strategy']): strategy is ContextStrategy {
  return (strategy as Partial<ContextStrategy>).kind !== undefined;
}

/** One trace file's run's cache (RunResult.cache), as runsCache says it of that run alone: `as recorded`, `on` or `off`. */
export function runCache(cache: CacheMode): string {
  return runsCache({ recordedCaches: [cache], scenarios: [] });
}

/** What a report's runs were, for its settings line to say what they took of what no flag gave (runsCache, runsLatency). */
export interface RunsTook {
  /**
   * The cache each trace file's run took (RunResult.cache: `--cache`, else defaultCacheMode), one per run;
   * or each cache they took once (a sweep's threads: only which were taken, and whether any run was, counts).
   */
  recordedCaches: readonly CacheMode[];
  /**
   * The scenario files among the inputs, each with the settings its runs took (the flags given on top);
   * `brakes` and a whole `strategy` (its context) where they took the file's own (replay, whatif: not a
   * sweep, whose configurations replace them and give only the cache).
   */
  scenarios: readonly { latency?: LatencyModel; strategy: Pick<ContextStrategy, 'cache'> | ContextStrategy; brakes?: BrakeConfig }[];
}

/**
 * The latency a report's settings line names for its runs, the one rule of every command: `--latency-model`
 * when given (every run took it); else recorded runs took theirs `as recorded` and synthetic runs their
 * scenario file's (scenarioLatency) — with both, `as recorded (synthetic: …)`, as the cache is said (runsCache).
 */
export function runsLatency(args: { given?: LatencyModel; recordedRuns: number; scenarios: readonly { latency?: LatencyModel }[] }): string {
  if (args.given !== undefined) return latencySpec(args.given);
  return asRecordedOr(args.recordedRuns > 0, args.scenarios.map(scenarioLatency));
}

/**
 * The cache a report's settings line names for its runs: `--cache` when given; else what each run took —
 * a trace file's run its recorded cache (defaultCacheMode: recorded traces, and recordings `generate` wrote
 * with the cache on) or `off` (a recording that carries none), a scenario file's run the file's cache.
 */
export function runsCache(args: { given?: CacheMode } & RunsTook): string {
  if (args.given !== undefined) return args.given;
  const recorded = args.recordedCaches.filter((mode) => mode === 'recorded');
  const others = [...new Set(args.recordedCaches.filter((mode) => mode !== 'recorded')), ...args.scenarios.map((s) => s.strategy.cache ?? 'off')];
  return asRecordedOr(recorded.length > 0, others);
}
