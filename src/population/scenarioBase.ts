/**
 * A scenario file's own settings as the base of a sweep's configurations for its runs (sweep, calibrate),
 * as replay, check and project run a file (src/scenario/settings.ts): the file's brakes and context, the
 * flags given on top, and each configuration's grid values on top of those. A preset given (a flag or a
 * grid axis) replaces the file's brakes, as `--preset` does. Recorded runs beside the files take the
 * configuration alone, as replay gives them the flags alone.
 *
 * What a file sets that neither a flag nor a grid axis gives is its base (scenarioBaseOf); each
 * configuration then carries, per scenario whose runs it changes, the brakes and context those runs take
 * (PopulationConfig.perScenario, read by the population runner and the synthetic sweep: run.ts
 * scenarioConfig). Pure: no node:*, no clock.
 */
import { canonicalJson } from '../brakes/fingerprint.js';
import type { BrakeFlags, ContextFlags } from '../flags/settingsFlags.js';
import type { StrategyPlace } from '../context/strategy.js';
import type { Scenario } from '../scenario/load.js';
import { fileSettings } from '../scenario/settings.js';
import { configurationOf, type FixedSettings, type GridAxis, type GridConfiguration, type MadeSettings } from './grid.js';
import type { ScenarioConfig } from './run.js';

/** A file's brake and context settings that no flag given and no grid axis gives, as the flags they stand for. */
export interface ScenarioBase {
  brakeFlags: BrakeFlags;
  contextFlags: ContextFlags;
}

/** What the file sets that the flags given (`fixed`) and the grid axes leave to it; undefined when nothing. */
export function scenarioBaseOf(scenario: Pick<Scenario, 'brakes' | 'context'>, fixed: Pick<FixedSettings, 'brakeFlags' | 'contextFlags'>, axes: readonly GridAxis[]): ScenarioBase | undefined {
  const gridKeys = new Set(axes.map((axis) => axis.key));
  const presetGiven = fixed.brakeFlags.preset !== undefined || gridKeys.has('preset');
  const base: ScenarioBase = { brakeFlags: {}, contextFlags: {} };
  let any = false;
  for (const setting of fileSettings(scenario)) {
    if (gridKeys.has(setting.key) || (setting.section === 'brakes' && presetGiven)) continue;
    const into = (setting.section === 'brakes' ? base.brakeFlags : base.contextFlags) as Record<string, string>;
    const given = (setting.section === 'brakes' ? fixed.brakeFlags : fixed.contextFlags) as Record<string, string | undefined>;
    if (given[setting.flag] !== undefined) continue;
    into[setting.flag] = setting.value;
    any = true;
  }
  return any ? base : undefined;
}

/** A scenario's base and where its context was written (the file's `context`, named in a complaint about it). */
export interface ScenarioBaseInput {
  base: ScenarioBase | undefined;
  strategyPlace?: StrategyPlace;
}

/**
 * The configurations, each carrying (perScenario) the brakes and context of each scenario whose base
 * changes them; configurations no base changes are returned as they are. Objects are shared as
 * gridConfigurations shares them (one per distinct value, per scenario).
 */
export function withScenarioBases(configurations: GridConfiguration[], fixed: FixedSettings, scenarios: readonly ScenarioBaseInput[]): GridConfiguration[] {
  if (scenarios.every((s) => s.base === undefined)) return configurations;
  const made: MadeSettings[] = scenarios.map(() => ({ brakes: new Map(), strategies: new Map() }));
  // Whether a scenario's brakes (strategy) are the configuration's: by the pair of objects, each compared once.
  const same = new Map<object, Map<object, boolean>>();
  const equal = (a: object, b: object): boolean => {
    let row = same.get(a);
    if (row === undefined) same.set(a, (row = new Map()));
    let known = row.get(b);
    if (known === undefined) row.set(b, (known = a === b || canonicalJson(a) === canonicalJson(b)));
    return known;
  };
  return configurations.map((c) => {
    const perScenario = scenarios.map(({ base, strategyPlace }, s): ScenarioConfig | undefined => {
      if (base === undefined) return undefined;
      const { brakes, strategy } = configurationOf(c.values, fixed, made[s], base).config;
      if (equal(brakes, c.config.brakes) && equal(strategy, c.config.strategy)) return undefined;
      const place = strategyPlace !== undefined && base.contextFlags.context !== undefined ? { strategyPlace } : {};
      return { brakes: equal(brakes, c.config.brakes) ? c.config.brakes : brakes, strategy: equal(strategy, c.config.strategy) ? c.config.strategy : strategy, ...place };
    });
    return perScenario.every((own) => own === undefined) ? c : { ...c, config: { ...c.config, perScenario } };
  });
}
