/**
 * The engine refuses what it cannot compute exactly (a run's cost beyond exact picodollars) with a
 * message that knows no file: this names the run it was replaying, so the user knows where to look.
 */
import { placeIssues } from '../errors.js';
import { counted } from '../plural.js';
import type { Trace } from '../trace/types.js';
import { recordedCallCount } from './runFacts.js';

/** Runs `work` for `trace`; a UserError without a file gets the run's source (file#run) and field. `agent`: the run's agent in a session tree, named too (`run of agent sub on …`). */
export function inRunContext<T>(trace: Trace, work: () => T, agent?: string): T {
  try {
    return work();
  } catch (error) {
    const of = agent === undefined ? '' : `of agent ${agent} `;
    throw placeIssues(error, (issue) => ({ ...issue, file: trace.source, field: issue.field ?? 'calls', message: `run ${of}on ${trace.header.model} with ${counted(recordedCallCount(trace), 'recorded call')}: ${issue.message}` }));
  }
}
