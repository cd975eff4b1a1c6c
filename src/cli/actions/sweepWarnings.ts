/**
 * What could make a sweep's or a calibration's figures mislead, one warning each: the price table does
 * not price the recorded runs as they were billed (runs a configuration prices as their own model; a model
 * grid that prices none so says there is no such check), recorded runs swept under a context strategy they
 * were not recorded with (open loop), the cache on with a model the table gives no cached-input price
 * (scenarioWarnings.ts, as replay says it), and `--context-window model` on runs whose model the table
 * gives no window (population/modelWindow.ts), the brakes and context scenario files set that the sweep
 * replaced (unusedFileSettings: its configurations are the grid and the flags given, the same for every input),
 * and under `--tree` the started sub-agents with no recording among the inputs (once per tree, as replay --tree).
 */
import { isIdentity } from '../../context/strategy.js';
import { PopulationWindows } from '../../population/modelWindow.js';
import type { PriceGapCheck } from '../../pricing/recordedCost.js';
import { canonicalJson } from '../../brakes/fingerprint.js';
import { shellWord } from '../../report/settings.js';
import { noPriceCheckWarnings, openLoopWarnings, PRICE_GAP_TOLERANCE, priceGapWarnings, unrecordedAgentsWarnings, unusedFileSettingsWarnings, type ReportWarning, type UnrecordedInTree, type UnusedFileSettings } from '../../report/warnings.js';
import { fileSettings, type FileSetting } from '../../scenario/settings.js';
import type { Trace } from '../../trace/types.js';
import { brakesFromFlags, strategyFromFlags, type BrakeFlags, type ContextFlags } from '../../flags/settingsFlags.js';
import { splitPriceGaps } from './sweepPricing.js';
import type { SweepSetup } from './sweepWork.js';
import type { GivenFlag } from './inputs.js';
import { cacheOnWarnings, fittedProfileWarnings, unreadTracesWarnings } from './scenarioWarnings.js';

/** Over every configuration (a shard's header says what the whole grid's does): the runs' models where one takes the model's window. */
export function gridWindows(setup: Pick<SweepSetup, 'configurations' | 'prices'>): PopulationWindows {
  return PopulationWindows.of(setup.configurations.map((c) => c.config), setup.prices);
}

/** The models of `traces` (each run's own, or a configuration's) that a configuration's `--context-window model` finds no window for. */
export function recordedWindowless(setup: Pick<SweepSetup, 'configurations' | 'prices'>, traces: readonly Trace[]): string[] {
  return gridWindows(setup).addInputs({ traces }).models();
}

/**
 * `windowless`: recordedWindowless of the recorded runs read (on every thread); the scenario files' runs are
 * added here. `traces`: the recorded runs, when this thread holds them all (calibrate), for the cache warning;
 * the scenario files' runs take the configurations' cache (not their files'), so they are warned of under it.
 */
export function gridWarnings(args: { setup: Pick<SweepSetup, 'axes' | 'fixed' | 'configurations' | 'prices' | 'scenarios'>; recordedRuns: number; priceGaps: PriceGapCheck; windowless: readonly string[]; inputs: readonly string[]; traces?: readonly Trace[]; given: GivenFlag; command?: 'sweep' | 'calibration'; unrecorded?: readonly UnrecordedInTree[] }): ReportWarning[] {
  const { setup, recordedRuns } = args;
  const strategy = strategyFromFlags(setup.fixed.contextFlags);
  const swept = setup.axes.some((axis) => axis.key === 'context' || axis.key === 'tool-result-cap');
  const windows = gridWindows(setup).add(args.windowless);
  for (const { scenario } of setup.scenarios) windows.addScenario(scenario);
  // Gaps of runs a configuration prices as their own model; a model grid that prices none so says why there is no check.
  const { checked, unchecked } = splitPriceGaps(setup, args.priceGaps);
  const modelGrid = setup.axes.some((axis) => axis.key === 'model');
  return [
    ...priceGapWarnings(checked.gaps(PRICE_GAP_TOLERANCE), args.inputs),
    ...(modelGrid && checked.sums().length === 0 ? noPriceCheckWarnings(unchecked) : []),
    ...(swept || !isIdentity(strategy) ? openLoopWarnings(recordedRuns, swept ? 'as swept' : strategy.kind) : []),
    ...cacheOnWarnings(
      setup.configurations.map((c) => c.config),
      { prices: setup.prices, scenarios: setup.scenarios.map((s) => s.scenario), ...(args.traces === undefined ? {} : { traces: args.traces }) },
    ),
    ...windows.warnings(),
    ...unreadTracesWarnings(setup.scenarios.map((s) => s.scenario)),
    ...fittedProfileWarnings(setup.scenarios.map((s) => s.scenario), setup.prices),
    ...unusedFileSettingsWarnings(unusedFileSettings(setup, args.given), args.command ?? 'sweep'),
    // `--tree`: once per tree whose tool calls started agents with no recording among the inputs, as replay --tree says it.
    ...unrecordedAgentsWarnings(args.unrecorded ?? []),
  ];
}

/** Whether a file's setting is what the sweep's runs take with none given: no brake (`preset: none`), `context: full`, `cache: off`. */
function isSweepDefault(setting: FileSetting): boolean {
  if (setting.section === 'brakes') return canonicalJson(brakesFromFlags({ [setting.flag as keyof BrakeFlags]: setting.value })) === canonicalJson(brakesFromFlags({}));
  const strategy = strategyFromFlags({ [setting.flag as keyof ContextFlags]: setting.value });
  return canonicalJson({ ...strategy, cache: strategy.cache ?? 'off' }) === canonicalJson({ ...strategyFromFlags({}), cache: 'off' });
}

/**
 * What each scenario file sets of the brakes and context (src/scenario/settings.ts) that the sweep replaced:
 * neither a grid axis nor a flag gave it, and it is not what the runs take with none given. A preset given
 * (flag or axis) replaces a file's brakes as replay's does, so then only its context is said. Files that set
 * the same share one group, in the inputs' order.
 */
export function unusedFileSettings(setup: Pick<SweepSetup, 'axes' | 'scenarios'>, flagGiven: GivenFlag): UnusedFileSettings[] {
  const gridKeys = new Set(setup.axes.map((axis) => axis.key));
  const presetGiven = gridKeys.has('preset') || flagGiven('preset');
  // A flag given on the command line (not its default: --context is full unless given).
  const given = (s: FileSetting) => gridKeys.has(s.key) || flagGiven(s.flag) || (s.section === 'brakes' && presetGiven);
  const groups = new Map<string, { files: string[]; settings: UnusedFileSettings['settings'] }>();
  for (const { scenario } of setup.scenarios) {
    const unused = fileSettings(scenario).filter((s) => !given(s) && !isSweepDefault(s));
    if (unused.length === 0) continue;
    const settings = unused.map((s) => ({ key: s.key, value: s.value, flag: `--${s.key} ${shellWord(s.value)}` }));
    const key = canonicalJson(settings);
    const group = groups.get(key) ?? { files: [], settings };
    group.files.push(scenario.source);
    groups.set(key, group);
  }
  return [...groups.values()];
}
