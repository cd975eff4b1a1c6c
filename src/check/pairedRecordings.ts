/**
 * The recorded part of a scenario paired with its baseline (pairedAgents.ts). Recorded runs replay exactly (no
 * draw, no noise), so a scenario with recordings beside its synthetic population is paired as one without: the
 * baseline's agents run again on this check's draws, beside the baseline's recorded runs — the recordings as
 * they are now, replayed under the settings the baseline stored (its brakes, context, cache, latency, model).
 * Those recorded runs are trusted only where, beside the baseline's agents at its own seed and run count, they
 * give the baseline's own figures (a recording changed since, or replayed otherwise, does not).
 */
import type { BrakeConfig } from '../brakes/config.js';
import type { ContextStrategy } from '../context/strategy.js';
import { latencyFromSpec, strategyFromFlags } from '../flags/settingsFlags.js';
import { configurationRuns, type PopulationRun } from '../population/run.js';
import type { PriceTable } from '../pricing/types.js';
import type { Trace } from '../trace/types.js';

/** The recordings a check replayed beside its synthetic agents, and the strategy they replayed under (run.ts). */
export interface CheckRecordings {
  traces: readonly Trace[];
  strategy: ContextStrategy;
}

/** `recordedCache` in a baseline's stored settings: how its recordings replayed their cache (`recorded`: each trace's own). */
export const RECORDED_CACHE = 'recordedCache';
const AS_RECORDED = 'recorded';

/** The value stored for the recordings' cache: the mode they replayed under, or `recorded` (each trace's own). */
export function recordedCacheOf(strategy: ContextStrategy): string {
  return strategy.cache ?? AS_RECORDED;
}

/**
 * The recordings replayed under stored settings, once per way their cache may have been replayed: the stored
 * `recordedCache`, or for a baseline written before it, each trace's own and then the synthetic runs' cache.
 */
export function recordedRunsUnder(recordings: CheckRecordings, stored: { settings: Record<string, string>; brakes: BrakeConfig }, prices: PriceTable): PopulationRun[][] {
  const { settings } = stored;
  const caches = settings[RECORDED_CACHE] !== undefined ? [settings[RECORDED_CACHE]] : [AS_RECORDED, settings.cache ?? 'off'];
  const latency = settings.latency === undefined ? {} : { latency: latencyFromSpec(settings.latency) };
  const model = settings.model === undefined ? {} : { model: settings.model };
  return [...new Set(caches)].map((cache) => {
    const flags = { context: settings.context ?? 'full', ...(cache === AS_RECORDED ? {} : { cache }), ...(settings.toolResultCap === undefined ? {} : { toolResultCap: settings.toolResultCap }) };
    return recordings.traces.length === 0 ? [] : configurationRuns({ traces: recordings.traces }, { brakes: stored.brakes, strategy: strategyFromFlags(flags), ...latency, ...model }, prices);
  });
}
