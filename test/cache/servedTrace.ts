/**
 * A run as the compiled-trace cache serves it: its calls cannot be read (reading them throws), its compiled
 * trace handed over. Tests that the compiled path reads only the compiled trace use it.
 */
import { compileTrace } from '../../src/fast/compile.js';
import { handOverCompiled } from '../../src/replay/compiledRuns.js';
import type { Trace } from '../../src/trace/types.js';

export function servedFromCache(trace: Trace): Trace {
  const stub = { source: trace.source, header: trace.header, end: trace.end } as Trace;
  Object.defineProperty(stub, 'calls', {
    get() {
      throw new Error('calls read');
    },
  });
  handOverCompiled(stub, compileTrace(trace));
  return stub;
}
