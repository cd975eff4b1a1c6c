/**
 * whatif's Δ spend (the text summary's column): a setting's spend less the baseline's, from their exact
 * picodollars (WhatIfTotal.costPico, the baseline's runs' sum), never from the USD floats the JSON carries
 * (past $9,007 a float holds no whole picodollar, and a change of a picodollar came out as two). The exact
 * amounts ride on the report's rows under a symbol key, which `JSON.stringify` leaves out.
 */
import { usdToPico } from '../money.js';
import { formatUsd } from './money.js';

/** The key a what-if report row's exact spend (bigint picodollars) is kept under. */
export const COST_PICO: unique symbol = Symbol('costPico');

/** A what-if report row's spend: its USD figure, and its exact picodollars when the report was built here. */
export interface ExactSpend {
  costUsd: number;
  [COST_PICO]?: bigint;
}

/** A setting's spend less the baseline's, from exact picodollars: `-$1.2553`, `+$0.0100`, `$0`. */
export function spendChange(setting: ExactSpend, baseline: ExactSpend): string {
  const change = exactPico(setting) - exactPico(baseline);
  return `${change > 0n ? '+' : ''}${formatUsd(change)}`;
}

/** A row's exact spend; a row without it (a report read back from JSON) from its USD figure. */
function exactPico(row: ExactSpend): bigint {
  return row[COST_PICO] ?? BigInt(usdToPico(row.costUsd));
}
