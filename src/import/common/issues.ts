/**
 * Reporting problems with the input as InputIssues. Two styles, one per kind of importer:
 * - `IssueCollector` collects every issue of a document (at most MAX_REPORTED_ISSUES, then a count) while
 *   reading it on, and throws them together as one UserError (trajectory importers);
 * - `inputError` builds the UserError of a single issue, for importers that stop at the first one.
 */
import { MAX_REPORTED_ISSUES, UserError, type InputIssue } from '../../errors.js';
import { amountTooLarge, countTooLarge, RULES_HINT } from '../../trace/rules.js';
import { describeValue, isJsonObject, type JsonObject } from './jsonValue.js';
import { counted } from '../../plural.js';

/** Where an issue is: the file, and when known the 1-based line and the field path. */
export interface IssueLocation {
  file: string;
  line?: number;
  field?: string;
}

/** A UserError for one issue at `at` (absent line, field and hint are left out of the issue). */
export function inputError(at: IssueLocation, code: string, message: string, hint?: string): UserError {
  return new UserError({
    file: at.file,
    ...(at.line !== undefined ? { line: at.line } : {}),
    ...(at.field !== undefined ? { field: at.field } : {}),
    code,
    message,
    ...(hint !== undefined ? { hint } : {}),
  });
}

function isAbsent(value: unknown): value is undefined | null {
  return value === undefined || value === null;
}

/**
 * Collects input issues (at most MAX_REPORTED_ISSUES) and throws them as one UserError. Its readers
 * return the value when it has the expected type, else record an issue and return undefined, so that one
 * pass over a document reports all its problems. `opt…` readers accept null and absent as absent.
 */
export class IssueCollector {
  readonly issues: InputIssue[] = [];
  private extra = 0;

  constructor(
    readonly file: string,
    private readonly defaultHint: string,
  ) {}

  add(field: string | undefined, code: string, message: string, hint?: string): void {
    if (this.issues.length >= MAX_REPORTED_ISSUES) {
      this.extra += 1;
      return;
    }
    const issue: InputIssue = { file: this.file, code, message, hint: hint ?? this.defaultHint };
    if (field !== undefined && field !== '') issue.field = field;
    this.issues.push(issue);
  }

  /** Issues seen so far, the ones past the cap included. */
  get count(): number {
    return this.issues.length + this.extra;
  }

  throwIfAny(): void {
    if (this.issues.length === 0) return;
    const issues = [...this.issues];
    if (this.extra > 0) {
      const last = issues[issues.length - 1]!;
      issues[issues.length - 1] = {
        ...last,
        message: `${last.message} (and ${counted(this.extra, 'more issue')} not shown)`,
      };
    }
    throw new UserError(issues);
  }

  /** Required object. */
  object(value: unknown, field: string): JsonObject | undefined {
    return this.required(value, field, 'an object', isJsonObject);
  }

  /** Optional object (null and absent both mean absent). */
  optObject(value: unknown, field: string): JsonObject | undefined {
    return isAbsent(value) ? undefined : this.object(value, field);
  }

  string(value: unknown, field: string): string | undefined {
    return this.required(value, field, 'a string', (v): v is string => typeof v === 'string');
  }

  optString(value: unknown, field: string): string | undefined {
    return isAbsent(value) ? undefined : this.string(value, field);
  }

  /** Required non-negative integer (token counts). */
  reqCount(value: unknown, field: string, what = 'a token count'): number | undefined {
    if (isAbsent(value)) {
      this.add(field, 'missing_field', `is missing (expected ${what}, a non-negative integer)`);
      return undefined;
    }
    return this.integer(value, field, what);
  }

  optCount(value: unknown, field: string, what = 'a token count'): number | undefined {
    return isAbsent(value) ? undefined : this.integer(value, field, what);
  }

  /** Optional non-negative finite number (USD amounts, limits). */
  optAmount(value: unknown, field: string, what = 'an amount'): number | undefined {
    if (isAbsent(value)) return undefined;
    const n = this.finiteNumber(value, field, `${what} (a number)`);
    return n === undefined ? undefined : this.nonNegative(n, field, what);
  }

  /** Optional recorded cost in USD: an amount no larger than a run's spend is summed exactly (src/trace/rules.ts). */
  optCostUsd(value: unknown, field: string): number | undefined {
    const n = this.optAmount(value, field, 'a cost in USD');
    const tooLarge = n === undefined ? undefined : amountTooLarge(field, n);
    if (tooLarge) {
      this.add(field, tooLarge.code, tooLarge.message, RULES_HINT);
      return undefined;
    }
    return n;
  }

  /** Optional finite number of any sign (timestamps, return codes). */
  optNumber(value: unknown, field: string, what = 'a number'): number | undefined {
    return isAbsent(value) ? undefined : this.finiteNumber(value, field, what);
  }

  private required<T>(value: unknown, field: string, expected: string, is: (value: unknown) => value is T): T | undefined {
    if (isAbsent(value)) {
      this.add(field, 'missing_field', `is missing (expected ${expected})`);
      return undefined;
    }
    if (!is(value)) {
      this.add(field, 'wrong_type', `expected ${expected}, got ${describeValue(value)}`);
      return undefined;
    }
    return value;
  }

  private integer(value: unknown, field: string, what: string): number | undefined {
    const finite = this.finiteNumber(value, field, `${what} (a non-negative integer)`);
    const n = finite === undefined ? undefined : this.nonNegative(finite, field, what);
    if (n !== undefined && !Number.isInteger(n)) {
      this.add(field, 'not_integer', `expected ${what} (an integer), got ${n}`);
      return undefined;
    }
    const tooLarge = n === undefined ? undefined : countTooLarge(field, n);
    if (tooLarge) {
      this.add(field, tooLarge.code, tooLarge.message, RULES_HINT);
      return undefined;
    }
    return n;
  }

  /** `expected` is the whole wording after "expected", e.g. `a token count (a non-negative integer)`. */
  private finiteNumber(value: unknown, field: string, expected: string): number | undefined {
    if (typeof value !== 'number' || !Number.isFinite(value)) {
      this.add(field, 'wrong_type', `expected ${expected}, got ${describeValue(value)}`);
      return undefined;
    }
    return value;
  }

  private nonNegative(value: number, field: string, what: string): number | undefined {
    if (value < 0) {
      this.add(field, 'negative_number', `expected ${what} ≥ 0, got ${value}`);
      return undefined;
    }
    return value;
  }
}
