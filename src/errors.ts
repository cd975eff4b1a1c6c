/**
 * Two kinds of failure, as in openai-agents-js: a UserError is the user's input or usage (exit 2, one
 * clear message, no stack trace); anything else is ours (exit 1).
 */

/** One problem with the input, zod-style: where it is, what is wrong, what to do. */
export interface InputIssue {
  /** File path (or '<flag>' for command-line problems). */
  file?: string;
  /** 1-based line number (JSONL) or record number, when there is one. */
  line?: number;
  /** Dotted path of the offending field, e.g. `toolCalls[0].resultTokens`. */
  field?: string;
  /** Machine-readable code, e.g. `invalid_json`, `missing_field`, `negative_number`. */
  code: string;
  message: string;
  /** What the user should do about it. */
  hint?: string;
}

export class UserError extends Error {
  readonly issues: InputIssue[];
  constructor(issues: InputIssue[] | InputIssue) {
    const list = Array.isArray(issues) ? issues : [issues];
    super(list.map(formatIssue).join('\n'));
    this.name = 'UserError';
    this.issues = list;
  }
}

export function formatIssue(issue: InputIssue): string {
  const where = [issue.file, issue.line !== undefined ? `line ${issue.line}` : undefined]
    .filter((part) => part !== undefined)
    .join(':');
  const field = issue.field ? `field '${issue.field}'` : '';
  const place = [where, field].filter((part) => part !== '').join(' ');
  const prefix = place ? `${place}: ` : '';
  const hint = issue.hint ? ` (${issue.hint})` : '';
  return `${prefix}${issue.message}${hint}`;
}

export function userError(issue: InputIssue): UserError {
  return new UserError(issue);
}

/** How many issues a single input may report before we stop collecting (a binary file has thousands). */
export const MAX_REPORTED_ISSUES = 20;
