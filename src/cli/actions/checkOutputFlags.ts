/**
 * What `check` refuses of the paths its output flags name, before any work: an `--out` extension that
 * names no format check writes (said in check's own words: a table or JSON, not the CSV other commands
 * write; JUnit XML has a flag of its own), and a `--junit` or `--update-baseline` that is this process's
 * standard output by another name than `-` (`/dev/stdout`, `/dev/fd/1`, the file stdout is redirected to):
 * the report goes there, and the two would be mixed into one stream, as with `-` (flagChecks.ts
 * refuseStdoutOutput).
 */
import { fstatSync, statSync } from 'node:fs';
import { UserError } from '../../errors.js';
import { resolveOutputTarget } from '../../io/outputTarget.js';
import { outExtension } from './flagChecks.js';

/** The extensions check's report follows without --format (JSON, or a table), and `.csv`, which output.ts tableOrJson refuses in check's words. */
const KNOWN_EXTENSIONS: ReadonlySet<string> = new Set(['.json', '.txt', '.csv']);

/** Refuses, without --format, an --out whose extension (before a `.gz`) names no format loopcost writes (`.xml`, `.md`), listing those check writes. */
export function refuseCheckOutExtension(flags: { format?: string; out?: string }): void {
  if (flags.format !== undefined || flags.out === undefined) return;
  const extension = outExtension(flags.out.replace(/\.gz$/i, ''));
  if (extension === undefined || KNOWN_EXTENSIONS.has(extension)) return;
  throw new UserError({
    file: '<command line>',
    field: '--out',
    code: 'unknown_extension',
    message: `'${flags.out}' ends in ${extension}, which names no format loopcost writes (check's report follows --out's extension: .json, or .txt for a table)`,
    hint: `name the file .json or .txt, or give --format json or --format table to write that format under this name${extension === '.xml' ? '; JUnit XML is written with --junit FILE, beside the report' : ''}`,
  });
}

/** Whether `path` is where this process's standard output goes: its own descriptor 1, or the same file (not /dev/null, which keeps nothing). */
function isOwnStdout(path: string): boolean {
  const target = resolveOutputTarget(path);
  if (target.fd !== undefined) return target.fd === 1;
  try {
    const out = fstatSync(1);
    const at = statSync(target.file);
    return out.dev === at.dev && out.ino === at.ino && !(at.isCharacterDevice() && at.rdev === statSync('/dev/null').rdev);
  } catch {
    return false;
  }
}

/** Refuses a file flag (`--junit`, `--update-baseline`) that names this process's standard output, which carries check's report. */
export function refuseOwnStdout(outputs: Readonly<Record<string, string | undefined>>): void {
  for (const [flag, path] of Object.entries(outputs)) {
    if (path === undefined || !isOwnStdout(path)) continue;
    throw new UserError({
      file: '<command line>',
      field: flag,
      code: 'bad_value',
      message: `'${path}' is where this process's standard output goes: it carries check's report, and the file ${flag} writes would be mixed into it`,
      hint: `give ${flag} a file path of its own; the report goes to standard output, or to --out FILE`,
    });
  }
}
