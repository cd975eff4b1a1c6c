/**
 * A sweep's report rows (rowsOf): each configuration's figures and what it says of how its runs ran —
 * the cache and latency they took (the settings' labels) and the flags before a configuration's that
 * make `replay` run scenario files as the sweep ran them.
 */
import { contextSpecOf, type CacheMode, type ContextStrategy } from '../../context/strategy.js';
import type { GridConfiguration } from '../../population/grid.js';
import type { SweepMetrics } from '../../population/sweep.js';
import { brakeSpec, settingsFlags } from '../../report/settings.js';
import type { SweepRow } from '../../report/sweepReport.js';
import { runsCache, type RunsTook } from '../../report/runsTook.js';
import type { ScenarioInput } from '../../scenario/replayScenarios.js';

/**
 * What a sweep's runs took of the cache and latency no flag gave, under a configuration's `cache` (the grid's
 * or --cache): each trace its own cache (`recordedCaches`, each once) and the synthetic runs the
 * configuration's — off without one: they take the sweep's context, not their files' — with their files' latency.
 */
export function sweepTook(took: SweepRunsTook, cache: CacheMode | undefined): RunsTook {
  const strategy: Pick<ContextStrategy, 'cache'> = cache === undefined ? {} : { cache };
  return { recordedCaches: took.recordedCaches, scenarios: took.scenarios.map(({ settings }) => ({ strategy, ...(settings.latency === undefined ? {} : { latency: settings.latency }) })) };
}

/** The cache a configuration's runs took, said as every settings line says it (runsCache): its own, else what each run took. */
export function configurationCache(config: GridConfiguration['config'], took: SweepRunsTook): string {
  const cache = config.strategy.cache;
  return runsCache({ ...sweepTook(took, cache), ...(cache === undefined ? {} : { given: cache }) });
}

/** What a sweep's rows need of its runs to say the cache each configuration's runs took (configurationCache). */
export type SweepRunsTook = { recordedCaches: readonly CacheMode[]; scenarios: readonly ScenarioInput[] };

/**
 * What `replay` of scenario files needs before a configuration's flags to run them as the sweep did: the
 * sweep gives brakes and context itself, where `replay` applies each file's own with the flags on top — so
 * `--preset none` (no brakes but the flags'), `--context full` when the configuration keeps the whole
 * history, and, with no trace files beside them, `--cache off` when no cache was given (a sweep's synthetic
 * runs take the sweep's cache). With trace files too, the cache is left to each input as the sweep left it.
 */
export function scenarioFilesFlags(config: GridConfiguration['config'], took: SweepRunsTook): string {
  if (took.scenarios.length === 0) return '';
  const context = config.strategy.kind === 'full' ? '--context full ' : '';
  const cache = config.strategy.cache === undefined && took.recordedCaches.length === 0 ? '--cache off ' : '';
  return `--preset none ${context}${cache}`;
}

/** Report rows: each configuration's settings and figures (`tree`: over session trees, `--tree`), and the cache its runs `took`. */
export function rowsOf(slice: readonly GridConfiguration[], metrics: readonly SweepMetrics[], over: { tree?: boolean; took: SweepRunsTook }): SweepRow[] {
  // Configurations share their brakes and strategy objects (gridConfigurations): each said once.
  const brakes = new Map<GridConfiguration['config']['brakes'], string>();
  const strategies = new Map<GridConfiguration['config']['strategy'], { context: string; cache: string; scenarioFlags: string }>();
  return slice.map((c, i) => {
    const { config } = c;
    let spec = brakes.get(config.brakes);
    if (spec === undefined) brakes.set(config.brakes, (spec = brakeSpec(config.brakes)));
    let strategy = strategies.get(config.strategy);
    if (strategy === undefined) strategies.set(config.strategy, (strategy = { context: contextSpecOf(config.strategy), cache: configurationCache(config, over.took), scenarioFlags: scenarioFilesFlags(config, over.took) }));
    return {
      settings: c.settings,
      flags: strategy.scenarioFlags + settingsFlags({ ...config, ...(over.tree === true ? { tree: config.subagent === undefined ? {} : { subagent: config.subagent } } : {}) }),
      brakes: spec,
      context: strategy.context,
      ...(config.strategy.toolResultCap === undefined ? {} : { toolResultCap: config.strategy.toolResultCap }),
      cache: strategy.cache,
      ...(config.model === undefined ? {} : { model: config.model }),
      ...metrics[i]!,
    };
  });
}
