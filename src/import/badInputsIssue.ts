/**
 * The closing issue of a set of inputs refused because some files were bad (nothing written): how many, and
 * what to do. A file bad only because the price table does not price its model (`unknown_model`,
 * `unpriced_model`) is no damaged file: --skip-bad would leave out every run of that model, its cost and its
 * stops not counted in a report that reads as complete, so pricing the model is offered first and what
 * --skip-bad would drop is said. Pure: no node:*.
 */
import type { InputIssue } from '../errors.js';
import { counted } from '../plural.js';

/** Issue codes of a model the price table cannot price (pricing/suggest.ts, litellmTable.ts). */
const UNPRICED_CODES: ReadonlySet<string> = new Set(['unknown_model', 'unpriced_model']);

/** Whether every issue of a bad file is its model's price. */
function unpricedOnly(issues: readonly InputIssue[]): boolean {
  return issues.length > 0 && issues.every((issue) => UNPRICED_CODES.has(issue.code));
}

/** `bad` of `total` inputs have problems (`shown`: which are listed); `skipBad`: every input was bad under --skip-bad. */
export function badInputsIssue(bad: readonly { issues: InputIssue[] }[], total: number, opts: { shown: string; skipBad: boolean }): InputIssue {
  const { shown, skipBad } = opts;
  if (skipBad) return { code: 'bad_inputs', message: `every input file has problems${shown}: --skip-bad left no run to work on; nothing was written`, hint: 'fix the files, or name inputs that hold good runs' };
  const unpriced = bad.filter((input) => unpricedOnly(input.issues)).length;
  const message = `${bad.length} of ${total} input files have problems${shown}; nothing was written`;
  if (unpriced === 0) return { code: 'bad_inputs', message, hint: 'fix or remove them, or pass --skip-bad to go on without them' };
  const price = 'add the model to the table (or give its prices with --prices-override FILE), or price with another table';
  const dropped = 'every run of that model, its cost and stops not counted';
  const hint =
    unpriced === bad.length
      ? `${bad.length === 1 ? 'it is' : 'they are'} bad only for a model the price table does not price: ${price}; --skip-bad would leave out ${dropped}`
      : `${counted(unpriced, 'of them is', 'of them are')} bad only for a model the price table does not price: ${price}; fix or remove the others; --skip-bad would go on without all of them, ${dropped}`;
  return {
    code: 'bad_inputs',
    message,
    hint,
  };
}
