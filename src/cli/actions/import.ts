import { skippedMessage, type TraceInputs } from '../../import/inputSet.js';
import { OutputWriter } from '../../io/outputWriter.js';
import { writeNativeTraces } from '../../trace/writeNative.js';
import type { CliIO } from '../io.js';
import { readOptionsFromFlags, type ReadFlags } from '../parseFlags.js';
import { readLimits, type ReadLimits } from '../../io/limits.js';
import { someFormatUnknown } from './importFormats.js';
import { sayNoModelCall, sayUncached, traceInputs } from './inputs.js';
import { missingTranscriptsOf, warnMissingTranscripts, type MissingTranscript } from './missingTranscripts.js';
import { announceWritten, checkNativeJsonlOut, checkOutputs } from './output.js';
import { recordedTraceFiles } from './recordedInputs.js';
import { counted } from '../../plural.js';
import { UserError } from '../../errors.js';

/** Lets the event loop run (a signal handler, a timer) between runs of a long conversion. */
const breathe = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * Converts any supported input to native JSONL, one file at a time (memory holds one input file), into
 * a temporary file that replaces --out only when every input converted cleanly (or, with --skip-bad,
 * with the runs of the good files only: a file found bad midway is rolled back). Without --out the runs
 * go to standard output as they are read (with --skip-bad, a file's runs once the file has read cleanly);
 * so do they into a device or a pipe --out (/dev/stdout), which cannot be rolled back: there, an input of
 * no format loopcost reads is found before any run is written (importFormats.ts), and the inputs are read
 * to name every bad one, writing nothing. `.gz`: gzip.
 */
export async function runImport(set: TraceInputs, use: { out: string | undefined; skipBad: boolean; limits: ReadLimits }, io: CliIO): Promise<number> {
  const { out, skipBad } = use;
  const output = out === undefined ? undefined : new OutputWriter(out);
  /** The output a bad file's runs can be taken back from; else a file's runs are held until it read cleanly. */
  const writer = output?.atomic === true ? output : undefined;
  const writeNothing = writer === undefined && !skipBad && (await someFormatUnknown(set.files, use.limits));
  const write = output === undefined ? io.stdout : (text: string) => output.write(text);
  const byFile = new RunsByFile(set, { writer, skipBad, emit: writeNothing ? undefined : write });
  const missing: MissingTranscript[] = [];
  try {
    for await (const { file, trace } of set.runs()) {
      byFile.enter(file);
      missing.push(...missingTranscriptsOf(trace));
      byFile.add(writeNativeTraces([trace]));
      await breathe();
    }
    byFile.closeFile();
    sayWhatWasRead(set, io, { runs: byFile.kept, missing });
    output?.commit();
  } catch (error) {
    output?.abort();
    throw byFile.streamed > 0 ? writtenAlready(error) : error;
  }
  if (out !== undefined) announceWritten({ what: `${counted(byFile.kept, 'run')} from ${counted(set.files.length - set.badCount - set.noModelCallFiles.length, 'file')}`, file: out }, io);
  return 0;
}

/**
 * Where the import's runs go, file by file: into an output that can take a bad file's runs back (`writer`),
 * held until their file has read cleanly (`skipBad`), or emitted at once (`emit`; none when nothing is to be
 * written). `kept`: the runs of the files not found bad; `streamed`: the texts emitted.
 */
class RunsByFile {
  kept = 0;
  streamed = 0;
  private current: string | undefined;
  /** Where the current file's runs start in `writer`. */
  private mark = 0;
  private held: string[] = [];
  private keptOfCurrent = 0;

  constructor(
    private readonly set: TraceInputs,
    private readonly to: { writer: OutputWriter | undefined; skipBad: boolean; emit: ((text: string) => void) | undefined },
  ) {}

  /** The next run is of `file`: a file before it is done (closeFile). */
  enter(file: string): void {
    if (file === this.current) return;
    this.closeFile();
    this.current = file;
    this.mark = this.to.writer?.bytesWritten ?? 0;
  }

  /** A run of the current file, as native JSONL. */
  add(text: string): void {
    if (this.to.writer) this.to.writer.write(text);
    else if (this.to.skipBad) this.held.push(text);
    else this.emitted(text);
    this.kept += 1;
    this.keptOfCurrent += 1;
  }

  /** The current file is done: keep its runs, or drop them when it turned out bad. */
  closeFile(): void {
    if (this.current !== undefined && this.set.isBad(this.current)) {
      this.to.writer?.rollback(this.mark);
      this.kept -= this.keptOfCurrent;
    } else if (this.held.length > 0) this.emitted(this.held.join(''));
    this.held = [];
    this.keptOfCurrent = 0;
  }

  private emitted(text: string): void {
    if (this.to.emit === undefined) return;
    this.to.emit(text);
    this.streamed += 1;
  }
}

/** Every input read: what was left out and what is missing said on stderr; no run at all is refused. */
function sayWhatWasRead(set: TraceInputs, io: CliIO, read: { runs: number; missing: readonly MissingTranscript[] }): void {
  const skipped = set.finish();
  sayUncached(io, set);
  sayNoModelCall(io, set);
  io.stderr(skippedMessage(skipped, set.inputCount));
  warnMissingTranscripts([...read.missing], io, set.badInputs.map((bad) => bad.file));
  if (read.runs === 0) throw noRunsToImport(set.files.filter((file) => !set.isBad(file)));
}

/**
 * A bad input found after runs went to standard output (or a pipe): the inputs' error says what was
 * written already, not "nothing was written" (an input's format is told before any run, importFormats.ts,
 * but a problem further in only when it is read).
 */
function writtenAlready(error: unknown): unknown {
  if (!(error instanceof UserError)) return error;
  const where = 'the runs of the files read before it were written already (standard output and pipes cannot be taken back; --out FILE.jsonl writes nothing then)';
  return new UserError(error.issues.map((issue) => (issue.code === 'bad_inputs' ? { ...issue, message: issue.message.replace('nothing was written', where) } : issue)));
}

/** Inputs that read cleanly but hold no model call: a native file of no runs is refused on reading, so none is written. */
function noRunsToImport(files: readonly string[]): UserError {
  const file = files.length === 1 ? files[0]! : '<command line>';
  const what = files.length === 1 ? 'holds no model call' : `the ${counted(files.length, 'input file')} read hold no model call`;
  return new UserError({ file, code: 'no_runs', message: `${what}: nothing to import, and no file was written (a trace file of no runs is refused when read)`, hint: 'name a log that records model calls (a session with assistant replies, a rollout with token counts)' });
}

export function importAction(inputs: string[], opts: ReadFlags & { out?: string }, io: CliIO): Promise<number> {
  checkNativeJsonlOut(opts.out, 'import');
  checkOutputs([['--out', opts.out]], inputs, io);
  const { files, unread, broughtIn } = recordedTraceFiles(inputs, { command: 'import', instead: "write a scenario's runs as native traces with 'loopcost generate'", read: opts }, io);
  return runImport(traceInputs(files, opts, { unread, broughtIn }), { out: opts.out, skipBad: opts.skipBad === true, limits: readLimits(readOptionsFromFlags(opts).limits) }, io);
}
