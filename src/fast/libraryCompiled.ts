/**
 * compiledTrace as the library gives it: the compiled trace kept with the Trace (fast/compile.ts), and the
 * Trace frozen (trace/freezeTrace.ts), so that a caller's later change throws instead of leaving the kept
 * compiled trace stale.
 */
import { freezeTrace } from '../trace/freezeTrace.js';
import type { Trace } from '../trace/types.js';
import { compiledTrace as keptCompiled } from './compile.js';
import type { CompiledTrace } from './layout.js';

/** The trace compiled, once per Trace object; the Trace frozen. */
export function compiledTrace(trace: Trace): CompiledTrace {
  const compiled = keptCompiled(trace);
  freezeTrace(trace);
  return compiled;
}
