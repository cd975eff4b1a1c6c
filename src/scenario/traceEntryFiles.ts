/**
 * Where a scenario's `traces:` entries are read from, and their problems placed at the entry, by one rule
 * (traceEntryIssue, also what src/check/inputs.ts places an entry's problems with). An entry path is
 * relative to the scenario file. A trace file an entry names directly that no reader reads
 * (`traces: [/etc/passwd]`: no trace format) is named at the entry's line and field, as one that is not
 * there is, not as the file alone. An entry that names a named pipe, a socket or a device directly
 * (`traces: [pipe.jsonl]`) is never opened, as one a directory or glob brings in is not (src/io/collectInputs.ts notRegular): it is
 * refused at once at the entry's line and field (or, with --skip-bad, listed with the bad files), not read
 * and waited on for 10 s. A pipe is read only when given to a command on its own.
 */
import { dirname, isAbsolute, join } from 'node:path';
import { UserError, type InputIssue } from '../errors.js';
import type { AnyScenario } from './load.js';
import { isGlob } from '../io/globMatches.js';
import { kindOf, statOf } from '../io/inputPaths.js';
import { withBackslashHint } from '../io/backslashHint.js';

/** The problem of an entry's path (as resolved against the scenario file) that is no regular file nor directory; undefined otherwise. */
export function notRegularEntry(path: string): InputIssue | undefined {
  if (isGlob(path)) return undefined;
  const stats = statOf(path);
  if (stats === undefined || stats.isFile() || stats.isDirectory()) return undefined;
  return {
    file: path,
    code: 'not_a_file',
    message: `is ${kindOf(stats)}, which a scenario's traces: entry never opens: traces: names regular files, directories and globs`,
    hint: stats.isFIFO() ? 'name the trace files the pipe would send; to read the pipe, give its path to the command on its own' : 'name trace files, directories or globs',
  };
}

/** The path a `traces:` entry names, as written in the scenario file at `source` (relative to its directory). */
export function traceEntryPath(source: string, pattern: string): string {
  return isAbsolute(pattern) ? pattern : join(dirname(source), pattern);
}

/** A scenario's `traces[i]`: the entry as written (`pattern`) and the path it names (traceEntryPath). */
export interface TraceEntry {
  scenario: AnyScenario;
  i: number;
  pattern: string;
  path: string;
}

/** Each `traces:` entry of the scenario, in order (none for a synthetic-only scenario). */
export function traceEntriesOf(scenario: AnyScenario): TraceEntry[] {
  return (scenario.traces ?? []).map((pattern, i) => ({ scenario, i, pattern, path: traceEntryPath(scenario.source, pattern) }));
}

/** The hint of a problem an entry's directory or glob has (nothing found, unreadable): where the entry is read from. */
export const TRACE_ENTRY_HINT = 'a relative path or glob is read from the scenario file’s directory';

/**
 * A problem of what a `traces:` entry names, placed at that entry: the scenario file, the entry's line,
 * `traces[i]`, and the message after the entry and its path (`"t/*.jsonl" (dir/t/*.jsonl): …`); its hint
 * `hint` when given, else the problem's own.
 */
export function traceEntryIssue(entry: TraceEntry, issue: InputIssue, hint = issue.hint): InputIssue {
  const line = entry.scenario.lineOf(['traces', entry.i]);
  return {
    file: entry.scenario.source,
    ...(line === undefined ? {} : { line }),
    field: `traces[${entry.i}]`,
    code: issue.code,
    message: `${JSON.stringify(entry.pattern)} (${entry.path}): ${issue.message}`,
    ...(hint === undefined ? {} : { hint: issue.code === 'not_found' ? withBackslashHint(hint, entry.pattern) : hint }),
  };
}

/** The issue at every `traces:` entry (of every scenario) that names `issue.file` directly; none when no entry does. */
function atEntries(scenarios: readonly AnyScenario[], issue: InputIssue): InputIssue[] {
  return scenarios.flatMap((scenario) =>
    traceEntriesOf(scenario)
      .filter((entry) => !isGlob(entry.pattern) && entry.path === issue.file)
      .map((entry) => traceEntryIssue(entry, issue)),
  );
}

/**
 * `error` with each issue about a trace file a scenario's `traces:` entry names directly placed at that
 * entry (the scenario file, the entry's line, `traces[i]`); any other error, or issue, as it is.
 */
export function placeAtTraceEntries(error: unknown, scenarios: readonly AnyScenario[]): unknown {
  if (!(error instanceof UserError)) return error;
  const placed = error.issues.flatMap((issue) => {
    const found = issue.file === undefined || issue.line !== undefined ? [] : atEntries(scenarios, issue);
    return found.length > 0 ? found : [issue];
  });
  return placed.every((issue, i) => issue === error.issues[i]) && placed.length === error.issues.length ? error : new UserError(placed);
}
