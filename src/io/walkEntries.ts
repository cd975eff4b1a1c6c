/**
 * What a directory's walk or a glob reads, and what it says of an input that brings in nothing it reads:
 * the names of trace (and scenario) files, an entry that is no regular file, an empty directory.
 */
import { join } from 'node:path';
import { UserError, type InputIssue } from '../errors.js';
import { kindOf } from './inputPaths.js';

/** What an entry's stats say of its kind (a `Stats` is one; named here so the package's types need no node:fs). */
export interface FileKind {
  isCharacterDevice(): boolean;
  isBlockDevice(): boolean;
  isSocket(): boolean;
  isDirectory(): boolean;
  isFIFO(): boolean;
}

/** The names a directory's walk reads, and the one list its "no trace files" message names. */
const TRACE_EXTENSIONS = ['jsonl', 'json', 'traj', 'yaml', 'yml'] as const;
const TRACE_FILE = new RegExp(`\\.(${TRACE_EXTENSIONS.join('|')})(\\.gz)?$`, 'i');
const TRACE_EXTENSION_WORDS = `${TRACE_EXTENSIONS.map((extension) => `.${extension}`).join(', ')}, optionally .gz`;
/** SWE-agent's run settings beside its `.traj`: read with the trace, not a trace itself. */
const SIDECAR = /\.args\.ya?ml$/i;

/** Whether a directory's walk reads a file of this name: a trace file's (not a SWE-agent sidecar). */
export function isTraceFileName(name: string): boolean {
  return TRACE_FILE.test(name) && !SIDECAR.test(name);
}

/**
 * What an input (a directory, a glob) brought in that is no regular file: it is never opened (a named pipe
 * with no writer would keep the command waiting, a device would never end) and is named in one message.
 * `entry`: the file as the input reaches it (a path inside the directory, or the glob's match).
 */
export function notRegular(input: { path: string; glob: boolean }, entry: string, stats: FileKind): InputIssue {
  const from = input.glob ? "a glob's matches are" : "a directory's files are";
  const pipe = stats.isFIFO();
  return {
    file: input.path,
    code: 'not_a_file',
    message: `${input.glob ? 'matches' : 'holds'} ${entry}, ${kindOf(stats)}, which is not read: ${from} read only when they are regular files${pipe ? ' (a named pipe only when given on its own)' : ''}`,
    hint: pipe ? `to read the pipe, give its path on its own; else leave it out of the ${input.glob ? 'pattern' : 'directory'}` : `leave it out of the ${input.glob ? 'pattern' : 'directory'}, or give the trace files on their own`,
  };
}

/** A directory given whose walk found no trace file; naming the hidden files and the directories it skipped, if any (skippedDirectory). */
export function emptyDirectory(path: string, skipped: readonly string[]): UserError {
  const shown = skipped.slice(0, 3).join(', ') + (skipped.length > 3 ? `, … (${skipped.length} in all)` : '');
  return new UserError({
    file: path,
    code: 'empty_dir',
    message: `directory holds no trace files (${TRACE_EXTENSION_WORDS})${skipped.length === 0 ? '' : ` outside what a walk skips (${shown})`}`,
    hint: skipped.length === 0 ? 'check the path' : `a directory's walk skips names starting with '.' and node_modules; to read one, give its path: ${join(path, skipped[0]!)}`,
  });
}
