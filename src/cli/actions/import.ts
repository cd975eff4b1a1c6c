import { AtomicFileWriter } from '../../io/atomicWrite.js';
import { loadTraceFiles } from '../../import/index.js';
import { writeNativeTraces } from '../../trace/writeNative.js';
import type { CliIO } from '../io.js';
import { recordedTraceFiles } from './recordedInputs.js';

/**
 * Converts any supported input to native JSONL, one file at a time (memory holds one input file), into
 * a temporary file that replaces --out only when every input converted cleanly.
 */
export function runImport(inputs: string[], out: string | undefined, io: CliIO): number {
  const files = recordedTraceFiles(inputs, 'import', "write a scenario's runs as native traces with 'loopcost generate'", io);
  if (out === undefined) {
    for (const trace of loadTraceFiles(files)) io.stdout(writeNativeTraces([trace]));
    return 0;
  }
  const writer = new AtomicFileWriter(out);
  let runs = 0;
  try {
    for (const trace of loadTraceFiles(files)) {
      writer.write(writeNativeTraces([trace]));
      runs += 1;
    }
    writer.commit();
  } catch (error) {
    writer.abort();
    throw error;
  }
  io.stderr(`${runs} run(s) from ${files.length} file(s) written to ${out}\n`);
  return 0;
}
