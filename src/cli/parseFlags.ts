/**
 * The command line's own flags: where prices come from (`--prices`, `--prices-override`, `--prices-as-of`)
 * and how inputs are read (`--max-input-mb`, `--max-line-mb`, `--skip-bad`). The settings runs are replayed
 * under (brakes, context, latency, cost limits) are read by src/flags/settingsFlags.ts.
 */
import type { InputSetOptions } from '../import/inputSet.js';
import { BYTES_PER_MB, MAX_COUNT, type ReadLimits } from '../io/limits.js';
import { watchOverrides } from './overrideMisses.js';
import { overrideMisses } from '../pricing/overrideMisses.js';
import type { PriceTable } from '../pricing/types.js';
import { numberFlag, type NumberLimit } from '../flags/numberFlags.js';
import { calendarDayProblem } from '../trace/traceDates.js';
import { UserError } from '../errors.js';
import type { LoadPriceTableOptions } from '../pricing/index.js';
import { COMMAND_LINE_PRICE_OPTIONS } from '../pricing/optionNames.js';

/** The most MB a size flag takes: 2^53 − 1 bytes, the most a byte count holds exactly. */
const MAX_MB: NumberLimit = { max: Math.floor(MAX_COUNT / BYTES_PER_MB), text: `${Math.floor(MAX_COUNT / BYTES_PER_MB)} MB`, why: '2^53 − 1 bytes, the most a byte count holds exactly' };

export interface PriceFlags {
  prices?: string;
  pricesOverride?: string;
  pricesAsOf?: string;
}

/** A calendar day `YYYY-MM-DD` (UTC midnight); 2026-02-30 and other impossible days are refused. */
export function calendarDay(flag: string, value: string): Date {
  // The one rule of a day (trace/traceDates.ts): written YYYY-MM-DD, on the calendar, in the years 1970–9999.
  const problem = calendarDayProblem(value.trim());
  if (problem !== undefined) throw new UserError({ file: '<command line>', field: flag, code: 'bad_value', message: `'${value}' ${problem}` });
  return new Date(`${value.trim()}T00:00:00Z`);
}

export function priceOptionsFromFlags(flags: PriceFlags): LoadPriceTableOptions {
  return {
    ...(flags.prices === undefined ? {} : { pricesFile: flags.prices }),
    ...(flags.pricesOverride === undefined ? {} : { overridesFile: flags.pricesOverride, watchOverrides: (table: PriceTable) => watchOverrides((asker) => overrideMisses(table, asker)) }),
    ...(flags.pricesAsOf === undefined ? {} : { asOf: calendarDay('--prices-as-of', flags.pricesAsOf) }),
    optionNames: COMMAND_LINE_PRICE_OPTIONS,
  };
}

export interface ReadFlags {
  maxInputMb?: string;
  maxLineMb?: string;
  skipBad?: boolean;
}

/** `--max-input-mb`, `--max-line-mb`, `--skip-bad` as the input set's options. */
export function readOptionsFromFlags(flags: ReadFlags): InputSetOptions {
  const limits: Partial<ReadLimits> = {};
  if (flags.maxInputMb !== undefined) limits.maxInputBytes = Math.round(numberFlag('--max-input-mb', flags.maxInputMb, { example: '512', limit: MAX_MB }) * BYTES_PER_MB);
  if (flags.maxLineMb !== undefined) limits.maxLineBytes = Math.round(numberFlag('--max-line-mb', flags.maxLineMb, { example: '512', limit: MAX_MB }) * BYTES_PER_MB);
  return { limits, skipBad: flags.skipBad === true };
}
