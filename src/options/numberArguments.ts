/**
 * A library caller's number that mirrors a flag (a curve's spec: `steps`, `--steps`), held to that flag's
 * rule (flags/numberFlags.ts numberFault) and said as an argument (arguments.ts). Pure: no node:*.
 */
import { limitOf, limitWords, numberFault, numberKind, type NumberFlagRule } from '../flags/numberFlags.js';
import type { ArgumentRule } from './arguments.js';
import { shown, type Issue } from './issues.js';

/** A number by the rule of the flag it mirrors (flags/numberFlags.ts numberFault: the same kinds and limits). */
export function numberIssue(issue: Issue, value: unknown, rule: ArgumentRule & { number: NumberFlagRule }): void {
  if (value === undefined && rule.optional === true) return;
  const fault = typeof value === 'number' ? numberFault(value, rule.number) : 'kind';
  const limit = limitOf(rule.number);
  if (fault === 'too_large') issue(rule.field, 'too_large', `${String(value)} is too large: ${limitWords(limit)}`, `give at most ${limit.value ?? limit.max}`);
  else if (fault === 'kind') issue(rule.field, value === undefined ? 'missing_input' : 'invalid_number', `${value === undefined ? 'is missing: give' : `${shown(value)} is not`} ${numberKind(rule.number)}`, rule.hint);
}
