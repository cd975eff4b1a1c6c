/**
 * The parts of a run the synchronous loop (run.ts runLoop) passes on from one run to the next: its context
 * tracker (ContextTracker.reset empties it and keeps its arrays, as the compiled replay reuses its own), its
 * brake limits (kernel/limits.ts brakeLimits writes every one) and its stops' facts (runStops.ts: zeroed). A
 * run's outcome holds none of them, so a run that has ended leaves them free, and a batch of runs allocates
 * them once, not once a run (typed arrays of their size are allocated outside V8's heap: ~0.5 µs each, and
 * the tracker's grow with its longest run).
 */
import { ContextTracker } from '../kernel/context.js';
import { Fact } from '../kernel/describe.js';
import { Limit, type BrakeLimits } from '../kernel/limits.js';

/** A run's reusable parts (SessionSetup.spare): each is emptied or written whole by the session that takes them. */
export interface SpareParts {
  readonly context: ContextTracker;
  readonly limits: BrakeLimits;
  readonly facts: Float64Array;
}

const spare: SpareParts[] = [];

/** Parts for a run: those of a run that ended, else new ones (a run inside a run, a source that runs one, takes others). */
export function takeSpareParts(): SpareParts {
  return spare.pop() ?? { context: new ContextTracker(), limits: new Float64Array(Limit.Size), facts: new Float64Array(Fact.Size) };
}

/** The run that took `parts` has ended (nothing of it holds them): the next run takes them. */
export function returnSpareParts(parts: SpareParts): void {
  spare.push(parts);
}
