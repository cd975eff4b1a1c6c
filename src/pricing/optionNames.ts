/**
 * What a complaint about the price options calls them: loadPriceTable's own names for a library caller,
 * the flags that give them for the CLI (one rule in pricing/index.ts, the caller's vocabulary passed in).
 * A module of its own, so the CLI's flag parsing names them without loading a price table. Pure: no node:*.
 */

/** Where the price options were given (`file`) and each one's name there. */
export interface PriceOptionNames {
  file: string;
  pricesFile: string;
  overridesFile: string;
  asOf: string;
}

/** loadPriceTable's own option names (a library caller's). */
export const PRICE_TABLE_OPTIONS: Readonly<PriceOptionNames> = Object.freeze({ file: '<loadPriceTable options>', pricesFile: 'pricesFile', overridesFile: 'overridesFile', asOf: 'asOf' });

/** The flags that give them on the command line. */
export const COMMAND_LINE_PRICE_OPTIONS: Readonly<PriceOptionNames> = Object.freeze({ file: '<command line>', pricesFile: '--prices', overridesFile: '--prices-override', asOf: '--prices-as-of' });
