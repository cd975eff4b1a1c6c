/**
 * A sweep's grid: `--grid KEY=V1,V2,...` (KEY a replay flag without `--`, or `preset` or `model`), the
 * cross product of the axes (the first varies slowest), each cell with the flags given fixing the rest.
 * Every value is read by the parser its flag uses (src/cli/parseFlags.ts), so a grid accepts exactly
 * what the flag would; a refused value, an unknown key, an empty list or a repeated key is a UserError
 * naming `--grid KEY`, before any work.
 */
import { canonicalJson } from '../brakes/fingerprint.js';
import { brakesFromFlags, maxCostPico, RECORDED_PRESET, strategyFromFlags, type BrakeFlags, type ContextFlags } from '../flags/settingsFlags.js';
import { positiveInt } from '../flags/numberFlags.js';
import type { SubagentLimits } from '../tree/engine.js';
import { UserError } from '../errors.js';
import { firstRepeat, repeatWords } from '../firstRepeat.js';
import { nearGuess } from '../keyValueSpec.js';
import type { LatencyModel } from '../loop/latency.js';
import type { BrakeConfig } from '../brakes/config.js';
import type { ContextStrategy } from '../context/strategy.js';
import type { PopulationConfig } from './run.js';
import { RECORDED_NOT_ONE_CONFIGURATION } from '../flags/modesWithoutBrake.js';

/** Grid keys: the brake and context flags (without `--`), and `model`. */
export const BRAKE_GRID_KEYS: Record<string, keyof BrakeFlags> = {
  preset: 'preset',
  'max-steps': 'maxSteps',
  'max-cost': 'maxCost',
  'budget-mode': 'budgetMode',
  timeout: 'timeout',
  'max-repeat': 'maxRepeat',
  'repeat-action': 'repeatAction',
  'repeat-mode': 'repeatMode',
  'max-same-error': 'maxSameError',
  'same-error-mode': 'sameErrorMode',
  'max-tokens': 'maxTokens',
  'max-backtracks': 'maxBacktracks',
  'context-window': 'contextWindow',
  'max-output-tokens': 'maxOutputTokens',
};
export const CONTEXT_GRID_KEYS: Record<string, keyof ContextFlags> = { context: 'context', 'tool-result-cap': 'toolResultCap', cache: 'cache' };
/** Per-agent limits of session trees (`sweep --tree`), as their flags. */
export const SUBAGENT_GRID_KEYS = ['subagent-max-steps', 'subagent-max-cost'] as const;
export const GRID_KEYS: readonly string[] = [...Object.keys(BRAKE_GRID_KEYS), ...Object.keys(CONTEXT_GRID_KEYS), 'model', ...SUBAGENT_GRID_KEYS];

/** `--subagent-max-steps N` / `--subagent-max-cost USD` as a limit (a bad value: UserError naming the flag). */
function subagentLimit(key: string, value: string): SubagentLimits {
  return key === 'subagent-max-steps' ? { maxSteps: positiveInt('--subagent-max-steps', value) } : { maxCostPico: maxCostPico('--subagent-max-cost', value) };
}

/**
 * Most configurations a grid may have without `--force`. A sweep keeps a row for every configuration, ~4 KB
 * each (122,880 configurations of one run: ~0.5 GB, ~4.5 s), so 10^6 take ~4 GB and minutes: past 10^5 a
 * grid is more likely a typo'd range than a search anyone reads.
 */
export const MAX_GRID_CONFIGURATIONS = 100_000;

export interface GridAxis {
  key: string;
  values: string[];
}

/** The flags given on the command line that every configuration shares. */
export interface FixedSettings {
  brakeFlags: BrakeFlags;
  contextFlags: ContextFlags;
  model?: string;
  latency?: LatencyModel;
  /** `--subagent-max-steps` / `--subagent-max-cost` given (sweep --tree). */
  subagent?: SubagentLimits;
}

/** One configuration of the grid: its grid values (`max-steps=10,max-repeat=3`) and what it runs under. */
export interface GridConfiguration {
  /** The cell's grid values in `--try` syntax, in axis order (`default` for an empty grid). */
  settings: string;
  values: Record<string, string>;
  config: PopulationConfig;
}

function gridError(key: string | undefined, message: string, hint?: string): UserError {
  return new UserError({ file: '<command line>', field: key === undefined ? '--grid' : `--grid ${key}`, code: 'bad_grid', message, hint: hint ?? `write --grid KEY=V1,V2,... with KEY one of: ${GRID_KEYS.join(', ')}` });
}

/** Reads the `--grid` specs into axes, each value checked by its flag's parser. */
export function parseGrid(specs: readonly string[]): GridAxis[] {
  const axes: GridAxis[] = [];
  for (const spec of specs) {
    const eq = spec.indexOf('=');
    const key = (eq < 0 ? spec : spec.slice(0, eq)).trim();
    if (!GRID_KEYS.includes(key)) throw gridError(key || undefined, `'${key}' is not a setting a grid can vary${nearGuess(key, GRID_KEYS)}`);
    if (axes.some((axis) => axis.key === key)) throw gridError(key, `'${key}' is given twice`, `give each key once: --grid ${key}=V1,V2,...`);
    const values = eq < 0 ? [] : splitValues(key, spec.slice(eq + 1));
    if (values.length === 0 || values.some((v) => v === '')) throw gridError(key, `'${spec}' has an empty list or an empty value`, `write --grid ${key}=V1,V2,... (values separated by single commas)`);
    for (const value of values) checkValue(key, value);
    refuseRepeatedValue(key, values);
    axes.push({ key, values });
  }
  return axes;
}

/**
 * A value given twice in one axis (`max-steps=5,5`, or `5,05`: the same setting) is refused, as a key given
 * twice is: it would run the same configurations twice and show each as two rows.
 */
function refuseRepeatedValue(key: string, values: readonly string[]): void {
  const repeat = repeatWords(values, values.map((value) => settingMeaning(key, value)), 'setting');
  if (repeat === undefined) return;
  throw gridError(key, `${repeat.same}: each value would run as a configuration of its own`, `give each value once: --grid ${key}=${repeat.once.join(',')}`);
}

/**
 * What a checked grid value sets, as one comparable string (two values that set the same are one setting).
 * A preset is its name: two frameworks' presets with the same brakes (langgraph, crewai) are two rows a
 * comparison of frameworks asks for.
 */
function settingMeaning(key: string, value: string): string {
  if (key === 'model' || key === 'preset') return value.trim();
  if ((SUBAGENT_GRID_KEYS as readonly string[]).includes(key)) return canonicalJson(subagentLimit(key, value));
  if (key in BRAKE_GRID_KEYS) return canonicalJson(brakesFromFlags({ [BRAKE_GRID_KEYS[key]!]: value }));
  return canonicalJson(strategyFromFlags({ [CONTEXT_GRID_KEYS[key]!]: value }));
}

/** Keys whose values have options after commas (`summary:trigger=8000,keep=3,tokens=500`, `skip,max-skips=2`). */
const KEYS_WITH_OPTIONS = new Set(['context', 'repeat-action']);

/** The values of a grid spec, split at commas; for a key with options, a `name=value` part belongs to the value before. */
function splitValues(key: string, list: string): string[] {
  const parts = list.split(',');
  if (!KEYS_WITH_OPTIONS.has(key)) return parts.map((v) => v.trim());
  const values: string[] = [];
  for (const part of parts) {
    if (values.length > 0 && /^\s*[a-z-]+\s*=/.test(part)) values[values.length - 1] += `,${part.trim()}`;
    else values.push(part.trim());
  }
  return values;
}

/** A value the key's flag would refuse is refused here, naming the grid key. */
function checkValue(key: string, value: string): void {
  if (key === 'model') return; // checked against the price table (modelsOfGrid), before any work
  if (key === 'preset' && value === RECORDED_PRESET) throw gridError(key, RECORDED_NOT_ONE_CONFIGURATION, 'use a named preset, or brake flags');
  try {
    if ((SUBAGENT_GRID_KEYS as readonly string[]).includes(key)) subagentLimit(key, value);
    else if (key in BRAKE_GRID_KEYS) brakesFromFlags({ [BRAKE_GRID_KEYS[key]!]: value });
    else strategyFromFlags({ [CONTEXT_GRID_KEYS[key]!]: value });
  } catch (error) {
    if (!(error instanceof UserError)) throw error;
    throw new UserError(error.issues.map((issue) => ({ ...issue, field: `--grid ${key}`, code: 'bad_grid' })));
  }
}

/** How many configurations the axes make; past MAX_GRID_CONFIGURATIONS a UserError unless forced. */
export function checkGridSize(axes: readonly GridAxis[], force: boolean): number {
  const count = axes.reduce((n, axis) => n * axis.values.length, 1);
  if (count > MAX_GRID_CONFIGURATIONS && !force) {
    throw gridError(axes.map((axis) => axis.key).join(' × '), `makes ${count.toLocaleString('en-US')} configurations, more than ${MAX_GRID_CONFIGURATIONS.toLocaleString('en-US')} (each is a row of the report and ~4 KB of memory: this grid ~${gigabytesText(count)})`, 'narrow the grid, split it with --shard K/N, or add --force');
  }
  return count;
}

/** About how much memory a sweep of `count` configurations holds, at ~4 KB a configuration. */
function gigabytesText(count: number): string {
  const gigabytes = (count * 4096) / 2 ** 30;
  return gigabytes < 1 ? `${Math.max(1, Math.round(gigabytes * 1024))} MB` : `${gigabytes.toFixed(1)} GB`;
}

/** Every configuration of the grid, in grid order (the first axis varies slowest); one `default` configuration without axes. */
export function gridConfigurations(axes: readonly GridAxis[], fixed: FixedSettings): GridConfiguration[] {
  let cells: Record<string, string>[] = [{}];
  for (const axis of axes) cells = cells.flatMap((cell) => axis.values.map((value) => ({ ...cell, [axis.key]: value })));
  // Configurations with the same brake values share one BrakeConfig, and with the same context values one strategy (read once, not per configuration).
  const made: MadeSettings = { brakes: new Map(), strategies: new Map() };
  return cells.map((values) => configurationOf(values, fixed, made));
}

/** Brakes and strategies already read, by the grid values they were read from (shared between configurations; never changed). */
export interface MadeSettings {
  brakes: Map<string, BrakeConfig>;
  strategies: Map<string, ContextStrategy>;
}

function madeOnce<T>(made: Map<string, T> | undefined, key: string, make: () => T): T {
  const known = made?.get(key);
  if (known !== undefined) return known;
  const value = make();
  made?.set(key, value);
  return value;
}

/**
 * One configuration: the fixed flags with the cell's values on top; a preset (fixed or in the grid) is the
 * base every brake flag overrides, as `--preset` is. `base`: a scenario file's own settings under both
 * (scenarioBase.ts), for the configuration its runs take.
 */
export function configurationOf(values: Record<string, string>, fixed: FixedSettings, made?: MadeSettings, base?: Pick<FixedSettings, 'brakeFlags' | 'contextFlags'>): GridConfiguration {
  const brakeFlags: BrakeFlags = { ...base?.brakeFlags, ...fixed.brakeFlags };
  const contextFlags: ContextFlags = { ...base?.contextFlags, ...fixed.contextFlags };
  let model = fixed.model;
  let subagent = fixed.subagent;
  let brakeValues = '';
  let contextValues = '';
  for (const [key, value] of Object.entries(values)) {
    if (key === 'model') model = value;
    else if ((SUBAGENT_GRID_KEYS as readonly string[]).includes(key)) subagent = { ...subagent, ...subagentLimit(key, value) };
    else if (key in BRAKE_GRID_KEYS) {
      brakeFlags[BRAKE_GRID_KEYS[key]!] = value;
      brakeValues += `${key}=${JSON.stringify(value)},`;
    } else {
      contextFlags[CONTEXT_GRID_KEYS[key]!] = value;
      contextValues += `${key}=${JSON.stringify(value)},`;
    }
  }
  const entries = Object.entries(values);
  return {
    settings: entries.length === 0 ? 'default' : entries.map(([key, value]) => `${key}=${value}`).join(','),
    values,
    config: {
      brakes: madeOnce(made?.brakes, brakeValues, () => brakesFromFlags(brakeFlags)),
      strategy: madeOnce(made?.strategies, contextValues, () => strategyFromFlags(contextFlags)),
      ...(model === undefined ? {} : { model }),
      ...(fixed.latency === undefined ? {} : { latency: fixed.latency }),
      ...(subagent === undefined ? {} : { subagent }),
    },
  };
}

/** The models a grid names (to be resolved in the price table before any work). */
export function gridModels(axes: readonly GridAxis[]): string[] {
  return axes.find((axis) => axis.key === 'model')?.values ?? [];
}

/**
 * A configuration's grid values by key, read back from its `settings` (`max-steps=10,context=summary:trigger=8000,keep=3`):
 * a part not starting with a grid key continues the value before.
 */
export function gridValuesOf(settings: string, grid: readonly GridAxis[]): Map<string, string> {
  const values = new Map<string, string>();
  let last: string | undefined;
  for (const part of settings.split(',')) {
    const key = part.slice(0, Math.max(0, part.indexOf('=')));
    if (last === undefined || grid.some((axis) => axis.key === key)) values.set((last = key), part.slice(key.length + 1));
    else values.set(last, `${values.get(last)!},${part}`);
  }
  return values;
}

/**
 * `--try` given twice with the same brakes (`max-steps=5` twice, or `max-steps=05`): refused as a value given
 * twice in a grid axis. A setting naming a preset is that preset with its brakes (see settingMeaning: two
 * presets with the same brakes are two settings), in whatever order its parts were written.
 */
export function refuseRepeatedTry(settings: readonly { name: string; preset: string | undefined; brakes: unknown }[]): void {
  const repeat = firstRepeat(settings.map(({ preset, brakes }) => canonicalJson({ preset, brakes })));
  if (repeat === undefined) return;
  const first = settings[repeat.first]!.name;
  const name = settings[repeat.twice]!.name;
  throw new UserError({
    file: '<command line>',
    field: '--try',
    code: 'bad_value',
    message: `${first === name ? `'${name}' is given twice` : `'${first}' and '${name}' are the same brakes`}: each --try would run as a setting of its own`,
    hint: 'give each setting once',
  });
}
