/**
 * `--tolerance` (check's and compare's) and the library's parseTolerance: one reading of a tolerance. A share
 * as every share flag takes one (io/numberText.ts shareFlagValue: `0.05`, `.05`, `1e-3`, with a `%` after it
 * for a percentage), from 0 (none: the figures must match) to 100%, except a bare number of 1 or more. A bare
 * `1` is a fraction, 100%: a tolerance under which nearly nothing drifts, read so silently when `1%` was meant
 * (while `5`, 500%, would be refused only as past 100%). Such a number is refused, saying what it would mean
 * and how to write what was meant; `100%` written with its `%` is taken.
 */
import { UserError } from '../errors.js';
import { shareFlagValue, shareNumber } from '../io/numberText.js';
import { requireStrings } from '../options/textArguments.js';

/** `'1' would mean 100%`: the percentage a bare share is, for the message (at most 12 significant digits). */
function percentOf(share: number): string {
  return `${Number((share * 100).toPrecision(12))}%`;
}

/** A bare number of 1 or more (`1`, `+1`, `5`, `1e0`), refused saying what it would mean and what to write. */
function bareWholeShare(text: string): UserError | undefined {
  // `+1` too: its sign aside, it is the bare number 1.
  const written = text.trim().replace(/^\+\s*/, '');
  const share = written.endsWith('%') ? NaN : shareNumber(written);
  if (!(Number.isFinite(share) && share >= 1)) return undefined;
  const fraction = share / 100;
  const ways = [`${written}%`, ...(fraction < 1 ? [`${Number(fraction.toPrecision(12))}`] : [])].join(' or ');
  return new UserError({
    file: '<command line>',
    field: '--tolerance',
    code: 'bad_value',
    message: `'${text}' would mean ${percentOf(share)}: write ${ways}`,
    hint: `a bare number is a fraction (0.05 is 5%); ${share === 1 ? 'write 100% if 100% is meant' : 'a tolerance is at most 100%'}`,
  });
}

/** `5%` or `0.05` → 0.05; `100%` → 1; `1` (100%, when `1%` was likely meant) or `5` is refused. */
export function parseTolerance(text: string): number {
  requireStrings('parseTolerance', { text });
  const bare = bareWholeShare(text);
  if (bare !== undefined) throw bare;
  return shareFlagValue(text, { flag: '--tolerance', accepts: (share) => share >= 0 && share <= 1, notA: 'is not a tolerance between 0% and 100%', hint: "write a percentage ('5%') or a fraction ('0.05', '1e-3'); 0 for none" });
}
