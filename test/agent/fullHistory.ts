import type { Trace } from '../../src/trace/types.js';

/**
 * A live run's recording with the context strategy its header states left out: it replays as full history
 * (its compaction calls the agent's own), as the loop driven back by it under full context (traceModel) runs.
 * With the strategy, a replay under full context replays it as its loop ran it (src/replay/recordedStrategy.ts).
 */
export function asFullHistory(trace: Trace): Trace {
  const { context: _context, ...header } = trace.header;
  return { ...trace, header };
}
