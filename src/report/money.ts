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

/** The same for amounts below 2^53 pico, in plain integer arithmetic (every step exact): a table of thousands of amounts. */
function formatSafePico(pico: number): string {
  if (pico === 0) return '$0';
  const abs = Math.abs(pico);
  const decimals = Math.min(PICO_DIGITS, Math.max(4, Math.max(0, PICO_DIGITS - String(abs).length) + 3));
  const unit = 10 ** (PICO_DIGITS - decimals);
  const rest = abs % unit;
  const rounded = (abs - rest) / unit + (2 * rest >= unit ? 1 : 0);
  const scale = 10 ** decimals;
  const fraction = rounded % scale;
  return `${pico < 0 ? '-' : ''}$${(rounded - fraction) / scale}.${String(fraction).padStart(decimals, '0')}`;
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
