/**
 * How every numeric flag reads its value, by one rule (numberFlag): the text as a decimal number
 * (io/numberText.ts), then whole or not, 0 taken or not, and at most the flag's limit. What it says is the
 * same for every flag: text that is no number of the kind `'abc' is not a whole number greater than 0`,
 * each flag's example in its own unit; a number past the limit (`1e400` too) `'1e400' is too large: at
 * most N, why`, quoting the text as written. A limit where 0 would stop every run before it did anything
 * (a budget, a timeout, a step or token cap) takes no 0; where 0 means something (`--max-backtracks 0`:
 * none allowed, `--seed 0`, `--tool-result-cap 0`, a latency part of 0 ms) the flag says `zero: true`.
 */
import { UserError } from '../errors.js';
import { MAX_COUNT, MAX_SCENARIO_RUNS } from '../io/limits.js';
import { decimalNumber } from '../io/numberText.js';

export function flagError(flag: string, value: string, expected: string, hint?: string): UserError {
  return new UserError({ file: '<command line>', field: flag, code: 'bad_value', message: `'${value}' is not ${expected}`, ...(hint === undefined ? {} : { hint }) });
}

/** The most a flag takes, as its message says it, and why. */
export interface NumberLimit {
  max: number;
  /** The limit as said (default: the number, with thousands separators). */
  text?: string;
  why: string;
  /** The limit as a value to write, for the hint (default: the number). */
  value?: string;
}

export interface NumberFlagRule {
  /** Whole numbers only (a count). */
  whole?: boolean;
  /** 0 is taken (it means something: none allowed, no cap, a seed); otherwise the value must be greater than 0. */
  zero?: boolean;
  /** The unit said with the number (`milliseconds`: `a number of milliseconds, 0 or more`). */
  unit?: string;
  /** A value in the flag's unit, for the message (`0.5` for USD, `800` for a call's milliseconds). */
  example?: string;
  /** The most the flag takes (default: 2^53 − 1 for a whole number, the largest double otherwise). */
  limit?: NumberLimit;
  /** The text as the user wrote it, when more than the value (`call=1e400` in `--latency-model`). */
  written?: string;
}

const COUNT_LIMIT: NumberLimit = { max: MAX_COUNT, text: `${MAX_COUNT} (2^53 − 1)`, why: 'the largest count held exactly' };
/** `--runs` of every command that runs a scenario's population (replay, sweep, generate, fit's profile…). */
export const SCENARIO_RUNS_LIMIT: NumberLimit = { max: MAX_SCENARIO_RUNS, why: "the most runs a scenario is run for (as a file's runs:)" };
const DOUBLE_LIMIT: NumberLimit = { max: Number.MAX_VALUE, text: '1.8e308', why: 'the largest number held' };

/** What a flag takes, as its messages say it: `a whole number greater than 0`, `a number of milliseconds, 0 or more (e.g. 800)`. */
export function numberKind(rule: NumberFlagRule): string {
  const number = `${rule.whole === true ? 'whole number' : 'number'}${rule.unit === undefined ? '' : ` of ${rule.unit}`}`;
  const range = rule.zero === true ? `, 0 or more` : ' greater than 0';
  return `a ${number}${range}${rule.example === undefined ? '' : ` (e.g. ${rule.example})`}`;
}

/** A flag's value past its limit: `'1e400' is too large: at most 4,096, why` (the text as written). */
export function tooLarge(flag: string, written: string, limit: NumberLimit): UserError {
  return new UserError({ file: '<command line>', field: flag, code: 'too_large', message: `'${written}' is too large: ${limitWords(limit)}`, hint: `give at most ${limit.value ?? limit.max}` });
}

/** A limit as a refusal says it: `at most 4,096, why`. */
export function limitWords(limit: NumberLimit): string {
  return `at most ${limit.text ?? limit.max.toLocaleString('en-US')}, ${limit.why}`;
}

/** The most a rule takes (its own limit, else 2^53 − 1 for a whole number, the largest double otherwise). */
export function limitOf(rule: NumberFlagRule): NumberLimit {
  return rule.limit ?? (rule.whole === true ? COUNT_LIMIT : DOUBLE_LIMIT);
}

/**
 * What is wrong with a number by its rule, the one rule of every numeric flag and of the library's
 * numbers that mirror one (a curve's spec): past its limit (`too_large`), not of its kind (`kind`: NaN, a
 * negative, a fraction where whole, 0 where not taken), or nothing. Decimal text is never negative.
 */
export function numberFault(n: number, rule: NumberFlagRule): 'too_large' | 'kind' | undefined {
  if (Number.isNaN(n) || n < 0) return 'kind';
  if (n > limitOf(rule).max) return 'too_large';
  if ((rule.whole === true && !Number.isInteger(n)) || (n === 0 && rule.zero !== true)) return 'kind';
  return undefined;
}

/** A numeric flag's value by its rule, else a UserError naming the flag (see the module's comment). */
export function numberFlag(flag: string, value: string, rule: NumberFlagRule): number {
  const n = decimalNumber(value);
  const written = rule.written ?? value.trim();
  const fault = numberFault(n, rule);
  if (fault === 'too_large') throw tooLarge(flag, written, limitOf(rule));
  if (fault === 'kind') throw flagError(flag, written, numberKind(rule));
  return n;
}

/**
 * A count written as a whole decimal number (`1000`, `1e3`, as a scenario file's YAML takes it), 1 or more;
 * nothing else. `limit`: the flag's own most (default 2^53 − 1), checked as the text is read, so a value
 * past it (`1e400` too) is said against that limit.
 */
export function positiveInt(flag: string, value: string, limit?: NumberLimit): number {
  return numberFlag(flag, value, { whole: true, ...(limit === undefined ? {} : { limit }) });
}

/** A count where 0 means something (none allowed, no cap, a seed). */
export function nonNegativeInt(flag: string, value: string): number {
  return numberFlag(flag, value, { whole: true, zero: true });
}

/**
 * A value that reads as 0 in the unit it is held in (`--max-cost 1e-13`: 0 picodollars; `--timeout
 * 0.0001`: 0 ms) is refused as 0 is, by the rule of the value held (`rule`: brakes/rules.ts BRAKE_NUMBERS,
 * which a library caller's maxCostPico and timeoutMs are held to), saying the smallest the flag takes.
 */
export function atLeastOneUnit(flag: string, value: string, held: { n: number; rule: NumberFlagRule; smallest: string; kind: string }): number {
  if (numberFault(held.n, held.rule) === undefined) return held.n;
  throw flagError(flag, value, held.kind, `it is less than ${held.smallest}, the smallest the flag takes: give at least that`);
}
