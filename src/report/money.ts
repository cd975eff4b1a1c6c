/**
 * The one way reports show money: US dollars with at least four decimals and at least three significant
 * digits, rounded half up from exact picodollars (never through a float): $6.1379, $0.0325, $0.00123,
 * $0.0000123. A run that cost anything never shows $0.0000; only a zero amount is `$0`.
 */
import { formatUsd as fixedUsd, usdToPico, type Pico } from '../money.js';

const PICO_DIGITS = 12;

export function formatUsd(amount: Pico | bigint): string {
  if (typeof amount === 'number' && Number.isSafeInteger(amount)) return formatSafePico(amount);
  const value = typeof amount === 'bigint' ? amount : BigInt(amount);
  if (value === 0n) return '$0';
  const abs = value < 0n ? -value : value;
  const decimals = Math.min(PICO_DIGITS, Math.max(4, leadingZeros(abs) + 3));
  return fixedUsd(value, decimals);
}

/** Powers of ten to 10^16, for digit counts and rounding units without a string. */
const TENS = Array.from({ length: 17 }, (_, k) => 10 ** k);

/**
 * The same for amounts below 2^53 pico, in plain integer arithmetic (every step exact: products and quotients of
 * integers below 2^53): a table of thousands of amounts. One number-to-string conversion, the point spliced in.
 */
function formatSafePico(pico: number): string {
  if (pico === 0) return '$0';
  const abs = pico < 0 ? -pico : pico;
  let digits = 1;
  while (digits < 16 && abs >= TENS[digits]!) digits++;
  const decimals = digits >= PICO_DIGITS - 1 ? 4 : Math.min(PICO_DIGITS, PICO_DIGITS - digits + 3);
  const unit = TENS[PICO_DIGITS - decimals]!;
  const rest = abs % unit;
  const rounded = (abs - rest) / unit + (2 * rest >= unit ? 1 : 0);
  const text = String(rounded).padStart(decimals + 1, '0');
  const point = text.length - decimals;
  return `${pico < 0 ? '-' : ''}$${text.slice(0, point)}.${text.slice(point)}`;
}

/** Zeros after the decimal point before the first significant digit (0 for amounts of $0.1 or more). */
function leadingZeros(pico: bigint): number {
  const digits = pico.toString().length;
  return Math.max(0, PICO_DIGITS - digits);
}

/** A USD amount given as a JSON number (report records, exact to the picodollar) in the same format. */
export function formatUsdNumber(usd: number): string {
  return formatUsd(usdToPico(usd));
}

/** formatUsdNumber remembering each amount it formatted: a table's column repeats its amounts (a run's baseline cost under every setting, $0). */
export function usdNumberTexts(): (usd: number) => string {
  const texts = new Map<number, string>();
  return (usd) => {
    let text = texts.get(usd);
    if (text === undefined) texts.set(usd, (text = formatUsdNumber(usd)));
    return text;
  };
}

/** A USD amount of a table's cell (formatUsdNumber), `-` where there is none (null or absent). */
export function usdOrDash(usd: number | null | undefined): string {
  return usd === null || usd === undefined ? '-' : formatUsdNumber(usd);
}
