/** The inputs of commands that need recordings (compare, import, prices derive, fit). */
import { repeatedInputsMessage } from '../../import/inputSet.js';
import type { BroughtIn, UnreadInput } from '../../io/collectInputs.js';
import { checkBaselinesMessage } from '../../io/checkBaselineFile.js';
import { recordedInputsOnly } from '../../scenario/inputs.js';
import type { CliIO } from '../io.js';
import { repeatedInputsWarning, sayInputWarning } from './inputWarnings.js';
import { counted } from '../../plural.js';
import { someNames } from '../../someNames.js';

/**
 * For commands that need recordings: the trace files; a scenario file named is refused with `instead`,
 * scenario files and check baselines in a directory or glob are left out, said on stderr. `unread`: with `read.skipBad`, the
 * pipes and devices a directory or glob brought in, unopened; `broughtIn`: the files a directory or glob
 * brought in (both for traceInputs).
 */
export function recordedTraceFiles(inputs: readonly string[], use: { command: string; instead: string; read: { skipBad?: boolean } }, io: CliIO): { files: string[]; unread: UnreadInput[]; broughtIn: BroughtIn } {
  const { command, instead } = use;
  const { traceFiles, skipped, repeated, unread, broughtIn, checkBaselines } = recordedInputsOnly(inputs, command, instead, { skipBad: use.read.skipBad === true });
  sayInputWarning(io, repeatedInputsWarning(repeated), repeatedInputsMessage(repeated));
  io.stderr(checkBaselinesMessage(checkBaselines));
  if (skipped.length > 0) {
    io.stderr(`loopcost: warning: left out ${counted(skipped.length, 'scenario file')} (${someNames(skipped)}): ${command} needs recorded traces; ${instead}\n`);
  }
  return { files: traceFiles, unread, broughtIn };
}
