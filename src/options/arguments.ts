/**
 * The guard at the top of a library entry point: its arguments checked before anything reads them, so a
 * `null` or a value of the wrong type is one UserError naming each argument by its own name
 * (`<parseScenario arguments>` field `text`: `null is not a string`), never a TypeError from deep inside.
 * The rules of options and settings are rules.ts' (priceTableIssue, objectIssue…); the kinds of value an
 * argument takes beside them are here (a number mirroring a flag: numberArguments.ts). Pure: no node:*.
 */
import { isObject, OptionIssues, shown, type Issue } from './issues.js';

/** The `file` an entry point's argument issues name: `<summaryPricingOf arguments>`. */
export function argumentsFile(entry: string): string {
  return `<${entry} arguments>`;
}

/** Runs `check` over an entry point's arguments and throws every issue it found as one UserError (`<entry arguments>`). */
export function checkArguments(entry: string, check: (issue: Issue) => void): void {
  const issues = new OptionIssues(argumentsFile(entry));
  check(issues.add);
  issues.throwIfAny();
}

/** What one argument is, to say it is not. */
export interface ArgumentRule {
  /** The argument's name (`text`), or its path (`options.prices`). */
  field: string;
  /** What to give, said in the hint. */
  hint: string;
  /** `undefined` passes (an optional argument). */
  optional?: boolean;
}

function kindIssue(issue: Issue, value: unknown, rule: ArgumentRule, what: string): void {
  if (value === undefined) issue(rule.field, 'missing_input', `is missing: give ${what}`, rule.hint);
  else issue(rule.field, 'invalid_input', `${shown(value)} is not ${what}`, rule.hint);
}

/** A string (a file's text, its name as messages say it). */
export function stringIssue(issue: Issue, value: unknown, rule: ArgumentRule): void {
  if (typeof value === 'string' || (value === undefined && rule.optional === true)) return;
  kindIssue(issue, value, rule, 'a string');
}

/** A plain object; true when it is one, to check further. */
export function objectArgumentIssue(issue: Issue, value: unknown, rule: ArgumentRule): value is Record<string, unknown> {
  if (isObject(value)) return true;
  if (value !== undefined || rule.optional !== true) kindIssue(issue, value, rule, 'an object');
  return false;
}

/** A function (a callback). */
export function functionIssue(issue: Issue, value: unknown, rule: ArgumentRule): void {
  if (typeof value === 'function' || (value === undefined && rule.optional === true)) return;
  kindIssue(issue, value, rule, 'a function');
}

/** An array whose every element is a plain object (`{ each: 'string' }`: a string); the first bad element named by its index. */
export function arrayIssue(issue: Issue, value: unknown, rule: ArgumentRule & { each: 'object' | 'string'; nonEmpty?: boolean }): void {
  if (value === undefined && rule.optional === true) return;
  if (!Array.isArray(value)) return kindIssue(issue, value, rule, `an array of ${rule.each}s`);
  if (rule.nonEmpty === true && value.length === 0) return issue(rule.field, 'missing_input', 'is empty', rule.hint);
  const bad = value.findIndex((element) => (rule.each === 'object' ? !isObject(element) : typeof element !== 'string'));
  if (bad >= 0) kindIssue(issue, value[bad], { ...rule, field: `${rule.field}[${bad}]` }, rule.each === 'object' ? 'an object' : 'a string');
}
