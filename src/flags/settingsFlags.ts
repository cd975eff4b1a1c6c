/**
 * The settings a run is replayed under, from the strings a command line, a `--try`, a `--grid` or a
 * scenario file gives: brakes, context strategy, latency model, cost limits. Every bad value is a UserError
 * naming the flag and what it accepts. Pure (no file, no clock): the core's scenario and population code
 * read settings through here, the command line (src/cli/parseFlags.ts) too.
 */
import type { BrakeConfig, BudgetMode, RepeatMode, SameErrorMode } from '../brakes/config.js';
import { brakeConfig, NO_BRAKES, PRESETS } from '../brakes/config.js';
import { parseContextSpec, type CacheMode, type ContextStrategy } from '../context/strategy.js';
import { UserError } from '../errors.js';
import { keyValueSpec, nearGuess, specParts } from '../keyValueSpec.js';
import { refuseSkipLimitsAlone, skipLimitTwice } from './skipLimits.js';
import { MAX_LATENCY_MS, MAX_LATENCY_PART_MS, MAX_LATENCY_PART_TEXT, MAX_USD } from '../io/limits.js';
import { atLeastOneUnit, flagError, nonNegativeInt, numberFlag, type NumberLimit } from './numberFlags.js';
import { MAX_RUN_COST_TEXT, usdToPico, type Pico } from '../money.js';
import type { LatencyModel } from '../loop/latency.js';
import { BRAKE_KEYS } from './brakeKeys.js';
import { BRAKE_NUMBERS, type NumericBrake } from '../brakes/rules.js';

/** A number of seconds or USD, 0 or more (the number rule of every flag taking 0; `--tolerance` is a share: check/baselineFile.ts parseTolerance). */
export function nonNegativeNumber(flag: string, value: string): number {
  return numberFlag(flag, value, { zero: true, example: '0.5' });
}

/** The most seconds `--timeout` takes: 2^53 − 1 ms, the most a trace's clock holds. */
export const MAX_TIMEOUT: NumberLimit = { max: Math.floor(MAX_LATENCY_MS / 1000), text: `${Math.floor(MAX_LATENCY_MS / 1000)} seconds`, why: "2^53 − 1 ms, the most a run's virtual clock holds" };

/**
 * A cost limit in USD as picodollars: at most $9,007.199254740991 (2^53 − 1 picodollars), the most one
 * run's spend is counted exactly (the engine refuses a run that costs more: kernel/cost.ts costOutOfRange).
 * Every cost limit (flag, `--try`, `--grid max-cost`, a scenario's `brakes.max-cost`) comes through here.
 */
export function maxCostPico(flag: string, value: string): Pico {
  // 0 (or less than a picodollar) would stop every run before its first call: no budget is left out instead.
  const usd = numberFlag(flag, value, { example: '0.5', limit: MAX_COST });
  // $9,007.199254740991 rounds to 2^53 in a double: held to 2^53 − 1, the limit it names.
  const pico = Math.min(decimalPico(value.trim()) ?? usdToPico(usd), Number.MAX_SAFE_INTEGER);
  return atLeastOneUnit(flag, value, { n: pico, rule: BRAKE_NUMBERS.maxCostPico.rule, smallest: 'a picodollar ($0.000000000001)', kind: 'a number greater than 0 (e.g. 0.5)' });
}

/** The most a cost limit takes: 2^53 − 1 picodollars, the most one run's spend is counted exactly. */
export const MAX_COST: NumberLimit = { max: MAX_USD, value: MAX_RUN_COST_TEXT.slice(1).replace(/,/g, ''), text: `${MAX_RUN_COST_TEXT} (2^53 − 1 picodollars)`, why: "the most one run's spend is counted exactly" };

/** `--timeout S` (seconds of virtual time, e.g. 120) as whole milliseconds, at least 1: a timeout of 0 stops every run at its first call that takes time. */
function timeoutMs(value: string): number {
  const ms = Math.round(numberFlag('--timeout', value, { unit: 'seconds', example: '120', limit: MAX_TIMEOUT }) * 1000);
  return atLeastOneUnit('--timeout', value, { n: ms, rule: BRAKE_NUMBERS.timeoutMs.rule, smallest: 'a millisecond (0.001)', kind: 'a number of seconds greater than 0 (e.g. 120)' });
}

/**
 * A plain decimal USD amount (`4221.986939033563`) as picodollars, exactly (half up past the 12th
 * decimal), so that a cost a report writes to the picodollar reads back as the same picodollars (a
 * double times 10^12 can miss by one). Undefined for other forms (`1e-6`), which are read as numbers.
 */
export function decimalPico(text: string): Pico | undefined {
  const m = /^(\d*)(?:\.(\d*))?$/.exec(text);
  if (!m) return undefined;
  const digits = (m[2] ?? '').padEnd(13, '0');
  const pico = BigInt(m[1] || '0') * 10n ** 12n + BigInt(digits.slice(0, 12)) + (digits[12]! >= '5' ? 1n : 0n);
  return Number(pico);
}

function oneOf<T extends string>(flag: string, value: string, allowed: readonly T[]): T {
  if (!(allowed as readonly string[]).includes(value)) throw flagError(flag, value, `one of ${allowed.join(', ')}`);
  return value as T;
}

/** `--preset recorded`: each run's own recorded settings (every brake its header states: replay/whatif.ts recordedBrakes), flags still override. */
export const RECORDED_PRESET = 'recorded';

export interface BrakeFlags {
  preset?: string;
  maxSteps?: string;
  maxCost?: string;
  timeout?: string;
  maxRepeat?: string;
  repeatMode?: string;
  /** `stop` | `skip[,max-skips=S][,warning=W]` (in `--try`: repeat-action=skip,max-skips=S,skip-warning=W). */
  repeatAction?: string;
  maxSkips?: string;
  skipWarning?: string;
  maxSameError?: string;
  sameErrorMode?: string;
  maxTokens?: string;
  maxBacktracks?: string;
  budgetMode?: string;
  contextWindow?: string;
  maxOutputTokens?: string;
}

/**
 * The brakes of the preset `name` (its own names only: `toString` names no preset, though every object answers
 * it), else a flag error naming `place.flag` and the names it takes (`offered`), with the one near `name` if any.
 */
function presetNamed(name: string, place: { flag: string; offered: readonly string[] }): BrakeConfig {
  if (!Object.hasOwn(PRESETS, name)) throw flagError(place.flag, name, `a preset (${place.offered.join(', ')})${nearGuess(name, place.offered)}`);
  return PRESETS[name]!;
}

/** A brake's count as its flag gives it, by the brake's rule (brakes/rules.ts BRAKE_NUMBERS, which the library's settings are held to). */
function brakeNumber(key: Exclude<NumericBrake, 'maxCostPico' | 'timeoutMs'>, value: string): number {
  return numberFlag(BRAKE_NUMBERS[key].flag, value, BRAKE_NUMBERS[key].rule);
}

/** A preset first, then each flag given overrides it. No flag, no brake. */
export function brakesFromFlags(flags: BrakeFlags): BrakeConfig {
  let config: BrakeConfig = brakeConfig();
  if (flags.preset !== undefined && flags.preset !== RECORDED_PRESET) config = { ...presetNamed(flags.preset, { flag: '--preset', offered: [...Object.keys(PRESETS), RECORDED_PRESET] }) };
  if (flags.maxSteps !== undefined) config.maxSteps = brakeNumber('maxSteps', flags.maxSteps);
  if (flags.maxCost !== undefined) config.maxCostPico = maxCostPico('--max-cost', flags.maxCost);
  if (flags.timeout !== undefined) config.timeoutMs = timeoutMs(flags.timeout);
  if (flags.maxRepeat !== undefined) config.maxRepeat = brakeNumber('maxRepeat', flags.maxRepeat);
  if (flags.repeatMode !== undefined) config.repeatMode = oneOf<RepeatMode>('--repeat-mode', flags.repeatMode, ['total', 'consecutive', 'cycle']);
  if (flags.repeatAction !== undefined) Object.assign(config, repeatActionFrom(flags));
  if (flags.maxSameError !== undefined) config.maxSameError = brakeNumber('maxSameError', flags.maxSameError);
  if (flags.sameErrorMode !== undefined) config.sameErrorMode = oneOf<SameErrorMode>('--same-error-mode', flags.sameErrorMode, ['consecutive', 'total']);
  if (flags.maxTokens !== undefined) config.maxTokens = brakeNumber('maxTokens', flags.maxTokens);
  if (flags.maxBacktracks !== undefined) config.maxBacktracks = brakeNumber('maxBacktracks', flags.maxBacktracks);
  if (flags.budgetMode !== undefined) config.budgetMode = oneOf<BudgetMode>('--budget-mode', flags.budgetMode, ['check', 'predict']);
  if (flags.maxOutputTokens !== undefined) config.maxOutputTokens = brakeNumber('maxOutputTokens', flags.maxOutputTokens);
  if (flags.contextWindow !== undefined) {
    config.contextWindow = flags.contextWindow === 'model' ? 'model' : brakeNumber('contextWindow', flags.contextWindow);
  }
  return config;
}

const SKIP_KEYS: Record<string, 'maxSkips' | 'skipWarning'> = { 'max-skips': 'maxSkips', warning: 'skipWarning' };

/** `--repeat-action stop` or `skip[,max-skips=S][,warning=W]` (the `--try` keys max-skips and skip-warning too). */
function repeatActionFrom(flags: BrakeFlags): Partial<BrakeConfig> {
  const [action, ...rest] = flags.repeatAction!.split(',');
  const chosen = oneOf<'stop' | 'skip'>('--repeat-action', action!.trim(), ['stop', 'skip']);
  const parts: Partial<Record<'maxSkips' | 'skipWarning', string>> = { maxSkips: flags.maxSkips, skipWarning: flags.skipWarning };
  for (const [field, value] of rest.length > 0 ? keyValueSpec(rest.join(','), { flag: '--repeat-action', names: SKIP_KEYS, what: 'skip setting', valueWord: 'N' }) : []) {
    // `--try max-skips=1,...,repeat-action=skip,max-skips=2`: which would hold is not for loopcost to guess.
    if (parts[field] !== undefined) throw skipLimitTwice(flags.repeatAction!, field);
    parts[field] = value;
  }
  if (chosen === 'stop' && (parts.maxSkips !== undefined || parts.skipWarning !== undefined)) throw flagError('--repeat-action', flags.repeatAction!, "'skip' when max-skips or warning is given");
  const out: Partial<BrakeConfig> = { repeatAction: chosen };
  if (parts.maxSkips !== undefined) out.maxSkips = brakeNumber('maxSkips', parts.maxSkips);
  if (parts.skipWarning !== undefined) out.skipWarningTokens = brakeNumber('skipWarningTokens', parts.skipWarning);
  return out;
}

export interface ContextFlags {
  context?: string;
  toolResultCap?: string;
  cache?: string;
}

export function strategyFromFlags(flags: ContextFlags): ContextStrategy {
  const strategy: ContextStrategy = parseContextSpec(flags.context ?? 'full', '--context');
  if (flags.toolResultCap !== undefined) strategy.toolResultCap = nonNegativeInt('--tool-result-cap', flags.toolResultCap);
  if (flags.cache !== undefined) strategy.cache = oneOf<CacheMode>('--cache', flags.cache, ['on', 'off']);
  return strategy;
}

/**
 * A what-if setting: `max-steps=50,max-repeat=3,repeat-mode=consecutive` (brake flag names without `--`,
 * each value as its flag takes it: `repeat-action=skip,max-skips=2,warning=10`). What a report's brakes
 * say (src/report/settings.ts brakeSpec) reads back as the same brakes. `wording`: the hints that say where
 * the spec was written (default `--try`'s; the library's parseBrakeSpec gives its own).
 */
export function brakesFromSpec(spec: string, wording: SpecWording = TRY_WORDING): BrakeConfig {
  return trySpec(spec, wording).brakes;
}

/**
 * What a brake spec's refusals say that depends on where it was written (`--try` on the command line, or an
 * argument of the library's parseBrakeSpec): every other word of them is the one parser's.
 */
export interface SpecWording {
  /** The hint for a name given twice. */
  twiceHint: (name: string) => string;
  /** The hint for a setting that is not a brake (cache, context, tool-result-cap, model): `flag` gives it, `grid` varies it in a sweep. */
  notBrakeHint: (name: string, where: { flag: string; grid: string }) => string;
  /** `preset=recorded` (each run's own recorded limits): why it is no brakes to read (after the name), and what to do. */
  recorded: { message: string; hint: string };
  /** The hint for a skip limit given without repeat-action=skip. */
  skipLimitAloneHint: string;
}

/** `--try`'s wording (a what-if compares brakes over one context, cache and model). */
export const TRY_WORDING: SpecWording = {
  twiceHint: (name) => `give each name once; to try another value, add another --try: --try ${name}=A --try ${name}=B`,
  notBrakeHint: (name, { flag, grid }) => `--try varies brakes only: give the ${name} with ${flag}, or compare values with loopcost sweep INPUTS --grid ${grid}`,
  recorded: { message: 'is the baseline every --try is compared with, not a setting to try', hint: `give the brakes to try; to replay with each run's own limits: loopcost replay INPUTS --preset ${RECORDED_PRESET}` },
  skipLimitAloneHint: 'max-skips and skip-warning are limits of repeat-action=skip: --try max-repeat=3,repeat-action=skip,max-skips=2',
};

/** Settings a brake spec does not hold, each with the flag that gives it and its `--grid` form. */
const NOT_BRAKES: readonly [string, { flag: string; grid: string }][] = [
  ['cache', { flag: '--cache on|off', grid: 'cache=on,off' }],
  ['context', { flag: '--context', grid: 'context=…' }],
  ['tool-result-cap', { flag: '--tool-result-cap', grid: 'tool-result-cap=…' }],
  ['model', { flag: '--model', grid: 'model=…' }],
];

/** The brake fields each `--try` key sets (`repeat-action` its skip limits too: `repeat-action=stop` clears them). */
const TRIED_FIELDS: Readonly<Record<keyof BrakeFlags, readonly (keyof BrakeConfig)[]>> = {
  preset: [],
  maxSteps: ['maxSteps'],
  maxCost: ['maxCostPico'],
  timeout: ['timeoutMs'],
  maxRepeat: ['maxRepeat'],
  repeatMode: ['repeatMode'],
  repeatAction: ['repeatAction', 'maxSkips', 'skipWarningTokens'],
  maxSkips: ['maxSkips'],
  skipWarning: ['skipWarningTokens'],
  maxSameError: ['maxSameError'],
  sameErrorMode: ['sameErrorMode'],
  maxTokens: ['maxTokens'],
  maxBacktracks: ['maxBacktracks'],
  budgetMode: ['budgetMode'],
  contextWindow: ['contextWindow'],
  maxOutputTokens: ['maxOutputTokens'],
};

/**
 * A what-if setting (brakesFromSpec) as read: the preset it names, if any (its brakes' base), its brakes,
 * and `onTop`: the brake fields it names, to be set on top of each run's own brakes (its what-if baseline),
 * every other brake kept: a what-if of one change. A setting that names a preset (`preset=none,max-steps=50`)
 * is a whole set of brakes in place of the baseline's, so it has no `onTop`.
 */
export function trySpec(spec: string, wording: SpecWording = TRY_WORDING): { preset: string | undefined; brakes: BrakeConfig; onTop?: Partial<BrakeConfig> } {
  const flags: BrakeFlags = {};
  const parts = specParts(spec, { of: 'repeat-action', names: SKIP_KEYS });
  const elsewhere = Object.fromEntries(NOT_BRAKES.map(([name, where]) => [name, wording.notBrakeHint(name, where)]));
  for (const [field, value] of keyValueSpec(spec, { flag: '--try', names: BRAKE_KEYS, what: 'brake setting', valueWord: 'value', parts, twiceHint: wording.twiceHint, elsewhere })) flags[field] = value;
  refuseSkipLimitsAlone(spec, flags, wording.skipLimitAloneHint);
  if (flags.preset === RECORDED_PRESET) {
    // No brakes would be a silent misreading: each run's own limits are the what-if baseline, and replay's --preset recorded.
    throw new UserError({ file: '<command line>', field: '--try preset', code: 'bad_value', message: `'${RECORDED_PRESET}' (each run's own recorded limits) ${wording.recorded.message}`, hint: wording.recorded.hint });
  }
  // The presets a --try takes: `recorded` is the baseline (refused above), so not listed among them.
  if (flags.preset !== undefined) presetNamed(flags.preset, { flag: '--try preset', offered: Object.keys(PRESETS) });
  try {
    const brakes = brakesFromFlags(flags);
    if (flags.preset !== undefined) return { preset: flags.preset, brakes };
    const onTop: Record<string, unknown> = {};
    for (const field of Object.keys(flags) as (keyof BrakeFlags)[]) for (const key of TRIED_FIELDS[field]) onTop[key] = brakes[key];
    return { preset: undefined, brakes, onTop: onTop as Partial<BrakeConfig> };
  } catch (error) {
    if (!(error instanceof UserError)) throw error;
    // A bad value names the `--try` setting it came from (`--try max-cost`), as `--grid max-cost` does.
    throw new UserError(error.issues.map((issue) => (issue.field?.startsWith('--') ? { ...issue, field: `--try ${issue.field.slice(2)}` } : issue)));
  }
}

/** The brakes for one run: its recorded settings under `--preset recorded`, then the flags given. */
export function brakesForRun(flags: BrakeFlags, recorded: BrakeConfig): BrakeConfig {
  const explicit = brakesFromFlags({ ...flags, preset: undefined });
  if (flags.preset !== RECORDED_PRESET) return brakesFromFlags(flags);
  const merged: BrakeConfig = { ...recorded };
  for (const [key, value] of Object.entries(explicit) as [keyof BrakeConfig, unknown][]) {
    if (value !== undefined && value !== NO_BRAKES[key]) (merged as unknown as Record<string, unknown>)[key] = value;
  }
  return merged;
}

/** Each latency part's example, in milliseconds (`--latency-model call=800,output-token=15,input-token=0.02,tool=300`). */
const LATENCY_EXAMPLE_MS: Record<string, number> = { call: 800, 'input-token': 0.02, 'output-token': 15, tool: 300 };

const LATENCY_KEYS: Record<string, keyof LatencyModel> = {
  call: 'perCallMs',
  'input-token': 'perInputTokenMs',
  'output-token': 'perOutputTokenMs',
  tool: 'perToolCallMs',
};

/**
 * `--latency-model call=800,output-token=15,input-token=0.02,tool=300` (milliseconds; unset parts are 0),
 * each part at most MAX_LATENCY_PART_MS (a day: src/io/limits.ts), so that the latencies it gives
 * stay within what a trace holds.
 */
export function latencyFromSpec(spec: string): LatencyModel {
  const model: LatencyModel = { perCallMs: 0, perInputTokenMs: 0, perOutputTokenMs: 0, perToolCallMs: 0 };
  for (const [field, value] of keyValueSpec(spec, { flag: '--latency-model', names: LATENCY_KEYS, what: 'latency setting', valueWord: 'milliseconds' })) {
    const name = Object.keys(LATENCY_KEYS).find((key) => LATENCY_KEYS[key] === field)!;
    const per = field === 'perCallMs' ? 'call' : field === 'perToolCallMs' ? 'tool call' : 'token';
    const limit = { max: MAX_LATENCY_PART_MS, text: MAX_LATENCY_PART_TEXT, why: `the most a latency model takes for one ${per}` };
    model[field] = numberFlag('--latency-model', value, { zero: true, unit: 'milliseconds', example: `${name}=${LATENCY_EXAMPLE_MS[name]}`, limit, written: `${name}=${value.trim()}` });
  }
  return model;
}
