import { collectInputs } from '../../io/collectInputs.js';
import { writeFileAtomic } from '../../io/atomicWrite.js';
import { loadTraceFiles } from '../../import/index.js';
import { writeNativeTraces } from '../../trace/writeNative.js';
import type { CliIO } from '../io.js';

/** Converts any supported input to native JSONL. Everything is read and checked before a byte is written. */
export function runImport(inputs: string[], out: string | undefined, io: CliIO): number {
  const traces = [...loadTraceFiles(collectInputs(inputs))];
  const text = writeNativeTraces(traces);
  if (out === undefined) io.stdout(text);
  else {
    writeFileAtomic(out, text);
    io.stderr(`${traces.length} run(s) written to ${out}\n`);
  }
  return 0;
}
