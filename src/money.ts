/**
 * Money is exact: integer picodollars (1e-12 USD) held in plain numbers. A price of $X per million
 * tokens is X·1e6 picodollars per token, an integer for any price quoted with up to six decimals, so
 * tokens × price is an exact integer product. Number keeps integers exact up to 2^53 pico ≈ $9,007,
 * far above a single run; totals across many runs are summed with BigInt (see sumPico).
 */
import { roundedUnits } from './moneyRounding.js';
import { UserError } from './errors.js';

export type Pico = number;

export const PICO_PER_USD = 1_000_000_000_000;
export const PICO_PER_USD_BIG = 1_000_000_000_000n;

/**
 * The most one run may cost, 2^53 − 1 picodollars, as messages write it. Past it a run's spend is no longer
 * exact (kernel/cost.ts costOutOfRange refuses such a run), so a cost limit, an expectation or a baseline
 * figure past it is refused where it is given.
 */
export const MAX_RUN_COST_TEXT = '$9,007.199254740991';

/** Converts a USD price per token (e.g. LiteLLM's 1.5e-7) to integer picodollars per token. */
export function usdPerTokenToPico(usdPerToken: number): Pico {
  return Math.round(usdPerToken * PICO_PER_USD);
}

/** Converts a USD price per million tokens (e.g. 0.15) to integer picodollars per token. */
export function usdPerMillionToPico(usdPerMillion: number): Pico {
  return Math.round(usdPerMillion * 1_000_000);
}

/**
 * Converts a USD amount (a user's budget flag, a recorded cost) to picodollars, rounding to the nearest.
 * A negative amount is money too (a difference, a saving: reports format them); a limit refuses it where it
 * is given (`brakes.maxCostPico`). A value that is no finite amount (NaN, a string, 1e300 USD) is a UserError.
 */
export function usdToPico(usd: number): Pico {
  const pico = typeof usd === 'number' ? Math.round(usd * PICO_PER_USD) : NaN;
  if (!Number.isFinite(pico)) throw moneyArgumentError({ entry: 'usdToPico', field: 'usd', value: usd, what: 'a finite number of US dollars', hint: 'e.g. usdToPico(0.5) for $0.50; Number(text) first for a text' });
  return pico;
}

/** Exact decimal string of a picodollar amount, trailing zeros trimmed: 28000000000 → "0.028". */
export function picoToUsdString(pico: Pico | bigint): string {
  const value = wholePico('picoToUsdString', pico);
  const negative = value < 0n;
  const abs = negative ? -value : value;
  const whole = abs / PICO_PER_USD_BIG;
  const frac = (abs % PICO_PER_USD_BIG).toString().padStart(12, '0').replace(/0+$/, '');
  return `${negative ? '-' : ''}${whole}${frac ? `.${frac}` : ''}`;
}

/** What a money helper refuses: its argument's name and value, what it should have been, and how to give it. */
interface MoneyArgument {
  entry: string;
  field: string;
  value: unknown;
  what: string;
  hint: string;
}

/**
 * A money helper's argument that is not money, named as every entry point's argument is
 * (`<usdToPico arguments>` field 'usd', as options/arguments.ts says them; not imported: the option rules
 * import this module). A missing one is `missing_input`, as theirs is.
 */
function moneyArgumentError({ entry, field, value, what, hint }: MoneyArgument): UserError {
  const said = typeof value === 'string' ? JSON.stringify(value) : value === null || ['number', 'bigint', 'boolean', 'undefined'].includes(typeof value) ? String(value) : typeof value;
  const code = value === undefined ? 'missing_input' : 'invalid_number';
  return new UserError({ file: `<${entry} arguments>`, field, code, message: value === undefined ? `is missing: give ${what}` : `${said} is not ${what}`, hint });
}

const WHOLE_PICO = 'a whole number of picodollars (or a bigint)';
const WHOLE_PICO_HINT = 'picodollars are whole: usdToPico(0.5) gives $0.50 in them';

/** `pico` as a bigint, or the entry's UserError when it is no whole amount (null, a fraction, NaN, a text). */
function wholePico(entry: string, pico: unknown, field = 'pico'): bigint {
  if (typeof pico === 'bigint') return pico;
  if (Number.isInteger(pico)) return BigInt(pico as number);
  throw moneyArgumentError({ entry, field, value: pico, what: WHOLE_PICO, hint: WHOLE_PICO_HINT });
}

/** USD as a JSON number. Exact to the picodollar for amounts under $9,007 (the decimal string is parsed). */
export function picoToUsd(pico: Pico | bigint): number {
  return Number(picoToUsdString(pico));
}

/** total / n picodollars (n > 0), rounded half up: the mean every report gives of exact amounts. */
export function meanPico(totalPico: bigint, n: number): bigint {
  if (typeof totalPico !== 'bigint') throw moneyArgumentError({ entry: 'meanPico', field: 'totalPico', value: totalPico, what: 'a bigint of picodollars', hint: 'the total as sumPico(amounts) gives it' });
  if (!(Number.isSafeInteger(n) && n > 0)) throw moneyArgumentError({ entry: 'meanPico', field: 'n', value: n, what: 'a whole number greater than 0', hint: 'how many amounts the total sums (a mean of none is no amount)' });
  const count = BigInt(n);
  // floor((2·total + n) / 2n): bigint division truncates toward zero, so a negative total (a saving) is floored by hand.
  const twice = totalPico * 2n + count;
  const quotient = twice / (2n * count);
  return twice < 0n && twice % (2n * count) !== 0n ? quotient - 1n : quotient;
}

/** Sums picodollar amounts without ever losing an integer, however many there are. */
export function sumPico(values: Iterable<Pico>): bigint {
  if (typeof (values as { [Symbol.iterator]?: unknown } | null | undefined)?.[Symbol.iterator] !== 'function' || typeof values === 'string') {
    throw moneyArgumentError({ entry: 'sumPico', field: 'values', value: values, what: 'an iterable of picodollar amounts', hint: 'e.g. sumPico(results.map((r) => r.costPico)); [] sums to 0n' });
  }
  let total = 0n;
  let k = 0;
  for (const v of values) total += wholePico('sumPico', v, `values[${k++}]`);
  return total;
}

/**
 * Picodollars to `decimals` places (0–12), rounded half up from the exact amount (never through a float,
 * whose 0.0000015 is 1.4999…e-6): 28000000000 → $0.0280; 1500000 at 6 places → $0.000002.
 */
export function formatUsd(pico: Pico | bigint, decimals = 4): string {
  const value = wholePico('formatUsd', pico);
  if (!(Number.isInteger(decimals) && decimals >= 0 && decimals <= 12)) {
    throw moneyArgumentError({ entry: 'formatUsd', field: 'decimals', value: decimals, what: 'a whole number of decimals from 0 to 12', hint: 'e.g. formatUsd(pico, 6) for $0.000002; leave it out for 4' });
  }
  const abs = value < 0n ? -value : value;
  const rounded = roundedUnits(abs, decimals);
  const scale = 10n ** BigInt(decimals);
  const fraction = decimals > 0 ? `.${(rounded % scale).toString().padStart(decimals, '0')}` : '';
  return `${value < 0n && rounded > 0n ? '-' : ''}$${rounded / scale}${fraction}`;
}

