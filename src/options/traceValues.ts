/**
 * The values of a Trace a library caller gives (replayTrace, compileTrace, replayTree, populationRuns…),
 * held to the native reader's own schema (trace/schema.ts, with its zod-free fast path trace/fastRecord.ts)
 * and each record's rules (trace/rules.ts): a count given as a string (`outputTokens: "250"`), a negative
 * one, a call that is `null` would otherwise be summed wrongly or fail deep inside with a TypeError.
 * Refused as one UserError naming the argument's path (`<replayTrace arguments>` field
 * `trace.calls[3].outputTokens`).
 *
 * Checked once per Trace object (a what-if grid or a tree replays the same run many times), and never for a
 * run the readers or generators made (madeValid: valid by construction), whose check would cost a fifth to
 * a third of its first replay (~0.5 µs a call). A run checked here is frozen (trace/freezeTrace.ts): a change
 * after it throws. A reader's run changed before its first replay is not checked.
 * Pure: no node:*.
 */
import type { z } from 'zod';
import { MAX_REPORTED_ISSUES, UserError, type InputIssue } from '../errors.js';
import { isSurelyValidCall, isSurelyValidEnd, isSurelyValidHeader } from '../trace/fastRecord.js';
import { callRuleViolations, endRuleViolations, headerRuleViolations, RULES_HINT, type RuleViolation } from '../trace/rules.js';
import { traceSchemas } from '../trace/schema.js';
import { freezeTrace } from '../trace/freezeTrace.js';
import type { CallRecord, Trace } from '../trace/types.js';
import { zodIssueWords } from '../zodWords.js';
import { fieldPath } from '../fieldPath.js';

/** Runs found valid (or made valid by construction): not checked again. */
const checked = new WeakSet<object>();

const HINT = 'each record as the native format has it (docs/trace-format.md); loadTraceFile reads a file into runs that hold it';

/** A run valid by construction (a reader's, a generator's): its values are not checked again. */
export function madeValid<T extends Trace>(trace: T): T {
  checked.add(trace);
  return trace;
}

/**
 * `trace`, a Trace in shape (given.ts requireTrace), its values checked as the native reader checks a
 * file's; `file` names the entry point's arguments (`<replayTrace arguments>`), `field` the argument's path.
 */
export function requireTraceValues(file: string, trace: Trace, field: string): void {
  if (checked.has(trace)) return;
  const issues = schemaIssues(trace, `${field}.`);
  // The rules read the records' values as numbers and objects: only once the schema holds.
  if (issues.length === 0) ruleIssues(issues, trace, field);
  if (issues.length > 0) throw new UserError(issues.slice(0, MAX_REPORTED_ISSUES).map((issue) => ({ ...issue, file, hint: issue.hint ?? HINT })));
  checked.add(trace);
  // Checked once: frozen, so that no later change goes unchecked (trace/freezeTrace.ts).
  freezeTrace(trace);
}

/**
 * The rules of each record that its figures rest on (trace/rules.ts): counts, amounts and latencies held
 * exactly (`too_large`), a call's cache and reasoning within its usage (`inconsistent_usage`), arguments
 * nested no deeper than a fingerprint reads (`too_deep`). Not those of how a record tells its event (a
 * refusal's numbers and marks, a failed call's status, an unreached tool call, an abort) nor the order of
 * the calls (one after a final answer or a refusal), which the reader holds a file to: a replay plays
 * each as its engines do alike (a run ends at its first final answer or refusal), and the engines'
 * equivalence tests replay such runs on purpose.
 */
const FIGURE_RULES: ReadonlySet<RuleViolation['code']> = new Set(['too_large', 'inconsistent_usage', 'too_deep']);

function ruleIssues(out: InputIssue[], trace: Trace, field: string): void {
  const add = (at: string, v: RuleViolation) => {
    if (FIGURE_RULES.has(v.code)) out.push({ file: '', field: `${field}.${at}${v.field}`, code: v.code, message: v.message, hint: v.hint ?? RULES_HINT });
  };
  for (const v of headerRuleViolations(trace.header)) add('header.', v);
  for (let k = 0; k < trace.calls.length && out.length < MAX_REPORTED_ISSUES; k++) for (const v of callRuleViolations(trace.calls[k]!)) add(`calls[${k}].`, v);
  for (const v of endRuleViolations(trace.end)) add('end.', v);
}

/**
 * One call record as a trace's calls are held (its schema, then its figure rules): what a step source hands a
 * loop (runLoop's StepSource), each issue's field under `at` (`source.next()`), its file left to the caller.
 */
export function callValueIssues(call: unknown, at: string): InputIssue[] {
  const issues: InputIssue[] = [];
  recordIssues(issues, { schema: traceSchemas().callSchema, value: call, at, fast: isSurelyValidCall });
  if (issues.length > 0) return issues;
  for (const v of callRuleViolations(call as CallRecord)) {
    if (FIGURE_RULES.has(v.code)) issues.push({ file: '', field: `${at}.${v.field}`, code: v.code, message: v.message, hint: v.hint ?? RULES_HINT });
  }
  return issues;
}

/** Every record against its schema: the header, each call, the end (the first MAX_REPORTED_ISSUES issues). */
function schemaIssues(trace: Trace, prefix: string): InputIssue[] {
  const { headerSchema, callSchema, endSchema } = traceSchemas();
  const issues: InputIssue[] = [];
  recordIssues(issues, { schema: headerSchema, value: trace.header, at: `${prefix}header`, fast: isSurelyValidHeader });
  for (let i = 0; i < trace.calls.length && issues.length < MAX_REPORTED_ISSUES; i++) {
    recordIssues(issues, { schema: callSchema, value: trace.calls[i], at: `${prefix}calls[${i}]`, fast: isSurelyValidCall });
  }
  recordIssues(issues, { schema: endSchema, value: trace.end, at: `${prefix}end`, fast: isSurelyValidEnd });
  return issues;
}

interface RecordCheck {
  schema: z.ZodType;
  value: unknown;
  /** The record's path (`trace.calls[3]`). */
  at: string;
  /** The reader's zod-free test of a common record (a record it accepts, zod accepts). */
  fast: (value: unknown) => boolean;
}

function recordIssues(out: InputIssue[], { schema, value, at, fast }: RecordCheck): void {
  if (fast(value) || schema.safeParse(value).success) return;
  // Parsed again with the input reported: what the issues are worded from (as the reader does).
  const error = schema.safeParse(value, { reportInput: true }).error!;
  for (const issue of error.issues) {
    const words = zodIssueWords(issue, { schema, value });
    out.push({ file: '', field: fieldPath(issue.path, at), code: words?.code ?? issue.code, message: words?.message ?? issue.message, ...(words?.hint === undefined ? {} : { hint: words.hint }) });
  }
}

/** Every run of a reader's array made valid (madeValid); the array itself. */
export function allMadeValid<T extends Trace>(traces: T[]): T[] {
  for (const trace of traces) checked.add(trace);
  return traces;
}

/** A reader's runs, each made valid (madeValid) as it is handed out. */
export async function* madeValidStream(runs: AsyncIterable<Trace>): AsyncGenerator<Trace> {
  for await (const run of runs) yield madeValid(run);
}
