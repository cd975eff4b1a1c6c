/**
 * The command-line flags that override a scenario file: only those the user gave (a flag left at its
 * default must not override the file). `--preset recorded` means each input's own settings: for a
 * scenario, the brakes in its file.
 */
import { latencyFromSpec, RECORDED_PRESET, type BrakeFlags, type ContextFlags } from '../flags/settingsFlags.js';
import { nonNegativeInt, positiveInt } from '../flags/numberFlags.js';
import { SCENARIO_RUNS_LIMIT } from '../flags/numberFlags.js';
import type { ScenarioOverrides } from './settings.js';
import { UserError, type InputIssue } from '../errors.js';
import type { NamedPlace } from '../options/given.js';

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

/** The `overrides` field a flag stands for (`--max-steps` → `brakeFlags.maxSteps`, `--context` → `contextFlags.context`). */
export function overrideFieldOfFlag(flag: string): string | undefined {
  const key = flag.replace(/^--/, '').replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase());
  if ((CONTEXT_KEYS as string[]).includes(key)) return `contextFlags.${key}`;
  if ((BRAKE_KEYS as string[]).includes(key)) return `brakeFlags.${key}`;
  return undefined;
}

/** Where a library caller gave an `overrides` field (`overrides.brakeFlags.maxSteps` → `<loadCheckInputs arguments>` field …). */
export type OverridesPlace = (field: string) => NamedPlace;

/**
 * `settle()`, a library entry point's `overrides` read by the flags' own parsers: a complaint about a
 * flag (`<command line>` field `--context`) is placed where the caller gave the value (`at`:
 * `<loadCheckInputs arguments>` field `overrides.contextFlags.context`), as a scenario file's is at its key.
 */
export function asOverridesGiven<T>(at: OverridesPlace, settle: () => T): T {
  try {
    return settle();
  } catch (error) {
    if (!(error instanceof UserError)) throw error;
    throw new UserError(error.issues.map((issue) => placedAt(at, issue)));
  }
}

function placedAt(at: OverridesPlace, issue: InputIssue): InputIssue {
  const field = issue.file === '<command line>' && issue.field !== undefined ? overrideFieldOfFlag(issue.field) : undefined;
  return field === undefined ? issue : { ...issue, ...at(`overrides.${field}`) };
}
