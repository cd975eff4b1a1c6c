/**
 * The JSON lines of an agent's log (a Claude Code transcript, a Codex rollout), and the issues found in
 * them with their line numbers.
 *
 * Such a log is appended to while a session runs, so its last line may be cut (a copy taken mid-write, a
 * crash): that line is skipped and said in a note. A line that is not JSON anywhere else means the file
 * was damaged or edited: that is an input error naming the line.
 */
import { MAX_REPORTED_ISSUES, UserError, type InputIssue } from '../../errors.js';
import { jsonSyntaxPlace, syntaxMessage, type JsonSyntaxPlace } from '../../io/jsonSyntax.js';
import { parsedJsonTextProblem } from '../../io/jsonText.js';
import type { SourceLine } from '../../io/readLines.js';
import { IssueCollector } from './issues.js';
import { describeValue, isJsonObject, type JsonObject } from './jsonValue.js';
import { counted } from '../../plural.js';

/** Issues of one file, each with its line; thrown together. */
export class LineIssues {
  readonly issues: InputIssue[] = [];
  private extra = 0;

  /** `hint`: what the user should do about any issue of this file (the format and where it comes from). */
  constructor(
    readonly file: string,
    private readonly hint: string,
  ) {}

  add(line: number | undefined, field: string | undefined, code: string, message: string, hint = this.hint): void {
    if (this.issues.length >= MAX_REPORTED_ISSUES) {
      this.extra += 1;
      return;
    }
    this.issues.push({ file: this.file, ...(line !== undefined ? { line } : {}), ...(field ? { field } : {}), code, message, hint });
  }

  /** A collector for the fields of one line: what it finds is added here with the line number. */
  readLine<T>(line: number, read: (fields: IssueCollector) => T): T {
    const fields = new IssueCollector(this.file, this.hint);
    const value = read(fields);
    for (const issue of fields.issues) this.add(line, issue.field, issue.code, issue.message, issue.hint);
    return value;
  }

  get count(): number {
    return this.issues.length + this.extra;
  }

  throwIfAny(): void {
    if (this.issues.length === 0) return;
    const issues = [...this.issues];
    if (this.extra > 0) {
      const last = issues[issues.length - 1]!;
      issues[issues.length - 1] = { ...last, message: `${last.message} (and ${counted(this.extra, 'more issue')} not shown)` };
    }
    throw new UserError(issues);
  }
}

/** The lines of a text held whole (a leading byte-order mark dropped), numbered from 1. */
export function* linesOfText(text: string): Generator<SourceLine> {
  const lines = text.replace(/^\uFEFF/, '').split('\n');
  for (let i = 0; i < lines.length; i++) yield { line: i + 1, text: lines[i]! };
}

export interface JsonLine {
  line: number;
  value: JsonObject;
}

/**
 * Where a line JSON.parse refused fails, column for column as written: parsed again (the failure path only) with
 * its indent as spaces (JSON.parse takes those, not a no-break space) and its trailing blanks dropped (a CRLF
 * line's `\r` would be in a string cut short at its end); it fails as the trimmed line did.
 */
function placedAsWritten(text: string): JsonSyntaxPlace {
  const asWritten = text.trimEnd().replace(/^\s+/, (indent) => ' '.repeat(indent.length));
  try {
    JSON.parse(asWritten);
  } catch (error) {
    return jsonSyntaxPlace(asWritten, error, { noun: 'line' });
  }
  throw new Error(`placedAsWritten: a line JSON.parse refused trimmed parsed as written`);
}

/**
 * Reads a log's lines one at a time as JSON objects. A line that is not JSON is judged when the next
 * non-blank line comes: then it is an issue (the file is damaged); as the last line it is cut (`cutLine`).
 * Nesting, duplicate keys and numbers past a double's range are held to the rule of every JSON reader (src/io/jsonText.ts).
 */
export class JsonLineReader {
  /** The last line JSON.parse refused, placed (src/io/jsonSyntax.ts) when it fails, since the line is not kept. */
  private broken: { line: number; place: JsonSyntaxPlace } | undefined;

  constructor(private readonly issues: LineIssues) {}

  /** The line as a JSON object; undefined for a blank line, a line not (yet judged) JSON, or one with an issue. */
  read({ line, text }: SourceLine): JsonLine | undefined {
    const trimmed = text.trim();
    if (trimmed === '') return undefined;
    if (this.broken) {
      const { line: brokenLine, place } = this.broken;
      this.issues.add(brokenLine, place.field, 'invalid_json', `${syntaxMessage(place)}, and more lines follow it: the transcript is damaged`);
      this.broken = undefined;
    }
    let value: unknown;
    try {
      value = JSON.parse(trimmed);
    } catch {
      this.broken = { line, place: placedAsWritten(text) };
      return undefined;
    }
    if (!isJsonObject(value)) {
      this.issues.add(line, undefined, 'wrong_type', `expected one JSON object per line, got ${describeValue(value)}`);
      return undefined;
    }
    // A number past a double's range (`1e400`, read as Infinity) is named as written, as in every trace reader: only
    // a line the quick check cannot clear (one that holds ±Infinity, a repeated key, deep nesting) is scanned.
    const problem = parsedJsonTextProblem(trimmed, value, { numbers: true });
    if (problem) {
      this.issues.add(line, problem.field, problem.code, problem.message);
      return undefined;
    }
    return { line, value };
  }

  /** The last line, when it is not JSON: cut, as a log still being written ends. */
  get cutLine(): number | undefined {
    return this.broken?.line;
  }
}

/** What reads a file's lines one at a time and, at the end, says what they held. */
export interface LineConsumer<T> {
  read(line: SourceLine): void;
  finish(): T;
}

/**
 * A log's JSON lines read one at a time: each object goes to `read`; at the end the issues of every line
 * are thrown together, else `finish` gets the cut last line (if any) and says what the log held.
 */
export function jsonLineConsumer<T>(issues: LineIssues, read: (line: number, value: JsonObject) => void, finish: (cutLine: number | undefined) => T): LineConsumer<T> {
  const json = new JsonLineReader(issues);
  return {
    read(source) {
      const parsed = json.read(source);
      if (parsed) read(parsed.line, parsed.value);
    },
    finish() {
      issues.throwIfAny();
      return finish(json.cutLine);
    },
  };
}

/** Feeds lines held in memory (a text, a test's lines) to `consumer`. */
export function consumeLines<T>(lines: Iterable<SourceLine>, consumer: LineConsumer<T>): T {
  for (const line of lines) consumer.read(line);
  return consumer.finish();
}

/** Feeds the lines of an input as they are read (batches: src/io/readLines.ts) to `consumer`. */
export async function consumeLineBatches<T>(batches: AsyncIterable<SourceLine[]>, consumer: LineConsumer<T>): Promise<T> {
  for await (const batch of batches) for (const line of batch) consumer.read(line);
  return consumer.finish();
}
