/**
 * How every number a user writes as text is read (command-line flags, `--try` and `--grid` values,
 * `check --tolerance`, serve's options): a decimal number, with an exponent if wanted; a share may be a
 * percentage of one (`2%`, `2e0%`). One rule, so that `.5e17` or `1e3` means the same wherever it is given.
 */

/** A decimal number, with an exponent if wanted (`0.5`, `.5`, `1e-6`); nothing else (no '', no hex, no Infinity). */
const DECIMAL = /^(\d+(\.\d*)?|\.\d+)(e[+-]?\d+)?$/i;

/** `value` as a number when written as a decimal number (space around it ignored), else NaN. */
export function decimalNumber(value: string): number {
  return DECIMAL.test(value.trim()) ? Number(value) : NaN;
}

/**
 * A share written as a number (decimalNumber: `0.02`, `2e-2`) or a percentage (`2%`, `2e0%`): the
 * fraction it gives (`0.02`), else NaN. Whether it is in range is the flag's to say.
 */
export function shareNumber(value: string): number {
  const text = value.trim();
  return text.endsWith('%') ? decimalNumber(text.slice(0, -1)) / 100 : decimalNumber(text);
}

/**
 * A share (shareNumber) from 0 to 1 written with an exponent, written without one (`1e-1` → `0.1`,
 * `9e1%` → `0.9`); any other text as given. For a flag whose reader takes plain decimals only (`sweep
 * --target-completion`): the same number reaches it, and text it refuses is quoted as the user wrote it.
 */
export function plainShareText(value: string): string {
  const share = shareNumber(value);
  return share >= 0 && share <= 1 && /e/i.test(value) ? plainFraction(share) : value;
}

/** A share in decimal digits, no exponent: String(n) (the shortest digits that read back as n), its `e-N` written out as zeros. */
function plainFraction(n: number): string {
  const written = /^(\d)(?:\.(\d+))?e-(\d+)$/.exec(String(n));
  return written === null ? String(n) : `0.${'0'.repeat(Number(written[3]) - 1)}${written[1]}${written[2] ?? ''}`;
}
