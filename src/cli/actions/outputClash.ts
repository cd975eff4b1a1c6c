/**
 * Outputs that would overwrite what the command reads, or each other, refused before any work (exit 2,
 * nothing written): `replay t.jsonl --out t.jsonl` would replace the trace with its report, `check
 * --junit f --out f` would write two files to one path. Paths are compared as the files they are (device
 * and inode: a symbolic link, a hard link, `./a` and `a` are the same file), and an input directory or
 * glob counts with the files it reads: `import dir --out dir/all.jsonl` a second time would read its own
 * output and write it back twice over, so it is refused. The first time, when the output is not there
 * yet, it is written, with a warning that a later run with the same inputs would read it.
 */
import { realpathSync, type Stats } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { UserError } from '../../errors.js';
import { collectInputFiles, isGlob, isTraceFileName } from '../../io/collectInputs.js';
import { STDIN_PATH, statOf } from '../../io/openInput.js';
import { STDOUT_PATH } from '../../io/outputTarget.js';
import type { CliIO } from '../io.js';

/** A file a command writes: the flag naming it, its path, and the input it is meant to replace (`--update-baseline` the `--baseline` read). */
export type OutputFile = readonly [flag: string, path: string | undefined, replaces?: string];

/** A path a command reads: an input as given (file, directory, glob), or `[flag, path]` for a file a flag names (`--prices`). */
export type InputPath = string | readonly [flag: string, path: string | undefined];


const sameFile = (a: Stats, b: Stats) => a.dev === b.dev && a.ino === b.ino;

/** The real path of the file `path` names, also when it is not there yet (its nearest existing directory's real path, and the rest). */
function realTarget(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    const parent = dirname(path);
    return parent === path ? resolve(path) : join(realTarget(parent), basename(path));
  }
}

/** The files an input reads (a directory's trace files, a glob's matches), and how to say where one came from. */
function readFiles(input: InputPath): { files: string[]; via: (file: string) => string } {
  if (typeof input !== 'string') return { files: input[1] === undefined ? [] : [input[1]], via: () => `the file ${input[0]} reads` };
  if (input === STDIN_PATH) return { files: [], via: () => '' };
  let files: string[];
  try {
    // The regular files, also beside a pipe or device (--skip-bad reads them, and never opens those).
    files = collectInputFiles([input], { skipBad: true }).files;
  } catch {
    files = []; // the command says what is wrong with its inputs, after its output checks
  }
  if (isGlob(input)) return { files, via: (file) => `read as ${file}, a match of the input glob ${input}` };
  if (statOf(input)?.isDirectory()) return { files, via: (file) => `read as ${file}, from the input directory ${input}` };
  return { files, via: (file) => `the input ${file}` };
}

function clash(out: OutputFile, what: string): UserError {
  return new UserError({
    file: out[1]!,
    field: out[0],
    code: 'output_is_input',
    message: `is ${what}: writing it would replace what the command reads`,
    hint: `give ${out[0]} another path`,
  });
}

/** The output is meant to replace this input (`--update-baseline` the `--baseline` it was compared with). */
function replaces(out: OutputFile, input: Stats): boolean {
  const replaced = out[2] === undefined ? undefined : statOf(out[2]);
  return replaced !== undefined && sameFile(replaced, input);
}

/** Refuses an output that is one of the files the inputs read. */
function checkNotRead(outputs: readonly OutputFile[], inputs: readonly InputPath[]): void {
  const existing = outputs.flatMap((out) => {
    const stats = statOf(out[1]!);
    return stats === undefined ? [] : [{ out, stats }];
  });
  if (existing.length === 0) return; // a file not there yet is none of the inputs
  for (const input of inputs) {
    const { files, via } = readFiles(input);
    for (const file of files) {
      const stats = statOf(file);
      if (stats === undefined) continue;
      const same = existing.find(({ out, stats: written }) => sameFile(written, stats) && !replaces(out, stats));
      if (same) throw clash(same.out, via(file));
    }
  }
}

/** Refuses two output flags naming the same file. */
function checkDistinct(outputs: readonly OutputFile[]): void {
  const targets = outputs.map((out) => realTarget(out[1]!));
  for (let i = 0; i < outputs.length; i++) {
    for (let j = 0; j < i; j++) {
      // Two report files of one --report-dir never clash (their names differ).
      if (targets[i] !== targets[j] || outputs[i]![0] === outputs[j]![0]) continue;
      throw new UserError({
        file: outputs[i]![1]!,
        field: outputs[i]![0],
        code: 'same_output',
        message: `names the same file as ${outputs[j]![0]} ${outputs[j]![1]}: one would overwrite the other`,
        hint: 'give each output its own path',
      });
    }
  }
}

/**
 * An output not there yet that an input directory would read on a later run: said on stderr, once per flag.
 * A flag's several files (a --report-dir's) are said as its directory, naming those a walk would read.
 */
function warnReadLater(outputs: readonly OutputFile[], inputs: readonly InputPath[], io: CliIO): void {
  const directories = inputs.filter((input): input is string => typeof input === 'string' && input !== STDIN_PATH && !isGlob(input) && statOf(input)?.isDirectory() === true);
  const inputDirectoryOf = (out: OutputFile): string | undefined => {
    if (statOf(out[1]!) !== undefined || !isTraceFileName(basename(out[1]!))) return undefined;
    const target = realTarget(out[1]!);
    return directories.find((dir) => {
      const path = relative(realTarget(dir), target);
      return path !== '' && !path.startsWith('..') && !isAbsolute(path);
    });
  };
  for (const flag of new Set(outputs.map((out) => out[0]))) {
    const files = outputs.filter((out) => out[0] === flag);
    const read = files.filter((out) => inputDirectoryOf(out) !== undefined);
    if (read.length === 0) continue;
    const under = inputDirectoryOf(read[0]!)!;
    const later = 'a later run with the same inputs would read';
    if (files.length === 1) {
      io.stderr(`loopcost: warning: ${flag} ${read[0]![1]} is inside the input directory ${under}: ${later} it as an input (and refuse to overwrite it)
`);
    } else {
      const names = read.map((out) => basename(out[1]!)).join(', ');
      const which = read.length === 1 ? `${names}, one of its ${files.length} report files,` : `${names} of its ${files.length} report files`;
      io.stderr(`loopcost: warning: ${flag} ${dirname(read[0]![1]!)} is inside the input directory ${under}: ${later} ${which} as ${read.length === 1 ? 'an input' : 'inputs'} (and refuse to overwrite ${read.length === 1 ? 'it' : 'them'})
`);
    }
  }
}

/**
 * Refuses, before any work, outputs that name the same file, or a file the inputs read; warns about one a
 * later run would read. Only given outputs are looked at (none given: nothing is read from disk).
 */
export function checkOutputsAgainstInputs(outputs: readonly OutputFile[], inputs: readonly InputPath[], io: CliIO): void {
  // `-` is standard output (src/io/outputTarget.ts): no file, so none to clash with.
  const given = outputs.filter((out) => out[1] !== undefined && out[1] !== '' && out[1] !== STDOUT_PATH);
  if (given.length === 0) return;
  checkDistinct(given);
  checkNotRead(given, inputs);
  warnReadLater(given, inputs, io);
}
