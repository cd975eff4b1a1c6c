import { skippedMessage, type TraceInputs } from '../../import/inputSet.js';
import { AtomicFileWriter } from '../../io/atomicWrite.js';
import { writeNativeTraces } from '../../trace/writeNative.js';
import type { CliIO } from '../io.js';
import type { ReadFlags } from '../parseFlags.js';
import { traceInputs } from './inputs.js';
import { announceWritten, checkOutputs } from './output.js';
import { recordedTraceFiles } from './recordedInputs.js';
import { counted } from '../../plural.js';

/** Lets the event loop run (a signal handler, a timer) between runs of a long conversion. */
const breathe = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * Converts any supported input to native JSONL, one file at a time (memory holds one input file), into
 * a temporary file that replaces --out only when every input converted cleanly (or, with --skip-bad,
 * with the runs of the good files only: a file found bad midway is rolled back). Without --out the runs
 * go to standard output as they are read (with --skip-bad, a file's runs once the file has read cleanly).
 */
export async function runImport(set: TraceInputs, out: string | undefined, io: CliIO, skipBad: boolean): Promise<number> {
  const writer = out === undefined ? undefined : new AtomicFileWriter(out);
  let current: string | undefined;
  let mark = 0;
  let held: string[] = [];
  let runs = 0;
  let runsOfCurrent = 0;
  /** The previous file is done: keep its runs, or drop them when it turned out bad. */
  const closeFile = (): void => {
    if (current !== undefined && set.isBad(current)) {
      writer?.rollback(mark);
      runs -= runsOfCurrent;
    } else if (held.length > 0) io.stdout(held.join(''));
    held = [];
    runsOfCurrent = 0;
  };
  try {
    for await (const { file, trace } of set.runs()) {
      if (file !== current) {
        closeFile();
        current = file;
        mark = writer?.bytesWritten ?? 0;
      }
      const text = writeNativeTraces([trace]);
      if (writer) writer.write(text);
      else if (skipBad) held.push(text);
      else io.stdout(text);
      runs += 1;
      runsOfCurrent += 1;
      await breathe();
    }
    closeFile();
    io.stderr(skippedMessage(set.finish(), set.files.length));
    writer?.commit();
  } catch (error) {
    writer?.abort();
    throw error;
  }
  if (out !== undefined) announceWritten({ what: `${counted(runs, 'run')} from ${counted(set.files.length - set.badCount, 'file')}`, file: out }, io);
  return 0;
}

export function importAction(inputs: string[], opts: ReadFlags & { out?: string }, io: CliIO): Promise<number> {
  checkOutputs([['--out', opts.out]], inputs, io);
  const files = recordedTraceFiles(inputs, 'import', "write a scenario's runs as native traces with 'loopcost generate'", io);
  return runImport(traceInputs(files, opts), opts.out, io, opts.skipBad === true);
}
