/**
 * How every number a user writes as text is read (command-line flags, `--try` and `--grid` values,
 * `check --tolerance`, serve's options): a decimal number, with an exponent if wanted; a share may be a
 * percentage of one (`2%`, `2e0%`). One rule, so that `.5e17` or `1e3` means the same wherever it is given.
 */
import { UserError } from '../errors.js';

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

/** How a share flag (`--tolerance`, `sweep --target-completion`, `project --suggest-cap`) says what it takes. */
export interface ShareFlagRule {
  flag: string;
  /** Whether the flag takes this share (its range). */
  accepts(share: number): boolean;
  /** What text the flag does not take is not, after the quoted text: `is not a tolerance between 0% and 100%`. */
  notA: string;
  hint: string;
  /** What to write instead of a share too small to tell from 0 when the flag does not take 0 (default `hint`). */
  smallHint?: string;
  /** When the flag takes no 0, what 0 is not, after the quoted text (`asks for no completion rate: …`): said with `smallHint` when 0 is written. */
  zeroNot?: string;
}

/**
 * A share flag's value (shareNumber) in the flag's range, else a UserError naming the flag, said the same
 * by every share flag: a share written with a sign the flag would take without it (`-0`, `+5%`: the number
 * rule takes no sign) says what to write instead; one written nonzero that reads as 0 (`1e-400`, below the
 * smallest double) is refused, not read as 0; 0 where the flag takes none says why (`rule.zeroNot`) and the
 * smallest useful value (`rule.smallHint`); anything else the flag does not take is `rule.notA`.
 */
export function shareFlagValue(value: string, rule: ShareFlagRule): number {
  const refuse = (message: string, hint: string) => new UserError({ file: '<command line>', field: rule.flag, code: 'bad_value', message: `'${value}' ${message}`, hint });
  const text = value.trim();
  if (text[0] === '+' || text[0] === '-') {
    // `+5%` means 5%, `-0` means 0: say to write it unsigned (`-5%` means no share: rule.notA, below).
    const unsigned = text.slice(1).trim();
    const meant = shareNumber(unsigned);
    if ((text[0] === '+' || meant === 0) && rule.accepts(meant) && !readsAsZeroOnly(unsigned)) throw refuse('has a sign, which a share is written without', `write ${unsigned}`);
    if (meant === 0 && rule.zeroNot !== undefined && !rule.accepts(0)) throw refuse(rule.zeroNot, rule.smallHint ?? rule.hint);
  }
  const share = shareNumber(text);
  if (readsAsZeroOnly(text)) {
    throw refuse('is too small a share to tell from 0 (it reads as 0 in double precision)', rule.accepts(0) ? 'write 0 if 0 is meant' : (rule.smallHint ?? rule.hint));
  }
  if (share === 0 && rule.zeroNot !== undefined && !rule.accepts(0)) throw refuse(rule.zeroNot, rule.smallHint ?? rule.hint);
  if (!rule.accepts(share)) throw refuse(rule.notA, rule.hint);
  return share;
}

/** A share (or a percentage) written nonzero (a digit 1–9 before any exponent) that reads as 0: `1e-400`, `1e-323%`. */
export function readsAsZeroOnly(text: string): boolean {
  return shareNumber(text) === 0 && /[1-9]/.test(text.split(/e/i)[0]!);
}
