/**
 * The trace readers as the library gives them (src/index.ts): what they refuse is said in the caller's words.
 * An input past a read limit is refused by the same rule however it is read (io/inputErrors.ts), its hint
 * naming the CLI's flag (`--max-input-mb`); from the library it names the reader's own option instead
 * (`options.limits.maxInputBytes (<readTraces arguments>)`, as its refusal of a bad limit names it), as every library refusal names its option, never a flag.
 * The CLI reads through the same readers unwrapped. Pure: no node:*.
 */
import { UserError, type InputIssue } from '../errors.js';
import { argumentsFile } from '../options/arguments.js';
import type { Trace } from '../trace/types.js';
import { loadTraceFile as loadOneFile, loadTraceFiles as loadFiles, streamTraceFile as streamOneFile, type ReadOptions } from './index.js';
import { readTraces as readAll } from './readTraces.js';

/** Each read limit's flag, and the ReadLimits field that sets it from the library. */
const LIMIT_FLAGS: ReadonlyArray<[flag: string, option: string]> = [
  ['--max-input-mb', 'maxInputBytes'],
  ['--max-line-mb', 'maxLineBytes'],
];

/** `issue` with a read limit's flag said as `entry`'s option (`options.limits.maxLineBytes (<loadTraceFile arguments>)`). */
function limitInOwnWords(entry: string, issue: InputIssue): InputIssue {
  if (issue.code !== 'too_large' || issue.hint === undefined) return issue;
  const hint = LIMIT_FLAGS.reduce((text, [flag, option]) => text.split(`with ${flag}`).join(`with options.limits.${option} (${argumentsFile(entry)})`), issue.hint);
  return hint === issue.hint ? issue : { ...issue, hint };
}

/** `error`, a read limit's refusal said in `entry`'s words; any other error as it was. */
export function readLimitsInOwnWords(entry: string, error: unknown): unknown {
  if (!(error instanceof UserError)) return error;
  const issues = error.issues.map((issue) => limitInOwnWords(entry, issue));
  return issues.every((issue, i) => issue === error.issues[i]) ? error : new UserError(issues);
}

async function* inOwnWords<T>(entry: string, runs: AsyncGenerator<T>): AsyncGenerator<T> {
  try {
    yield* runs;
  } catch (error) {
    throw readLimitsInOwnWords(entry, error);
  }
}

/** Reads one input (a file, gzip or plain, a pipe, or `-` for standard input) of any supported format (import/index.ts). */
export function loadTraceFile(path: string, options?: ReadOptions): Promise<Trace[]> {
  return loadOneFile(path, options).catch((error: unknown) => Promise.reject(readLimitsInOwnWords('loadTraceFile', error)));
}

/** The runs of one input as they are read (import/index.ts). */
export function streamTraceFile(path: string, options?: ReadOptions): AsyncGenerator<Trace> {
  return inOwnWords('streamTraceFile', streamOneFile(path, options));
}

/** The runs of many input files, one file at a time (import/index.ts). */
export function loadTraceFiles(paths: readonly string[], options?: ReadOptions): AsyncGenerator<Trace> {
  return inOwnWords('loadTraceFiles', loadFiles(paths, options));
}

/** Every run of files, directories and globs as one array (import/readTraces.ts). */
export function readTraces(paths: readonly string[], options?: ReadOptions): Promise<Trace[]> {
  return readAll(paths, options).catch((error: unknown) => Promise.reject(readLimitsInOwnWords('readTraces', error)));
}
