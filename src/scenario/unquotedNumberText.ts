/**
 * A string where a number belongs, written in a scenario file without quotes: the shared wording
 * (src/zodWords.ts) says "write the number without quotes", which is true of `runs: "20"` and of JSON, but
 * not of `runs: !!str 20` (a tag made it a string) nor of `runs: 0b101` (YAML's core schema reads no such
 * number, so the plain text is a string). Those are worded here, from how the file writes the value; a
 * quoted value, or one whose writing is not known, is left to the shared words.
 */
import type { z } from 'zod';
import { isTypeUnion } from '../zodWords.js';

/** How the file writes the value at an issue's path: its text (quotes included) and its tag (`!!str`, `!`). */
export interface WrittenValue {
  written: string | undefined;
  tag: string | undefined;
}

const wantsNumber = (issue: z.core.$ZodIssue): boolean =>
  issue.code === 'invalid_type' ? issue.expected === 'number' || issue.expected === 'int' : isTypeUnion(issue) && issue.code === 'invalid_union' && issue.errors.some((branch) => branch[0]!.code === 'invalid_type' && (branch[0]!.expected === 'number' || branch[0]!.expected === 'int'));

/** Why the unquoted writing is text to YAML: its tag, a block of text, or a numeral the core schema does not read. */
function whyText(given: string, { written, tag }: WrittenValue & { written: string }): { why: string; fix: string } {
  if (tag !== undefined) return { why: `its tag ${tag} makes it one`, fix: `remove the tag ${tag}` };
  if (/^[|>]/.test(written)) return { why: 'a block of text (| or >) is one', fix: 'write the number on the line of its field' };
  return { why: `YAML reads ${given.trim()} as text`, fix: 'write the number in decimal (20, 2.5, 1e3), or as YAML writes one (0x14, 0o24)' };
}

/**
 * `is the string "20" (its tag !!str makes it one), not a number: remove the tag !!str`; undefined unless
 * the issue is a number-like string where a number belongs, written without quotes.
 */
export function unquotedNumberWords(issue: z.core.$ZodIssue, given: unknown, how: WrittenValue): { code: string; message: string } | undefined {
  if (typeof given !== 'string' || given.trim() === '' || !Number.isFinite(Number(given)) || !wantsNumber(issue)) return undefined;
  const { written } = how;
  if (written === undefined || /^["']/.test(written)) return undefined;
  const { why, fix } = whyText(given, { ...how, written });
  return { code: 'invalid_type', message: `is the string ${JSON.stringify(given)} (${why}), not a number: ${fix}` };
}
