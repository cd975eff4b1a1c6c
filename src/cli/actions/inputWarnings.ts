/**
 * What reading a command's inputs says on stderr as it reads them — the files --skip-bad left out, the
 * inputs given more than once, calibrate's note that no input has ground truth — kept as report warnings
 * too, so a script reading the JSON (or the table's footer) sees what the person at the terminal saw.
 * Said once on stderr, when read (sayInputWarning); every report then takes them (inputWarningsOf), and
 * emitReport does not say them on stderr a second time (saidOnStderr).
 *
 *   sayInputWarning(io, skippedInputsWarning(bad, total), skippedMessage(bad, total));
 *   const warnings = [...inputWarningsOf(io), ...notes.warnings(inputs)];
 */
import { formatIssue, type InputIssue } from '../../errors.js';
import type { BadInput } from '../../import/inputSet.js';
import type { ReportWarning } from '../../report/warnings.js';
import { counted } from '../../plural.js';
import { someNames } from '../../someNames.js';
import type { CliIO } from '../io.js';

/** The warnings said while a command read its inputs, by the command's io (one io per command run). */
const saidBy = new WeakMap<CliIO, ReportWarning[]>();

/** Says `text` on stderr now and keeps `warning` for the report (an empty text: nothing to say). */
export function sayInputWarning(io: CliIO, warning: ReportWarning | undefined, text: string): void {
  if (warning === undefined) return;
  io.stderr(text);
  const said = saidBy.get(io) ?? [];
  said.push(warning);
  saidBy.set(io, said);
}

/** The warnings said so far while reading the inputs, in the order said: what every report's `warnings` start with. */
export function inputWarningsOf(io: CliIO): ReportWarning[] {
  return [...(saidBy.get(io) ?? [])];
}

/** Whether `warning` was said on stderr when the inputs were read (emitReport says it no second time). */
export function saidOnStderr(io: CliIO, warning: ReportWarning): boolean {
  return saidBy.get(io)?.includes(warning) === true;
}

/** Most files the skipped_inputs message names with their problem (its `issues` list every one). */
const NAMED_FILES = 5;

/** `skipped_inputs`: the files --skip-bad left out (`files`), each with its first problem (`issues`); undefined: none. */
export function skippedInputsWarning(bad: readonly BadInput[], total: number): ReportWarning | undefined {
  if (bad.length === 0) return undefined;
  const issues = bad.map((input): InputIssue => ({ ...input.issues[0]!, file: input.issues[0]!.file ?? input.file }));
  const shown = issues.slice(0, NAMED_FILES).map(formatIssue).join('; ');
  const more = issues.length > NAMED_FILES ? `; and ${issues.length - NAMED_FILES} more (see issues)` : '';
  return { code: 'skipped_inputs', message: `left out ${bad.length} of ${counted(total, 'input file')} with problems (--skip-bad), none of their runs in these figures: ${shown}${more}`, files: bad.map((input) => input.file), issues };
}

/** `repeated_inputs`: the inputs given more than once, each read once; undefined: none. */
export function repeatedInputsWarning(repeated: readonly string[]): ReportWarning | undefined {
  if (repeated.length === 0) return undefined;
  return { code: 'repeated_inputs', message: `${counted(repeated.length, 'input')} given more than once, each file read once: ${someNames(repeated)}`, files: [...repeated] };
}

/**
 * `trees_left_out`: a session tree --skip-bad left out whole (treesLeftOut.ts) for its run `place` in a bad
 * file (or past $9,007), with its runs in the good files `others` (`files`); and its line for standard error.
 */
export function treeLeftOutWarning(tree: { sessionId: string; place: string; agentId: string | undefined; passed: boolean; others: readonly string[] }): { warning: ReportWarning; text: string } {
  const agent = tree.agentId === undefined ? '' : ` (agent ${tree.agentId})`;
  const why = tree.passed ? 'passed $9,007' : 'is in a bad file';
  const message = `left out session ${tree.sessionId} whole: its run ${tree.place}${agent} ${why}, so its runs in other files (${counted(tree.others.length, 'file')}: ${someNames(tree.others)}) are left out too: the tree without that run would under-count its spend (--skip-bad)`;
  return { warning: { code: 'trees_left_out', message, files: [...tree.others] }, text: `loopcost: warning: ${message}\n` };
}
