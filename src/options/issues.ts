/**
 * How the option and argument checks collect what they find (rules.ts, arguments.ts): one issue per
 * field, thrown together as one UserError, and a value as a message shows it. Apart from rules.ts so
 * that the command line's own bundle (main, detectFormat: arguments.ts) loads no option rule. Pure: no node:*.
 */
import { UserError, type InputIssue } from '../errors.js';

/** Reports one problem: the field's dotted path, a zod-style code, what is wrong, what to do. */
export type Issue = (field: string, code: string, message: string, hint: string) => void;

/** The issues of one entry point's options (`file`: `<replayTrace options>`), thrown together. */
export class OptionIssues {
  readonly issues: InputIssue[] = [];
  constructor(private readonly file: string) {}
  readonly add: Issue = (field, code, message, hint) => void this.issues.push({ file: this.file, ...(field === '' ? {} : { field }), code, message, hint });
  throwIfAny(): void {
    if (this.issues.length > 0) throw new UserError(this.issues);
  }
}

/** A value as a message shows it (a string quoted; an object or function by its type). */
export function shown(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  return value === null || ['number', 'bigint', 'boolean', 'undefined'].includes(typeof value) ? String(value) : typeof value;
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
