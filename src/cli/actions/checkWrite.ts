/**
 * `check`'s outputs written as one: the report (`--out`, else standard output), `--junit` and
 * `--update-baseline`. A CI job reads them together, so a check that fails to write one (exit 2) leaves
 * none of them: every file is written to its temporary first (src/io/outputWriter.ts), then the outputs
 * that cannot be taken back — a device or a pipe (`--out /dev/full`, a named pipe), standard output — and
 * only then is each file renamed into place. Anything that fails before the renames removes every
 * temporary (and an exit does: src/io/temporaries.ts). Which files are announced, and the warnings said
 * on stderr, are as every command says them (output.ts emitReport).
 */
import { checkOutputFile, OutputWriter } from '../../io/atomicWrite.js';
import { warningLines, type ReportWarning } from '../../report/warnings.js';
import type { CliIO } from '../io.js';
import { saidOnStderr } from './inputWarnings.js';
import { announceWritten, textChunks } from './output.js';
import { shellWord } from '../../report/settings.js';

/** One file check writes: the flag that names it, its path, its text. */
export interface CheckFile {
  flag: '--out' | '--junit' | '--update-baseline';
  path: string;
  text: string;
}

/** Writes `text` into `writer` a chunk at a time (a long text is never a second copy as bytes). */
function writeText(writer: OutputWriter, text: string): void {
  for (const chunk of textChunks(text)) writer.write(chunk);
}

/**
 * Writes every file (and, with no `--out`, the report to standard output) all or nothing: files to
 * temporaries, then devices, pipes and standard output, then the renames. On a failure every temporary is
 * removed and the error (a UserError naming the output) is thrown.
 */
export function writeCheckOutputs(files: readonly CheckFile[], stdoutReport: string | undefined, io: CliIO): void {
  const pending: OutputWriter[] = [];
  try {
    const direct: CheckFile[] = [];
    for (const file of files) {
      // A device or a pipe is written after every file is ready: there is nothing to roll back there.
      if (checkOutputFile(file.path, file.flag).direct) {
        direct.push(file);
        continue;
      }
      const writer = new OutputWriter(file.path, file.flag);
      pending.push(writer);
      writeText(writer, file.text);
    }
    for (const file of direct) {
      const writer = new OutputWriter(file.path, file.flag);
      writeText(writer, file.text);
      writer.commit();
    }
    if (stdoutReport !== undefined) for (const chunk of textChunks(stdoutReport)) io.stdout(chunk);
    while (pending.length > 0) pending.shift()!.commit();
  } catch (error) {
    for (const writer of pending) writer.abort();
    throw error;
  }
}

/**
 * After the outputs are written: the warnings on stderr when the report went to a file (unless said as the
 * inputs were read), then each file written, announced as every command announces it.
 */
export function announceCheckOutputs(files: readonly CheckFile[], args: { format: string; warnings: readonly ReportWarning[]; baselineWhat: string }, io: CliIO): void {
  const unsaid = args.warnings.filter((warning) => !saidOnStderr(io, warning));
  const report = files.find((file) => file.flag === '--out');
  if (report !== undefined && unsaid.length > 0) io.stderr(warningLines(unsaid));
  if (report !== undefined) announceWritten({ what: 'report', file: report.path, detail: args.format }, io);
  for (const file of files) {
    if (file.flag === '--junit') announceWritten({ what: 'JUnit report', file: file.path }, io);
    if (file.flag === '--update-baseline') announceWritten({ what: args.baselineWhat, file: file.path, detail: `compare later runs with --baseline ${shellWord(file.path)}` }, io);
  }
}
