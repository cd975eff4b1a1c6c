/**
 * A Claude Code session file every call of which is a copy of another session file's of the same walk (a
 * resumed or forked session's file that made no call of its own, copiedCalls.ts): its calls are counted
 * there, once, so it gives no run. It is not refused, as a file of no model call named on its own is: it
 * was read, and its calls are in the totals. Its read throws `copiesOnly`, and the input set
 * (src/import/inputSet.ts) leaves the file out, named or brought in, with a line saying where its calls
 * were counted; so is a compaction transcript read without its session's (isLeftOutRead). Light on purpose
 * (no importer): the input set imports it.
 */
import { basename } from 'node:path';
import { formatIssue, UserError, type InputIssue } from '../../errors.js';
import { counted } from '../../plural.js';
import { someNames } from '../../someNames.js';
import { COMPACTION_ALONE } from './missingTranscript.js';

export const COPIES_ONLY = 'copies_only';

/** How many of a file's calls another session file of the walk keeps, by that file. */
export interface CopiedTo {
  keeper: string;
  calls: number;
}

/** The read of a file whose every call another file keeps (`copies`: by keeper): no run, its calls counted there. */
export function copiesOnly(path: string, copies: readonly CopiedTo[]): UserError {
  const calls = copies.reduce((sum, copy) => sum + copy.calls, 0);
  const every = calls === 1 ? 'its one call is a copy of a call' : `all ${counted(calls, 'call')} are copies of calls`;
  return new UserError({
    file: path,
    code: COPIES_ONLY,
    message: `${every} of ${someNames(copies.map((copy) => basename(copy.keeper)))} (the same message.id, requestId and usage: a resumed or forked session's file opens with a copy of the conversation it goes on from): counted there once`,
    hint: 'read the file on its own to count its calls as its own',
  });
}

/** The reads whose file is left out, not bad: copiesOnly's, and a compaction transcript's read without its session's (missingTranscript.ts loneCompaction). */
const LEFT_OUT_CODES: ReadonlySet<string> = new Set([COPIES_ONLY, COMPACTION_ALONE]);

/**
 * Whether `issues` are only a read of `file` that leaves it out: copiesOnly's (no run, its calls counted in
 * another file of the walk), or a compaction transcript's without its session (its call is that session's).
 */
export function isLeftOutRead(issues: readonly InputIssue[], file: string): boolean {
  return issues.length === 1 && issues[0]!.file === file && LEFT_OUT_CODES.has(issues[0]!.code);
}

/** Most left-out files named one a line in copiesLeftOutMessage; past them one line says how many more. */
const SHOWN_COPY_FILES = 5;

/** The lines for standard error on the files left out (their isLeftOutRead issues: copies only, a compaction without its session), one a file up to SHOWN_COPY_FILES. */
export function copiesLeftOutMessage(issues: readonly InputIssue[]): string {
  const lines = issues.slice(0, SHOWN_COPY_FILES).map((issue) => `loopcost: ${formatIssue({ ...issue, hint: '' })}; left out\n`);
  const more = issues.length - SHOWN_COPY_FILES;
  if (more > 0) lines.push(`loopcost: and ${counted(more, 'more file')} whose every call is a copy of another session file's (counted there once), or a compaction transcript without its session's: left out\n`);
  return lines.join('');
}
