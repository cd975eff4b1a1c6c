/**
 * A sweep's report rows (rowsOf): each configuration's figures and what it says of how its runs ran —
 * the brakes, context, cache and latency they took (the settings' labels: a scenario file's runs take its
 * own settings under the flags and the grid's, scenarioBase.ts) and the flags that make `replay` run the
 * inputs as the sweep ran them.
 */
import type { BrakeConfig } from '../../brakes/config.js';
import type { CacheMode, ContextStrategy } from '../../context/strategy.js';
import { BRAKE_GRID_KEYS, configurationOf, CONTEXT_GRID_KEYS, type FixedSettings, type GridAxis, type GridConfiguration } from '../../population/grid.js';
import { scenarioConfig } from '../../population/run.js';
import { scenarioBaseOf } from '../../population/scenarioBase.js';
import type { SweepMetrics } from '../../population/sweep.js';
import { brakeSpec, contextText, reportSettings, settingsFlags, settingsText, shellWord } from '../../report/settings.js';
import { scenarioRunsText } from '../../report/scenarios.js';
import type { SweepRow } from '../../report/sweepReport.js';
import { SCENARIO_LINE_START } from '../../report/sweepTable.js';
import { latencySpec, runsBrakes, runsCache, runsContext, runsStrategy, type ContextTook, type RunsTook } from '../../report/runsTook.js';
import type { ScenarioInput } from '../../scenario/replayScenarios.js';
import { everyStopReason } from '../../report/stopReasonCounts.js';

/**
 * What a sweep's runs took of the cache and latency no flag gave, under a configuration's `cache` (the grid's
 * or --cache): each trace its own cache (`recordedCaches`, each once) and the synthetic runs the
 * configuration's — off without one — with their files' latency (project: its one configuration is the files').
 */
export function sweepTook(took: SweepRunsTook, cache: CacheMode | undefined): RunsTook {
  const strategy: Pick<ContextStrategy, 'cache'> = cache === undefined ? {} : { cache };
  return { recordedCaches: took.recordedCaches, scenarios: took.scenarios.map(({ settings }) => ({ strategy, ...(settings.latency === undefined ? {} : { latency: settings.latency }) })) };
}

/**
 * What a sweep's (a calibration's) runs took, the grid's axes aside, for its settings line: each scenario
 * file's runs its own brakes and context under the flags given (scenarioBase.ts) and its latency; each
 * trace its own cache where no flag gave one.
 */
export function sweepTookOwn(setup: SweepRunsTook & { fixed: FixedSettings; axes: readonly GridAxis[] }): RunsTook {
  const scenarios = setup.scenarios.map(({ scenario, settings }) => {
    const { brakes, strategy } = configurationOf({}, setup.fixed, undefined, scenarioBaseOf(scenario, setup.fixed, setup.axes)).config;
    return { brakes, strategy, ...(settings.latency === undefined ? {} : { latency: settings.latency }) };
  });
  return { recordedCaches: setup.recordedCaches, scenarios };
}

/**
 * What a sweep's rows need of its runs to say what each configuration's runs took (configurationParts); `fixed`:
 * the flags given, which a row's flags repeat where scenario files are among the inputs; `runFlags`: the
 * `--runs` and `--seed` given with scenario files (sweepReproduce.ts syntheticRunFlags), which start every row's flags.
 */
export type SweepRunsTook = { recordedCaches: readonly CacheMode[]; scenarios: readonly ScenarioInput[]; fixed?: FixedSettings; runFlags?: string };

/**
 * The flags given and the configuration's grid values, as given (`--preset reference --max-repeat 3
 * --context full`): what `replay` of scenario files takes to run them as the sweep did — each file's own
 * brakes and context with these on top (a preset replacing its brakes), trace files under these alone.
 * Spelled out from the configuration's brakes instead (settingsFlags), a mode each brake is written with
 * (`--repeat-mode total`) would replace a file's own.
 */
export function givenFlags(c: Pick<GridConfiguration, 'values' | 'config'>, fixed: FixedSettings): string {
  const parts: [string, string][] = [];
  for (const [key, flag] of Object.entries(BRAKE_GRID_KEYS)) parts.push([key, c.values[key] ?? fixed.brakeFlags[flag]!]);
  for (const [key, flag] of Object.entries(CONTEXT_GRID_KEYS)) parts.push([key, c.values[key] ?? fixed.contextFlags[flag]!]);
  if (fixed.latency !== undefined) parts.push(['latency-model', latencySpec(fixed.latency)]);
  parts.push(['model', c.values.model ?? fixed.model!]);
  return parts.flatMap(([name, value]) => (value === undefined ? [] : [`--${name} ${shellWord(value)}`])).join(' ');
}

/** What a row says of its configuration: the flags that reproduce it, and the brakes, context, tool-result cap and cache its runs took (each scenario file's own where they differ: runsBrakes, runsContext). */
export interface ConfigurationParts extends ContextTook {
  flags: string;
  brakes: string;
  cache: string;
}

/** configurationParts, each brakes and strategy object said once over the rows (configurations share them: gridConfigurations). */
export function configurationSayer(took: SweepRunsTook, tree?: boolean): (c: GridConfiguration) => ConfigurationParts {
  const brakes = new Map<BrakeConfig, string>();
  const strategies = new Map<ContextStrategy, ContextTook & { cache: string }>();
  const recorded = took.recordedCaches.length > 0;
  const brakeText = (b: BrakeConfig): string => brakes.get(b) ?? (brakes.set(b, brakeSpec(b)), brakes.get(b)!);
  const given = took.scenarios.length > 0 && took.fixed !== undefined && tree !== true ? took.fixed : undefined;
  const runFlags = took.runFlags ?? '';
  return (c) => {
    const { config } = c;
    const settingFlags = given !== undefined ? givenFlags(c, given) : settingsFlags({ ...config, ...(tree === true ? { tree: config.subagent === undefined ? {} : { subagent: config.subagent } } : {}) });
    // The runs first (`--runs 300 --seed 3`): pasted after `replay INPUTS`, the flags make the runs the sweep made.
    const flags = [runFlags, settingFlags].filter((words) => words !== '').join(' ');
    let strategy = strategies.get(config.strategy);
    if (strategy === undefined) strategies.set(config.strategy, (strategy = { ...runsContext({ own: config.strategy, files: [], recordedRuns: recorded, capText: contextText }), cache: configurationCache(config, took) }));
    if (config.perScenario === undefined) return { flags, brakes: brakeText(config.brakes), ...strategy };
    const own = took.scenarios.map((_, s) => scenarioConfig(config, s));
    return {
      flags,
      brakes: runsBrakes(brakeText(config.brakes), own.map((o) => brakeText(o.brakes)), recorded),
      ...runsContext({ own: config.strategy, files: own.map((o) => o.strategy), recordedRuns: recorded, capText: contextText }),
      cache: runsCache({ recordedCaches: took.recordedCaches, scenarios: own, ...(config.strategy.cache === undefined ? {} : { given: config.strategy.cache }) }),
    };
  };
}

/**
 * The context strategy a configuration's runs took (runsTook.ts runsStrategy): its own, or the one every scenario
 * file's runs took; none where they differ. What its summary warnings name (calibrate; sweep through its rows'
 * context and tool-result cap, which say this strategy where there is one).
 */
export function configurationStrategy(config: GridConfiguration['config'], took: SweepRunsTook): ContextStrategy | undefined {
  if (config.perScenario === undefined) return config.strategy;
  return runsStrategy(config.strategy, took.scenarios.map((_, s) => scenarioConfig(config, s).strategy), took.recordedCaches.length > 0);
}

/** The cache a configuration's runs took, said as every settings line says it (runsCache): its own, else what each run took. */
export function configurationCache(config: GridConfiguration['config'], took: SweepRunsTook): string {
  const cache = config.strategy.cache;
  return runsCache({ ...sweepTook(took, cache), ...(cache === undefined ? {} : { given: cache }) });
}

/** Report rows: each configuration's settings and figures (`tree`: over session trees, `--tree`), and the cache its runs `took`. */
export function rowsOf(slice: readonly GridConfiguration[], metrics: readonly SweepMetrics[], over: { tree?: boolean; took: SweepRunsTook }): SweepRow[] {
  const say = configurationSayer(over.took, over.tree);
  return slice.map((c, i) => {
    const { config } = c;
    // The context and cap the runs took (a scenario file's own too); no cap where their caps differ (runsContext).
    const { flags, brakes, context, toolResultCap, cache } = say(c);
    return {
      settings: c.settings,
      flags,
      brakes,
      context,
      ...(toolResultCap === undefined ? {} : { toolResultCap }),
      cache,
      ...(config.model === undefined ? {} : { model: config.model }),
      ...metrics[i]!,
      // Every stop reason, 0 where none (its place among the figures kept): columns and keys that never change with the data.
      stopReasons: everyStopReason(metrics[i]!.stopReasons),
    };
  });
}

/** The note that says how a sweep's (a calibration's) synthetic runs ran, and where the scenario files' own settings differ, one `synthetic:` line per file. */
export function scenarioNotes(setup: Pick<SweepRunsTook, 'scenarios'> & { fixed: FixedSettings; axes: readonly GridAxis[] }, command: 'sweep' | 'calibrate'): string[] {
  if (setup.scenarios.length === 0) return [];
  const verb = command === 'sweep' ? 'run' : 'judged';
  const note = `Synthetic runs are closed-loop, ${verb} under their scenario files' own brakes, context and cache with the flags given and each configuration's grid values on top, as replay runs them (the files also give the population, runs, seed and latency); recorded runs take the flags and grid values alone.`;
  const own = sweepTookOwn({ ...setup, recordedCaches: [] }).scenarios.map((s) => {
    const spec = reportSettings({ brakes: s.brakes!, strategy: { ...s.strategy, cache: (s.strategy as ContextStrategy).cache ?? 'off' } as ContextStrategy, grid: setup.axes });
    return settingsText({ brakes: spec.brakes, context: spec.context, ...(spec.toolResultCap === undefined ? {} : { toolResultCap: spec.toolResultCap }), cache: spec.cache });
  });
  if (new Set(own).size <= 1) return [note];
  return [note, ...setup.scenarios.map((input, i) => `${SCENARIO_LINE_START}${scenarioRunsText({ source: input.scenario.source, ...input.settings })} · ${own[i]!}`)];
}
