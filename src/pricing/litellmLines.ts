/**
 * The line of a price file's value problem: a price that is no number, a negative one, an unknown key, an
 * entry that is no object are found after JSON.parse, which keeps no positions, so each issue is placed by
 * finding its field in the text (src/io/jsonSyntax.ts jsonFieldOffset, the scan that places a syntax error's
 * field), as a syntax error there (`NaN`) is named by its line.
 */
import type { InputIssue } from '../errors.js';
import { jsonFieldOffset, lineOfOffset } from '../io/jsonSyntax.js';
import { shownName } from '../shownName.js';

/**
 * `issue` of the entry `key` (its value `value`) with the line of its field in `text`: the entry's own key's
 * value when the issue names the entry, else that of the entry's field it names (`<model>.<field>`, as
 * litellm.ts writes them, each name as shownName shows it). Unchanged when it has a line or names neither.
 */
export function withFieldLine(issue: InputIssue, text: string, entry: { key: string; value: unknown }): InputIssue {
  if (issue.line !== undefined || issue.field === undefined) return issue;
  const model = shownName(entry.key);
  const fields = typeof entry.value === 'object' && entry.value !== null && !Array.isArray(entry.value) ? Object.keys(entry.value) : [];
  const field = fields.find((name) => issue.field === `${model}.${shownName(name)}`);
  if (field === undefined && issue.field !== model) return issue;
  const offset = jsonFieldOffset(text, field === undefined ? [entry.key] : [entry.key, field]);
  return offset === undefined ? issue : { ...issue, line: lineOfOffset(text, offset) };
}

/**
 * `issue` of the entry `key` placed as withFieldLine places it, else at the line of the entry's key: a problem
 * found only when a model is priced (an impossible price order with a field the table gave, an entry too
 * incomplete to price alone) is the entry's.
 */
export function withEntryLine(issue: InputIssue, text: string, entry: { key: string; value: unknown }): InputIssue {
  const placed = withFieldLine(issue, text, entry);
  if (placed.line !== undefined) return placed;
  const offset = jsonFieldOffset(text, [entry.key]);
  return offset === undefined ? placed : { ...placed, line: lineOfOffset(text, offset) };
}
