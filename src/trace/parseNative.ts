/**
 * Reads native JSONL traces. A file holds one or more runs, each `header`, `call`*, `end`. Every problem
 * is collected with its line and field, then reported together.
 */
import { MAX_REPORTED_ISSUES, UserError, type InputIssue } from '../errors.js';
import { parsedJsonTextProblem } from '../io/jsonText.js';
import { answerAgainstEnd, doneAfterLastCall } from './callOrder.js';
import { AFTER_REFUSAL_HINT, afterFinalViolation, afterRefusalViolation, callRuleViolations, completedAfterRefusal, endRuleViolations, headerRuleViolations, RULES_HINT, type RuleViolation, type WrittenNumbers } from './rules.js';
import { traceSchemas } from './schema.js';
import { isSurelyValidRecord } from './fastRecord.js';
import type { CallRecord, Trace, TraceEnd, TraceHeader, TraceRecord } from './types.js';
import { unsignZeros } from './unsignZeros.js';
import { invalidJsonIssue, numbersAsWritten } from './jsonLine.js';
import { zodIssues } from './zodLineIssues.js';
import { requireStrings } from '../options/textArguments.js';
import { allMadeValid } from '../options/traceValues.js';
import { cutOffEnd, dropThrownSent, restatedLive } from './liveRecording.js';
import { TornLastLine } from './tornLine.js';

/** The rules of src/trace/rules.ts for one record (`written`: how its line wrote its numbers, for a line found bad). */
/** A rule's violation at a file's line, as an input issue (the rules' own hint, else RULES_HINT). */
function issueOf(v: RuleViolation, at: { file: string; line: number }, hint = v.hint ?? RULES_HINT): InputIssue {
  return { ...at, field: v.field, code: v.code, message: v.message, hint };
}

function ruleViolations(record: TraceRecord, written?: WrittenNumbers): RuleViolation[] {
  if (record.type === 'call') return callRuleViolations(record, written);
  if (record.type === 'header') return headerRuleViolations(record, written);
  return endRuleViolations(record, written);
}

/** A line's record when it is valid; else its problems, and whether it is (or reads as) a header line. */
function lineRecord(text: string, at: { file: string; line: number }): { record?: TraceRecord; issues: InputIssue[]; header: boolean } {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    return { issues: [invalidJsonIssue(error as Error, text, at)], header: HEADER_TEXT.test(text) };
  }
  const header = (raw as { type?: unknown } | null)?.type === 'header';
  const problem = parsedJsonTextProblem(text, raw, { numbers: true });
  if (problem) {
    const hint = problem.code === 'too_large' ? RULES_HINT : 'each line must be one plain JSON record; see docs/trace-format.md';
    return { issues: [{ ...at, ...(problem.field === undefined ? {} : { field: problem.field }), code: problem.code, message: problem.message, hint }], header };
  }
  // Most records are of the common shape, recognised without zod (fastRecord.ts). Without reportInput zod validates ~2× faster; a record that fails is checked again with it, for
  // the inputs the issues are worded from (missing vs wrong type, NaN).
  if (!isSurelyValidRecord(raw) && !traceSchemas().recordSchema.safeParse(raw).success) {
    return { issues: zodIssues(traceSchemas().recordSchema.safeParse(raw, { reportInput: true }).error!, { ...at, raw, text }), header };
  }
  // The raw object, not zod's copy: it keeps the key order the file had, so import → write round-trips.
  const record = raw as TraceRecord;
  if (text.includes('-0')) unsignZeros(record);
  if (ruleViolations(record).length > 0) {
    // Said again with the numbers as the line wrote them (a bad line only: the rules run on every line).
    const broken = ruleViolations(record, { writtenAt: numbersAsWritten(text) });
    return { issues: broken.map((v) => issueOf(v, at)), header };
  }
  return { record, issues: [], header };
}

/** A line that reads as a header though it is not JSON (looksLikeNativeTrace's test). */
const HEADER_TEXT = /"type"\s*:\s*"header"/;

/** One line of a native file, 1-based. */
export interface NativeLine {
  line: number;
  text: string;
}

/** Told each valid header line a reader reads (its file as named, its line), also of a run never handed out (its file bad). */
export type HeaderRead = (read: { file: string; line: number; header: TraceHeader }) => void;

function* linesOfText(content: string): Generator<NativeLine> {
  const lines = content.split('\n');
  for (let i = 0; i < lines.length; i++) yield { line: i + 1, text: lines[i]! };
}

/** Reads a whole native file held as text. */
export function parseNativeTraces(content: string, file: string): Trace[] {
  requireStrings('parseNativeTraces', { content, file });
  return allMadeValid([...streamNativeTraces(linesOfText(content), file)]);
}

/**
 * Reads native runs line by line, handing each run out once its `end` line is read, so a file of any size
 * is read at the memory of one run. After the first problem no more runs are handed out; the rest of the
 * file is still read for further problems (up to MAX_REPORTED_ISSUES) and all of them are thrown together
 * at the end, so a caller that writes its output only after the last run writes nothing. A file with
 * several runs names them `file#1`, `file#2`, ...; a file with one run, `file` (hence one run held back
 * until the next starts or the file ends).
 */
export class NativeTraceReader {
  private readonly issues: InputIssue[] = [];
  private header: TraceHeader | null = null;
  private headerLine = 0;
  private calls: CallRecord[] = [];
  /** The line of each of the run's calls (Trace.callLines). */
  private callLines: number[] = [];
  /** The line of the run's call its provider refused for its length (0: none): the run ends there. */
  private refusedLine = 0;
  /** The line of the run's last call read (a call after one marked final names it). */
  private callLine = 0;
  /** A header line was refused: its run's lines are skipped (refuseRun). */
  private skippingRun = false;
  private runs: number;
  private firstRun: Trace | undefined;
  private headers = 0;
  private readonly torn = new TornLastLine(); // A live recording's line that is no JSON, until a line follows it or the file ends (tornLine.ts).

  /** `runsBefore`: runs of the file before the first line read (a byte range of it: its runs named on from there). `headerRead`: told each valid header read. */
  constructor(
    private readonly file: string,
    runsBefore = 0,
    private readonly headerRead?: HeaderRead,
  ) {
    this.runs = runsBefore;
  }

  /** Header records read (a byte range's reader checks they are its header lines: src/import/nativeRange.ts). */
  get headerRecords(): number {
    return this.headers;
  }

  /** A problem was found (the file is bad: what follows is said by `finish`). */
  get troubled(): boolean {
    return this.issues.length > 0;
  }

  /** A run is open: its header read, its end not yet. */
  get open(): boolean {
    return this.header !== null;
  }

  /** Enough problems were found: the rest of the file need not be read. */
  get full(): boolean {
    return this.issues.length >= MAX_REPORTED_ISSUES;
  }

  /** Reads one line; returns the runs it completes (none, one, or the held-back first run and this one). */
  read(line: number, rawText: string): Trace[] {
    const text = rawText.trim();
    if (text === '') return [];
    this.issues.push(...this.torn.followed());
    const { record, issues, header } = lineRecord(text, { file: this.file, line });
    if (record === undefined) {
      if (this.torn.held(this.header, line, issues)) return [];
      this.issues.push(...issues);
      // A refused header's run is not read: its lines would each be told they have no header.
      if (header) this.refuseRun();
      return [];
    }
    if (this.skippingRun && record.type !== 'header') {
      if (record.type === 'end') this.skippingRun = false;
      return [];
    }
    this.skippingRun = false;
    return this.place(record, line);
  }

  /** A header line was refused: the lines of its run, up to its end or the next header, are skipped. */
  private refuseRun(): void {
    this.skippingRun = true;
    this.header = null;
    this.calls = [];
    this.callLines = [];
    this.refusedLine = 0;
  }

  /** A valid record put in its run. */
  private place(record: TraceRecord, line: number): Trace[] {
    const { file, issues } = this;
    if (record.type === 'header') {
      if (this.header) {
        issues.push({ file, line, field: 'type', code: 'unexpected_record', message: `header before the run started on line ${this.headerLine} has ended`, hint: "close each run with an 'end' record" });
      }
      this.header = record;
      this.headers += 1;
      this.headerLine = line;
      this.headerRead?.({ file, line, header: record });
      this.calls = [];
      this.callLines = [];
      this.refusedLine = 0;
    } else if (!this.header) {
      issues.push({ file, line, field: 'type', code: 'unexpected_record', message: `'${record.type}' record before any header`, hint: "start each run with a 'header' record" });
    } else if (record.type === 'call' && restatedLive(this.header, this.calls, this.callLines, record, line)) {
      this.callLine = line; // The call written again once sent or once its tools ran (liveRecording.ts), in place of its line written before.
    } else if (record.type === 'call') {
      if (this.refusedLine !== 0) {
        const v = afterRefusalViolation(`line ${this.refusedLine}`);
        issues.push(issueOf(v, { file, line }, AFTER_REFUSAL_HINT));
      } else if (record.failed?.contextLengthExceeded !== undefined) this.refusedLine = line;
      if (this.calls[this.calls.length - 1]?.final === true) {
        const v = afterFinalViolation(`the call on line ${this.callLine}`);
        issues.push(issueOf(v, { file, line }));
      }
      this.callLine = line;
      this.calls.push(record);
      this.callLines.push(line);
    } else {
      const completed = this.refusedLine === 0 ? undefined : completedAfterRefusal(record, `line ${this.refusedLine}`);
      if (completed !== undefined) issues.push(issueOf(completed, { file, line }));
      dropThrownSent(this.header, this.calls, this.callLines);
      const answered = answerAgainstEnd(this.calls, record, `line ${this.callLines[this.callLines.length - 1]}`);
      if (answered !== undefined) issues.push(issueOf(answered, { file, line }));
      const pastRun = doneAfterLastCall(this.header, this.calls);
      if (pastRun !== undefined) issues.push(issueOf(pastRun, { file, line: this.headerLine }));
      return this.endRun(record);
    }
    return [];
  }

  /** At the end of the file: every problem found, thrown together; else the run held back. */
  finish(): Trace[] {
    const { file, issues } = this;
    const tornLine = this.torn.last(this.header, issues);
    // A live recording cut off (the recorder's process was killed): its calls so far, ending in trace_end.
    if (this.header?.live === true && issues.length === 0) return [...this.endRun(cutOffEnd(this.header, this.calls, tornLine)), ...this.finish()];
    if (this.header && issues.length === 0) {
      issues.push({ file, line: this.headerLine, code: 'truncated', message: `run started on line ${this.headerLine} has no 'end' record`, hint: 'the file may be truncated; add an end record with the outcome' });
    }
    if (this.runs === 0 && issues.length === 0) {
      issues.push({ file, code: 'empty', message: 'holds no trace', hint: 'a trace is a header line, call lines and an end line' });
    }
    if (issues.length > 0) throw new UserError(issues);
    return this.firstRun ? [this.firstRun] : [];
  }

  /**
   * At the end of a byte range that is not the file's end (more runs follow): its problems thrown
   * together; else the first run, if held back, named as the first of several.
   */
  finishPart(): Trace[] {
    this.issues.push(...this.torn.followed());
    if (this.issues.length > 0) throw new UserError(this.issues);
    const first = this.firstRun;
    this.firstRun = undefined;
    if (first !== undefined) first.source = `${this.file}#1`;
    return first === undefined ? [] : [first];
  }

  private endRun(end: TraceEnd): Trace[] {
    const trace: Trace = { source: this.file, headerLine: this.headerLine, header: this.header!, calls: this.calls, callLines: Int32Array.from(this.callLines), end };
    this.header = null;
    this.calls = [];
    this.callLines = [];
    this.runs += 1;
    if (this.issues.length > 0) return [];
    if (this.runs === 1) {
      this.firstRun = trace;
      return [];
    }
    trace.source = `${this.file}#${this.runs}`;
    if (!this.firstRun) return [trace];
    const first = this.firstRun;
    first.source = `${this.file}#1`;
    this.firstRun = undefined;
    return [first, trace];
  }
}

/** The runs of native lines (see NativeTraceReader). */
export function* streamNativeTraces(lines: Iterable<NativeLine>, file: string): Generator<Trace> {
  const reader = new NativeTraceReader(file);
  for (const { line, text } of lines) {
    if (reader.full) break;
    yield* reader.read(line, text);
  }
  yield* reader.finish();
}

/** The runs of native lines arriving in batches, as an input is read (see NativeTraceReader; `headerRead`: told each valid header read). */
export async function* streamNativeTracesAsync(batches: AsyncIterable<NativeLine[]>, file: string, headerRead?: HeaderRead): AsyncGenerator<Trace> {
  const reader = new NativeTraceReader(file, 0, headerRead);
  outer: for await (const batch of batches) {
    for (const { line, text } of batch) {
      if (reader.full) break outer;
      // (Not `yield*`: in an async generator it wraps every line's array in an async iterator.)
      for (const trace of reader.read(line, text)) yield trace;
    }
  }
  yield* reader.finish();
}

export function looksLikeNativeTrace(firstLine: string): boolean {
  return HEADER_TEXT.test(firstLine) && firstLine.includes('loopcost.trace/');
}
