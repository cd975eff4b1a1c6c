/**
 * How every number a user writes as text is read (command-line flags, `--try` and `--grid` values,
 * `check --tolerance`, serve's options): a decimal number, with an exponent if wanted. One rule, so that
 * `.5e17` or `1e3` means the same wherever it is given.
 */

/** A decimal number, with an exponent if wanted (`0.5`, `.5`, `1e-6`); nothing else (no '', no hex, no Infinity). */
const DECIMAL = /^(\d+(\.\d*)?|\.\d+)(e[+-]?\d+)?$/i;

/** `value` as a number when written as a decimal number (space around it ignored), else NaN. */
export function decimalNumber(value: string): number {
  return DECIMAL.test(value.trim()) ? Number(value) : NaN;
}
