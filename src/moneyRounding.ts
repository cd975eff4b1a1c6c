/**
 * How money is rounded for display: half up from the exact picodollars, never through a float. money.ts
 * formatUsd shows it; check's figures beside their limits (check/usdBeside.ts) compare what it shows. Internal
 * (not a library export).
 */
import type { Pico } from './money.js';

/** `abs` picodollars (0 or more) rounded half up to `decimals` places of a dollar, in units of that place. */
export function roundedUnits(abs: bigint, decimals: number): bigint {
  const unit = 10n ** BigInt(12 - decimals);
  return (abs + unit / 2n) / unit;
}

/** `pico` rounded half up (away from zero) to `decimals` places of a dollar (0–12), as formatUsd shows it, in picodollars. */
export function roundPico(pico: Pico | bigint, decimals: number): bigint {
  const value = BigInt(pico);
  const rounded = roundedUnits(value < 0n ? -value : value, decimals) * 10n ** BigInt(12 - decimals);
  return value < 0n ? -rounded : rounded;
}
