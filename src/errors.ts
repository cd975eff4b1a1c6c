/**
 * Two kinds of failure, as in openai-agents-js: a UserError is the user's input or usage (exit 2, one
 * clear message, no stack trace); anything else is ours (exit 1).
 */

/** One problem with the input, zod-style: where it is, what is wrong, what to do. */
export interface InputIssue {
  /** File path; `<command line>` for a flag; `<X options>` / `<X arguments>` for a library entry point's argument. */
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

/** C0 and C1 control characters and DEL (ANSI escape sequences start with ESC, 0x1b, or CSI, 0x9b). */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;
// eslint-disable-next-line no-control-regex
const CONTROL_EXCEPT_NEWLINE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/g;

function escapeControl(ch: string): string {
  if (ch === '\n') return '\\n';
  if (ch === '\t') return '\\t';
  if (ch === '\r') return '\\r';
  return `\\x${ch.charCodeAt(0).toString(16).padStart(2, '0')}`;
}

/**
 * Text from an input made safe to print on a terminal: every control character (an ANSI escape, a
 * carriage return, a bell, a line break) is shown as its escape, e.g. `\x1b[31m`, instead of acting.
 */
export function sanitizeForTerminal(text: string): string {
  return text.replace(CONTROL, escapeControl);
}

/** The same for text of several lines (a message): its line breaks kept, every other control character escaped. */
export function sanitizeLinesForTerminal(text: string): string {
  return text.replace(CONTROL_EXCEPT_NEWLINE, escapeControl);
}

/** One issue on one line: `file:line N field 'f': message (hint)`, every part made safe to print. */
export function formatIssue(issue: InputIssue): string {
  const where = [issue.file, issue.line !== undefined ? `line ${issue.line}` : undefined]
    .filter((part) => part !== undefined)
    .join(':');
  const field = issue.field ? `field '${issue.field}'` : '';
  const place = [where, field].filter((part) => part !== '').join(' ');
  const prefix = place ? `${place}: ` : '';
  const hint = issue.hint ? ` (${issue.hint})` : '';
  return sanitizeForTerminal(`${prefix}${issue.message}${hint}`);
}

export function userError(issue: InputIssue): UserError {
  return new UserError(issue);
}

/** How many issues a single input may report before we stop collecting (a binary file has thousands). */
export const MAX_REPORTED_ISSUES = 20;

/**
 * `error` with the issues that name no file placed by `place`: the engine refuses what it cannot compute
 * with an issue that knows no file, and the caller knows which file, run or session it was working on. Any
 * other error (or one whose issues are all placed) is returned as it is.
 */
export function placeIssues(error: unknown, place: (issue: InputIssue) => InputIssue): unknown {
  if (!(error instanceof UserError) || error.issues.every((issue) => issue.file !== undefined)) return error;
  return new UserError(error.issues.map((issue) => (issue.file !== undefined ? issue : place(issue))));
}
