import { AtomicFileWriter } from '../../io/atomicWrite.js';
import { writeNativeTraces } from '../../trace/writeNative.js';
import type { Trace } from '../../trace/types.js';
import type { CliIO } from '../io.js';

/**
 * Writes runs as native JSONL as they come (memory holds one run): to stdout, or into a temporary file
 * that replaces `out` only when every run was written. Returns how many runs were written.
 */
export function writeNativeRuns(traces: Iterable<Trace>, out: string | undefined, io: CliIO): number {
  let runs = 0;
  if (out === undefined) {
    for (const trace of traces) {
      io.stdout(writeNativeTraces([trace]));
      runs += 1;
    }
    return runs;
  }
  const writer = new AtomicFileWriter(out);
  try {
    for (const trace of traces) {
      writer.write(writeNativeTraces([trace]));
      runs += 1;
    }
    writer.commit();
  } catch (error) {
    writer.abort();
    throw error;
  }
  return runs;
}
