/**
 * Which traces are recordings and which `loopcost generate` wrote: a generated trace carries its run's ground
 * truth in `header.synthetic`, so it is a synthetic agent's run, replayed as recordings are. One rule for every
 * command that counts its runs by kind (project's `inputs` and "drawn from" line, calibrate's ground truth, the
 * library's calibrate warnings): before, project counted generated traces as recorded runs.
 */
import type { Trace } from '../trace/types.js';

/** A trace `loopcost generate` wrote (its header says the synthetic run it is). */
export const isGeneratedTrace = (trace: Pick<Trace, 'header'>): boolean => trace.header.synthetic !== undefined;

/** The traces' runs by kind: recorded, and generated (synthetic runs). */
export function traceRunKinds(traces: readonly Pick<Trace, 'header'>[]): { recordedRuns: number; generatedRuns: number } {
  const generatedRuns = traces.filter(isGeneratedTrace).length;
  return { recordedRuns: traces.length - generatedRuns, generatedRuns };
}
