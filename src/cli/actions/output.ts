/** Where a report goes and how wide it may be: shared by every command that writes a report. */
import { join } from 'node:path';
import { UserError } from '../../errors.js';
import { checkOutputFile, writeFileAtomic } from '../../io/atomicWrite.js';
import { STDOUT_PATH } from '../../io/outputTarget.js';
import { DEFAULT_TABLE_WIDTH } from '../../report/table.js';
import type { ReportView } from '../../report/view.js';
import { warningLines, type ReportWarning } from '../../report/warnings.js';
import type { CliIO } from '../io.js';
import type { PriceFlags } from '../parseFlags.js';
import { outExtension } from './flagChecks.js';
import { saidOnStderr } from './inputWarnings.js';
import { checkOutputsAgainstInputs, type InputPath, type OutputFile } from './outputClash.js';

export type { InputPath, OutputFile } from './outputClash.js';

export interface ViewFlags {
  wide?: boolean;
  perRun?: boolean;
  out?: string;
}

/** The terminal's width when the report goes to one, else 120 columns; `--wide`, `--per-run` as given. */
export function reportView(flags: ViewFlags, io: CliIO): ReportView {
  const toTerminal = flags.out === undefined && io.columns !== undefined;
  const view: ReportView = { width: toTerminal ? Math.max(40, io.columns!) : DEFAULT_TABLE_WIDTH, wide: flags.wide === true };
  if (flags.perRun === true) view.perRun = true;
  return view;
}

/**
 * Writes a rendered report to `out` (atomically) or stdout. Warnings are in every text and JSON report;
 * they are also said on stderr when the report goes to a file or is CSV (which has no place for them), so
 * the person at the terminal sees them. A report written to `out` is announced last (announceWritten).
 * `text` may come in pieces (a JSON report written run by run: replayReportJson); a long text is written a
 * chunk at a time (textChunks), so its bytes are never a second copy of it.
 */
export function emitReport(text: string | Iterable<string>, args: { out?: string; format: string; warnings: readonly ReportWarning[] }, io: CliIO): void {
  const pieces = typeof text === 'string' ? (text.length > WRITE_CHUNK_CHARS ? textChunks(text) : text) : writeChunks(text);
  if (args.out !== undefined) writeFileAtomic(args.out, pieces);
  else if (typeof pieces === 'string') io.stdout(pieces);
  else for (const piece of pieces) io.stdout(piece);
  // Those said as the inputs were read (inputWarnings.ts) are not said twice.
  const unsaid = args.warnings.filter((warning) => !saidOnStderr(io, warning));
  if ((args.out !== undefined || args.format === 'csv') && unsaid.length > 0) io.stderr(warningLines(unsaid));
  if (args.out !== undefined) announceWritten({ what: 'report', file: args.out, detail: args.format }, io);
}

/** Characters of a report's text written at a time: its bytes are made a chunk at a time, never a copy of the whole text (a 123 MB JSON sweep report was a 123 MB Buffer beside its text). */
const WRITE_CHUNK_CHARS = 1 << 20;

/** `text` in slices of about `chunkChars` characters, a surrogate pair never split (each slice is encoded as UTF-8 alone). */
export function* textChunks(text: string, chunkChars = WRITE_CHUNK_CHARS): Generator<string> {
  for (let at = 0; at < text.length; ) {
    let end = Math.min(text.length, at + chunkChars);
    const last = text.charCodeAt(end - 1);
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end += 1;
    yield text.slice(at, end);
    at = end;
  }
}

/**
 * Pieces (a JSON report a run or a configuration at a time) joined into writes of about WRITE_CHUNK_CHARS:
 * 122,880 configurations are ~120 writes, not 122,880; a piece longer than that is cut by textChunks.
 */
export function* writeChunks(pieces: Iterable<string>, chunkChars = WRITE_CHUNK_CHARS): Generator<string> {
  let held: string[] = [];
  let heldChars = 0;
  for (const piece of pieces) {
    if (piece.length > chunkChars) {
      if (heldChars > 0) yield held.join('');
      held = [];
      heldChars = 0;
      yield* textChunks(piece, chunkChars);
      continue;
    }
    held.push(piece);
    heldChars += piece.length;
    if (heldChars >= chunkChars) {
      yield held.join('');
      held = [];
      heldChars = 0;
    }
  }
  if (heldChars > 0) yield held.join('');
}

/**
 * Every file a command writes is said the one way, in one line on stderr:
 * `loopcost: <what> written to <file> (<detail>)` — `loopcost: report written to out.txt (table)`,
 * `loopcost: 100 synthetic runs of scenarios/x.yaml written to runs.jsonl`. Always, terminal or pipe:
 * stderr is never a report's, so a script reading stdout gets the same bytes, and a CI log (no
 * terminal) is where what was written, and how much, is looked for. Never on stdout.
 */
export function announceWritten(file: { what: string; file: string; detail?: string }, io: CliIO): void {
  const where = file.file === STDOUT_PATH ? 'standard output' : file.file;
  io.stderr(`loopcost: ${file.what} written to ${where}${file.detail === undefined ? '' : ` (${file.detail})`}\n`);
}

/** A --report-dir's files, announced as one (announceWritten): `loopcost: reports written to DIR (replay.json, …)`. */
export function announceReportDir(dir: string, names: readonly string[], io: CliIO): void {
  announceWritten({ what: 'reports', file: dir, detail: names.join(', ') }, io);
}

/** A command that writes only a table or JSON refuses another format its `--out` extension (or --format) names (`.csv`). */
export function tableOrJson(command: string, format: string): void {
  if (format === 'table' || format === 'json') return;
  throw new UserError({ file: '<command line>', field: '--out', code: 'bad_value', message: `${command} writes a table or JSON, not ${format}`, hint: 'name the file .txt or .json, or give --format' });
}

/**
 * A command that writes native JSONL (gzip under a .gz name: `import`, `generate`) refuses an `--out`
 * named for another format (`runs.json`, `runs.txt`) before any work, as replay refuses an extension it
 * does not write, or named for none (`runs`, `runs.gz`): loopcost reads the file back only as .jsonl or
 * .jsonl.gz. `-`, a device or a pipe (/dev/stdout, a named pipe) is written as it is, whatever its name.
 */
export function checkNativeJsonlOut(out: string | undefined, command: string): void {
  if (out === undefined) return;
  const base = out.replace(/\.gz$/i, '');
  const extension = outExtension(base);
  if (extension === '.jsonl') return;
  const written = `${command} writes native JSONL (one JSON record a line), which loopcost reads back from a .jsonl or .jsonl.gz file`;
  if (extension === undefined) {
    if (checkOutputFile(out).direct) return;
    throw new UserError({ file: '<command line>', field: '--out', code: 'unknown_extension', message: `'${out}' has no .jsonl extension, but ${written}`, hint: `name it ${base}.jsonl${base === out ? '' : out.slice(base.length)}` });
  }
  const named = `${base.slice(0, base.length - extension.length)}.jsonl${base === out ? '' : out.slice(base.length)}`;
  throw new UserError({
    file: '<command line>',
    field: '--out',
    code: 'unknown_extension',
    message: `'${out}' ends in ${extension}${out.slice(base.length)}, but ${written}`,
    hint: `name it ${named}`,
  });
}

/** Refuses an output path before any work is done when it cannot be a file (a directory, a path under a file, a device, empty). */
export function checkOut(out: string | undefined, flag = '--out'): void {
  if (out !== undefined) checkOutputFile(out, flag);
}

/**
 * Every file a command writes, checked before any work: each can be a file (checkOut; a --report-dir's
 * files are checked with their directory, checkOutputDirectory), no two name the same file, and none is a
 * file the command reads (`inputs`: the paths given, the files flags name; src/cli/actions/outputClash.ts).
 */
export function checkOutputs(outputs: readonly OutputFile[], inputs: readonly InputPath[], io: CliIO): void {
  for (const [flag, path] of outputs) if (flag !== REPORT_DIR) checkOut(path, flag);
  checkOutputsAgainstInputs(outputs, inputs, io);
}

const REPORT_DIR = '--report-dir';

/** The files a --report-dir gets, as outputs. */
export function reportDirOutputs(dir: string | undefined, names: readonly string[]): OutputFile[] {
  return dir === undefined ? [] : names.map((name): OutputFile => [REPORT_DIR, join(dir, name)]);
}

/** The inputs given and the price files the flags name (a report written over the price table would replace it). */
export function pricedInputs(inputs: readonly string[], flags: PriceFlags): InputPath[] {
  return [...inputs, ['--prices', flags.prices], ['--prices-override', flags.pricesOverride]];
}
