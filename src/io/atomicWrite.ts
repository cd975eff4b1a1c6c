/**
 * Writing outputs so that a reader sees the old file or the complete new one, never a part: each output
 * is written to a temporary `.<name>.<pid>.tmp` beside its file and renamed over it (src/io/outputWriter.ts;
 * a symbolic link's target is replaced, not the link); a set of outputs (a report directory) is written
 * whole into a temporary directory first. A device or a pipe (`--out /dev/stdout`, a named pipe) is
 * written straight into. Temporaries are removed on failure, on SIGINT / SIGTERM / SIGHUP, and, when a
 * process was killed outright, by the next run that writes the same target. A target that cannot be
 * written is a UserError naming its path.
 */
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { UserError } from '../errors.js';
import { checkOutputDirectory, outputError, resolveOutputTarget } from './outputTarget.js';
import { makeDirectories, removeCreatedDirectories } from './makeDirectories.js';
import { makeDirectory, OutputWriter, removeStaleTemporaries, temporaryFor } from './outputWriter.js';
import { releaseTemporary, trackTemporary } from './temporaries.js';

export { checkOutputDirectory, checkOutputFile, outputError } from './outputTarget.js';
export { OutputWriter, removeStaleTemporaries } from './outputWriter.js';

/**
 * Writes a file so that readers see either the old file or the complete new one, never a part (a device
 * or a pipe gets it as it comes; a `.gz` name gets it gzip). `content` may come in pieces (a report
 * rendered run by run is never held whole); an error while making them leaves no file and is thrown as
 * it is.
 */
export function writeFileAtomic(path: string, content: string | Iterable<string>, flag = '--out'): void {
  const writer = new OutputWriter(path, flag);
  try {
    if (typeof content === 'string') writer.write(content);
    else writePieces(writer, content);
    writer.commit();
  } catch (error) {
    writer.abort();
    if (error instanceof PieceError) throw error.cause;
    throw error;
  }
}

/** An error thrown while making the pieces (not while writing them). */
class PieceError extends Error {}

const PIECES_BUFFER_CHARS = 1 << 20;

function writePieces(writer: OutputWriter, pieces: Iterable<string>): void {
  let pending = '';
  const iterator = pieces[Symbol.iterator]();
  for (;;) {
    let next: IteratorResult<string>;
    try {
      next = iterator.next();
    } catch (error) {
      throw new PieceError('piece', { cause: error });
    }
    if (next.done === true) break;
    pending += next.value;
    if (pending.length >= PIECES_BUFFER_CHARS) {
      writer.write(pending);
      pending = '';
    }
  }
  writer.write(pending);
}

/** Where one file of a set goes: written as `from`, renamed to `to` (`path` as named in the set's directory). */
interface Placed {
  from: string;
  to: string;
  path: string;
}

/**
 * Writes a set of files into `dir` as one: all are written into a temporary directory inside it (a file
 * that is a symbolic link: beside its target), then renamed into place, so a failure while writing leaves
 * the old set untouched. A device or a pipe among them is written into last.
 */
export function writeFilesAtomic(dir: string, files: readonly (readonly [name: string, content: string])[], flag = '--report-dir'): void {
  checkOutputDirectory(dir, files.map(([name]) => name), flag);
  const created = createdDirectories(dir, flag);
  let written = false;
  const setPath = join(dir, '.loopcost-reports');
  removeStaleTemporaries(setPath);
  const temp = trackTemporary(temporaryFor(setPath));
  const linked: string[] = [];
  try {
    const placed: Placed[] = [];
    const direct: (readonly [path: string, content: string])[] = [];
    try {
      mkdirSync(temp);
      for (const [name, content] of files) {
        const path = join(dir, name);
        const target = resolveOutputTarget(path, flag);
        if (target.direct) direct.push([path, content]);
        else placed.push(writeOne({ path, file: target.file, content, inSet: join(temp, name), linked, flag }));
      }
    } catch (error) {
      throw error instanceof UserError ? error : outputError(dir, error, flag);
    }
    for (const { from, to, path } of placed) {
      try {
        renameSync(from, to);
      } catch (error) {
        throw outputError(path, error, flag);
      }
    }
    // As any output is written into a device or a pipe (OutputWriter: a full pipe waited on, a .gz name gzip).
    for (const [path, content] of direct) writeFileAtomic(path, content, flag);
    written = true;
  } finally {
    for (const path of [temp, ...linked]) {
      rmSync(path, { force: true, recursive: true });
      releaseTemporary(path);
    }
    // A set that failed leaves no directory it created behind (one a file got into stays).
    if (!written) removeCreatedDirectories(created);
  }
}

/** The set's directory and its missing ancestors made (makeDirectories), those it created returned; a failure worded for `flag`. */
function createdDirectories(dir: string, flag: string): string[] {
  try {
    return makeDirectories(dir);
  } catch (error) {
    throw outputError(dir, error, flag);
  }
}

/** One file of a set, written into the set's temporary directory (`inSet`), or beside the target of a link. */
function writeOne(args: { path: string; file: string; content: string; inSet: string; linked: string[]; flag: string }): Placed {
  const { path, file, content, inSet, linked, flag } = args;
  if (file === path) {
    writeFileSync(inSet, content);
    return { from: inSet, to: path, path };
  }
  makeDirectory(dirname(file), path, flag);
  removeStaleTemporaries(file);
  const from = trackTemporary(temporaryFor(file));
  linked.push(from);
  try {
    writeFileSync(from, content);
  } catch (error) {
    throw outputError(path, error, flag);
  }
  return { from, to: file, path };
}
