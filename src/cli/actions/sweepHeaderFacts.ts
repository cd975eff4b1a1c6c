/**
 * What a sweep's (a calibration's) warnings say of its recorded runs' own headers, counted run by run:
 * their importers' notes (importNotesWarning.ts), the context strategies their recordings state
 * (recordedStrategyWarning.ts) and the session trees they are parts of (sessionParts.ts). One value, carried through the same per-file, per-unit and per-thread
 * plumbing (sweepStream.ts, sweepUnits.ts, sweepShares.ts) and joined by one merge, so another such fact
 * is one field here: its tally in RunHeaderFactsTally, its warning in sweepWarnings.ts.
 *
 * Threads take units in any order; each unit's facts travel with its place among the inputs (`order`), and
 * the parts are joined in that order (joinRunHeaderFacts), so the facts — the first import note too — are
 * those one thread reading every file in order gives, whichever thread read which.
 */
import { ImportNotesTally, type ImportNotesSeen } from '../../report/importNotesWarning.js';
import { StatedStrategyTally, type StatedStrategies } from '../../report/recordedStrategyWarning.js';
import type { Trace } from '../../trace/types.js';
import { importNotesOf } from './runNotes.js';
import { CacheIdleTally, idleCallsOf, idleCallsOfCompiled, type IdleCounts } from '../../report/cacheIdleWarning.js';
import { handedOverCompiled } from '../../replay/compiledRuns.js';
import { SessionParts, type SessionRuns } from '../../report/sessionParts.js';

/** Facts of runs' headers (plain data: a worker thread sends them), each absent where none of the runs has it. */
export interface RunHeaderFacts {
  /** The runs' importers' notes, counted in the order read; absent: none. */
  importNotes?: ImportNotesSeen;
  /** The runs whose recordings state their context strategy, by spec; absent: none. */
  statedStrategies?: StatedStrategies;
  /** Calls that came after the cache's lifetime by their recorded latencies (report/cacheIdleWarning.ts), their runs and what they were counted over (the whole recordings); absent: none. */
  cacheIdle?: IdleCounts;
  /** The runs that are parts of a session tree (`header.agent`), by session; absent: none. */
  sessionRuns?: SessionRuns;
}

/** Facts of some runs (a sweep unit's) and where they come among the inputs (the unit's `order`: sweepUnits.ts). */
export interface RunHeaderFactsPart {
  order: number;
  facts: RunHeaderFacts;
}

/** Counts the facts run by run, or adds up facts counted apart, in the order the runs come among the inputs. */
export class RunHeaderFactsTally {
  private readonly notes = new ImportNotesTally();
  private readonly stated = new StatedStrategyTally();
  private readonly idle = new CacheIdleTally();
  private readonly sessions = new SessionParts();

  /** One run, read after those counted so far. */
  add(trace: Trace): this {
    this.notes.add(trace.source, importNotesOf(trace));
    this.stated.add(trace);
    // A sweep's run has its calls let go once compiled (sweepStream.ts letCallsGo): read off the compiled trace then.
    const compiled = handedOverCompiled(trace);
    // No setting's replay at hand: counted over the whole recording.
    this.idle.add(compiled === undefined ? idleCallsOf(trace) : idleCallsOfCompiled(compiled), true);
    this.sessions.add(trace.header.agent?.sessionId);
    return this;
  }

  /** Facts of runs that come after those counted so far (their first note counts only when none came before). */
  addFacts(facts: RunHeaderFacts | undefined): this {
    if (facts?.importNotes !== undefined) this.notes.addSeen(facts.importNotes);
    this.stated.addCounted(facts?.statedStrategies);
    this.idle.addCounted(facts?.cacheIdle);
    this.sessions.addCounted(facts?.sessionRuns);
    return this;
  }

  /** What it counted (copies). */
  facts(): RunHeaderFacts {
    const notes = this.notes.counted();
    const stated = this.stated.counted();
    const counted = this.idle.counted();
    const idle = counted === undefined ? {} : { cacheIdle: counted };
    const sessionRuns = this.sessions.counted();
    return { ...(notes.runs === 0 ? {} : { importNotes: notes }), ...(stated === undefined ? {} : { statedStrategies: stated }), ...idle, ...(sessionRuns === undefined ? {} : { sessionRuns }) };
  }
}

/** The facts of `traces`, in their order. */
export function runHeaderFactsOf(traces: Iterable<Trace>): RunHeaderFacts {
  const tally = new RunHeaderFactsTally();
  for (const trace of traces) tally.add(trace);
  return tally.facts();
}

/** Whether `facts` say anything (a part saying nothing need not be sent). */
export function saysAnything(facts: RunHeaderFacts): boolean {
  return facts.importNotes !== undefined || facts.statedStrategies !== undefined || facts.cacheIdle !== undefined || facts.sessionRuns !== undefined;
}

/** The one merge: parts counted apart (units, on whichever thread) joined in the inputs' order, as one tally of them all in that order counts them. */
export function joinRunHeaderFacts(parts: Iterable<RunHeaderFactsPart>): RunHeaderFacts {
  const tally = new RunHeaderFactsTally();
  for (const part of [...parts].sort((a, b) => a.order - b.order)) tally.addFacts(part.facts);
  return tally.facts();
}
