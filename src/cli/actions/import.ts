import { loadTraceFiles } from '../../import/index.js';
import type { CliIO } from '../io.js';
import { writeNativeRuns } from './nativeOut.js';
import { recordedTraceFiles } from './recordedInputs.js';

/**
 * Converts any supported input to native JSONL, one file at a time (memory holds one input file), into
 * a temporary file that replaces --out only when every input converted cleanly.
 */
export function runImport(inputs: string[], out: string | undefined, io: CliIO): number {
  const files = recordedTraceFiles(inputs, 'import', "write a scenario's runs as native traces with 'loopcost generate'", io);
  const runs = writeNativeRuns(loadTraceFiles(files), out, io);
  if (out !== undefined) io.stderr(`${runs} run(s) from ${files.length} file(s) written to ${out}\n`);
  return 0;
}
