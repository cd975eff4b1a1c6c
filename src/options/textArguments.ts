/**
 * The arguments of the entry points that take text (a file's content and its name) and of `main`, checked
 * at their top (arguments.ts): kept apart from entryArguments.ts, which reads runs' values with the trace
 * schemas (zod), because the command line's own bundle (detectFormat, main) loads no zod. Pure: no node:*.
 */
import { arrayIssue, checkArguments, functionIssue, objectArgumentIssue, stringIssue } from './arguments.js';

/** Each argument a string (a text and the file it names): `requireStrings('parseScenario', { text, file })`; `optional` ones may be left out. */
export function requireStrings(entry: string, strings: Record<string, unknown>, optional: readonly string[] = []): void {
  checkArguments(entry, (issue) => {
    for (const [field, value] of Object.entries(strings)) stringIssue(issue, value, { field, hint: 'give the text as a string (read a file with node:fs readFileSync(path, "utf8"))', optional: optional.includes(field) });
  });
}

/** main: the command line's words after `loopcost`, and where it writes. */
export function requireMainArguments(argv: unknown, io: unknown): void {
  checkArguments('main', (issue) => {
    arrayIssue(issue, argv, { field: 'argv', hint: "the words after loopcost, e.g. ['replay', 'run.jsonl'] (process.argv.slice(2))", each: 'string' });
    const hint = '{ stdout: (text) => …, stderr: (text) => …, cwd: process.cwd() }';
    if (!objectArgumentIssue(issue, io, { field: 'io', hint })) return;
    functionIssue(issue, io.stdout, { field: 'io.stdout', hint });
    functionIssue(issue, io.stderr, { field: 'io.stderr', hint });
    stringIssue(issue, io.cwd, { field: 'io.cwd', hint, optional: true });
  });
}
