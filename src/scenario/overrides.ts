/**
 * The command-line flags that override a scenario file: only those the user gave (a flag left at its
 * default must not override the file). `--preset recorded` means each input's own settings: for a
 * scenario, the brakes in its file.
 */
import { latencyFromSpec, RECORDED_PRESET, type BrakeFlags, type ContextFlags } from '../flags/settingsFlags.js';
import { nonNegativeInt, positiveInt } from '../flags/numberFlags.js';
import { SCENARIO_RUNS_LIMIT } from '../flags/numberFlags.js';
import type { ScenarioOverrides } from './settings.js';

const BRAKE_KEYS: (keyof BrakeFlags)[] = [
  'preset', 'maxSteps', 'maxCost', 'budgetMode', 'timeout', 'maxRepeat', 'repeatMode', 'repeatAction', 'maxSameError', 'sameErrorMode', 'maxTokens', 'maxBacktracks', 'contextWindow', 'maxOutputTokens',
];
const CONTEXT_KEYS: (keyof ContextFlags)[] = ['context', 'toolResultCap', 'cache'];

export interface ScenarioFlagValues extends BrakeFlags, ContextFlags {
  latencyModel?: string;
  runs?: string;
  seed?: string;
  /** `project`: --seed also seeds the simulated days, so it does something without a scenario file. */
  seedSeedsProjection?: boolean;
}

/** `given(key)`: the user set this flag (commander: its value source is not 'default'). */
export function scenarioOverridesFromFlags(flags: ScenarioFlagValues, given: (key: string) => boolean): ScenarioOverrides {
  const pick = <K extends string>(keys: K[]) =>
    Object.fromEntries(keys.filter((key) => (flags as Record<string, unknown>)[key] !== undefined && given(key)).map((key) => [key, (flags as Record<string, unknown>)[key]]));
  const brakeFlags = pick(BRAKE_KEYS) as BrakeFlags;
  if (brakeFlags.preset === RECORDED_PRESET) delete brakeFlags.preset;
  const overrides: ScenarioOverrides = { brakeFlags, contextFlags: pick(CONTEXT_KEYS) as ContextFlags };
  if (flags.latencyModel !== undefined) overrides.latency = latencyFromSpec(flags.latencyModel);
  if (flags.runs !== undefined) overrides.runs = positiveInt('--runs', flags.runs, SCENARIO_RUNS_LIMIT);
  if (flags.seed !== undefined) overrides.seed = nonNegativeInt('--seed', flags.seed);
  return overrides;
}
