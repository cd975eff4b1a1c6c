/** The inputs of commands that need recordings (compare, import, prices derive, fit). */
import { repeatedInputsMessage } from '../../import/inputSet.js';
import { recordedInputsOnly } from '../../scenario/inputs.js';
import type { CliIO } from '../io.js';
import { counted } from '../../plural.js';

/**
 * For commands that need recordings: the trace files; a scenario file named is refused with `instead`,
 * scenario files in a directory or glob are left out, said on stderr.
 */
export function recordedTraceFiles(inputs: readonly string[], command: string, instead: string, io: CliIO): string[] {
  const { traceFiles, skipped, repeated } = recordedInputsOnly(inputs, command, instead);
  if (repeated.length > 0) io.stderr(repeatedInputsMessage(repeated));
  if (skipped.length > 0) {
    const names = skipped.length <= 3 ? skipped.join(', ') : `${skipped.slice(0, 3).join(', ')} and ${skipped.length - 3} more`;
    io.stderr(`loopcost: warning: left out ${counted(skipped.length, 'scenario file')} (${names}): ${command} needs recorded traces; ${instead}\n`);
  }
  return traceFiles;
}
