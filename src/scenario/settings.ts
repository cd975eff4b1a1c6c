/**
 * A scenario's settings as the loop takes them, with the command line on top: flags given override the
 * file. A preset given on the command line replaces the file's brakes (a preset is a whole set of
 * brakes); other brake flags override the file's one by one. Context flags override one by one too.
 */
import type { BrakeConfig } from '../brakes/config.js';
import { brakesFromFlags, strategyFromFlags, type BrakeFlags, type ContextFlags } from '../flags/settingsFlags.js';
import type { ContextStrategy } from '../context/strategy.js';
import type { LatencyModel } from '../loop/latency.js';
import type { AnyScenarioFile } from './schema.js';

export const DEFAULT_RUNS = 100;
export const DEFAULT_SEED = 1;
export const DEFAULT_HARD_CAP_STEPS = 500;

/** What the command line said explicitly (absent: the file decides). */
export interface ScenarioOverrides {
  brakeFlags?: BrakeFlags;
  contextFlags?: ContextFlags;
  latency?: LatencyModel;
  runs?: number;
  seed?: number;
}

export interface ScenarioSettings {
  brakes: BrakeConfig;
  strategy: ContextStrategy;
  latency?: LatencyModel;
  runs: number;
  seed: number;
}

const BRAKE_FLAG_NAMES: Record<string, keyof BrakeFlags> = {
  preset: 'preset',
  'max-steps': 'maxSteps',
  'max-cost': 'maxCost',
  'budget-mode': 'budgetMode',
  timeout: 'timeout',
  'max-repeat': 'maxRepeat',
  'repeat-mode': 'repeatMode',
  'repeat-action': 'repeatAction',
  'max-same-error': 'maxSameError',
  'same-error-mode': 'sameErrorMode',
  'max-tokens': 'maxTokens',
  'max-backtracks': 'maxBacktracks',
  'context-window': 'contextWindow',
};

const CONTEXT_FLAG_NAMES: Record<string, keyof ContextFlags> = { context: 'context', 'tool-result-cap': 'toolResultCap', cache: 'cache' };

function asFlags<F extends object>(section: Record<string, unknown> | undefined, names: Record<string, keyof F>): F {
  const flags = {} as Record<keyof F, string>;
  for (const [key, value] of Object.entries(section ?? {})) {
    if (value !== undefined) flags[names[key]!] = String(value);
  }
  return flags as F;
}

/** The file's brake section as the flags it stands for. */
export function fileBrakeFlags(scenario: Pick<AnyScenarioFile, 'brakes'>): BrakeFlags {
  return asFlags<BrakeFlags>(scenario.brakes, BRAKE_FLAG_NAMES);
}

export function fileContextFlags(scenario: Pick<AnyScenarioFile, 'context'>): ContextFlags {
  return asFlags<ContextFlags>(scenario.context, CONTEXT_FLAG_NAMES);
}

/** One setting a file's `brakes` or `context` section holds, under its file key (= its flag without `--`), its value as a flag takes it. */
export interface FileSetting {
  section: 'brakes' | 'context';
  key: string;
  value: string;
  /** Its flag's name in BrakeFlags or ContextFlags. */
  flag: keyof BrakeFlags | keyof ContextFlags;
}

/** Every brake and context setting the file sets, in the file's order. */
export function fileSettings(scenario: Pick<AnyScenarioFile, 'brakes' | 'context'>): FileSetting[] {
  const of = (section: FileSetting['section'], values: Record<string, unknown> | undefined, names: Record<string, keyof BrakeFlags | keyof ContextFlags>): FileSetting[] =>
    Object.entries(values ?? {}).flatMap(([key, value]) => (value === undefined ? [] : [{ section, key, value: String(value), flag: names[key]! }]));
  return [...of('brakes', scenario.brakes, BRAKE_FLAG_NAMES), ...of('context', scenario.context, CONTEXT_FLAG_NAMES)];
}

/** The flag a file key stands for (`max-steps` → `--max-steps`), to place a flag parser's complaint in the file. */
export function fileKeyOfFlag(flag: string): string | undefined {
  const key = flag.replace(/^--/, '');
  if (key in BRAKE_FLAG_NAMES) return `brakes.${key}`;
  if (key in CONTEXT_FLAG_NAMES) return `context.${key}`;
  return undefined;
}

export function latencyOfFile(scenario: Pick<AnyScenarioFile, 'latency'>): LatencyModel | undefined {
  const l = scenario.latency;
  if (!l) return undefined;
  return { perCallMs: l.call ?? 0, perInputTokenMs: l['input-token'] ?? 0, perOutputTokenMs: l['output-token'] ?? 0, perToolCallMs: l.tool ?? 0 };
}

function defined<T extends object>(flags: T | undefined): Partial<T> {
  return Object.fromEntries(Object.entries(flags ?? {}).filter(([, v]) => v !== undefined)) as Partial<T>;
}

export function scenarioSettings(scenario: Pick<AnyScenarioFile, 'brakes' | 'context' | 'latency' | 'runs' | 'seed'>, overrides: ScenarioOverrides = {}): ScenarioSettings {
  const given = defined(overrides.brakeFlags);
  const base = given.preset !== undefined ? {} : fileBrakeFlags(scenario);
  const brakes = brakesFromFlags({ ...base, ...given });
  const strategy = strategyFromFlags({ ...fileContextFlags(scenario), ...defined(overrides.contextFlags) });
  strategy.cache ??= 'off';
  const latency = overrides.latency ?? latencyOfFile(scenario);
  return {
    brakes,
    strategy,
    ...(latency === undefined ? {} : { latency }),
    runs: overrides.runs ?? scenario.runs ?? DEFAULT_RUNS,
    seed: overrides.seed ?? scenario.seed ?? DEFAULT_SEED,
  };
}
