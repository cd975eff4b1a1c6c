/**
 * The compiled trace of a run: the one a cache of compiled traces handed over with it (src/cache/
 * compiledCache.ts), else compiled once per Trace object (src/fast/compile.ts). Replays, what-ifs and
 * sweeps take it from here, and read a run's recorded figures from it (runFacts.ts) where the run came
 * from that cache, so that its calls are never decoded.
 */
import { compiledOnce, compiledTrace, type CompileScratch } from '../fast/compile.js';
import type { CompiledTrace } from '../fast/layout.js';
import type { Trace } from '../trace/types.js';

const handedOver = new WeakMap<Trace, CompiledTrace>();

/** Says that `compiled` is `trace` compiled (a cache read it back; tests hold it equal to compileTrace). */
export function handOverCompiled(trace: Trace, compiled: CompiledTrace): void {
  handedOver.set(trace, compiled);
}

/** The compiled trace a cache handed over with `trace`, if any. */
export function handedOverCompiled(trace: Trace): CompiledTrace | undefined {
  return handedOver.get(trace);
}

export function compiledOf(trace: Trace): CompiledTrace {
  return handedOver.get(trace) ?? compiledTrace(trace);
}

/**
 * The compiled trace of a run replayed once by a caller that keeps nothing of it (`replay` of a large
 * file): a cache's or a shared one if there is one, else compiled into `scratch` (compiledOnce).
 */
export function compiledForOneReplay(trace: Trace, scratch: CompileScratch): CompiledTrace {
  return handedOver.get(trace) ?? compiledOnce(trace, scratch);
}
