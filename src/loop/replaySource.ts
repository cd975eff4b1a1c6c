import { cacheWritesOf, type CacheWrites } from '../kernel/cacheWrites.js';
import { callRecordsCache } from '../kernel/cacheLost.js';
import { endsAfterLastCall, endsBeforeNextCall, exhaustedStop } from '../kernel/gaveUp.js';
import { callsLeft } from '../kernel/summaryBeforeCall.js';
import { reasoningReentersOf } from '../kernel/stepTokens.js';
import { recordedEndDetail } from '../trace/endDetail.js';
import { replayedCalls } from '../trace/replayedCalls.js';
import type { CallRecord, Trace } from '../trace/types.js';
import { refusalOfRecorded } from './refusalWords.js';
import type { StepSource, WindowRefusal } from './types.js';

/** What a ReplaySource is told beside its trace. */
export interface ReplaySourceOptions {
  /** Its compaction calls are the summary calls of the strategy replayed (StepSource.recordedSummary). */
  summariesRecorded?: boolean;
  /** The trace's calls as replays play them, worked out already (a session tree's: tree/waitedTime.ts treeCalls); default: replayedCalls(trace). */
  calls?: readonly CallRecord[];
}

/**
 * Replays a trace's calls in order, whatever the prompt holds (an open-loop source): every replay's source of a
 * recording (a lone replay's, and each run's of a session tree, which plays a run's calls where its schedule puts them: at).
 */
export class ReplaySource implements StepSource {
  /** A recording is replayed as recorded, whatever the loop's state. */
  readonly readsToolState = false;
  /** How long its cache writes may last (kernel/cacheWrites.ts): a recording's may last an hour, a synthetic run's do not. */
  readonly cacheWrites: CacheWrites;
  /** Whether its calls record a cache read or write (none: under the cache as recorded, no cache hit is lost to the strategy: kernel/cacheLost.ts). */
  readonly recordsCache: boolean;
  /** Whether its calls' reasoning enters its later prompts: as its header says (kernel/stepTokens.ts reasoningReentersOf). */
  readonly reasoningReenters: boolean;
  /** The call `next` gives next (past the last: none). */
  private index = 0;
  /** The recorded run asked for no call after its last (its model gave up, or it was aborted: kernel/gaveUp.ts). */
  private readonly endsAfterLast: boolean;
  /** The calls as replays play them (trace/replayedCalls.ts: no final mark on a call its run was aborted after). */
  private readonly calls: readonly CallRecord[];
  /** `options` as a boolean (before options were an object): `summariesRecorded`. */
  constructor(
    private readonly trace: Trace,
    given: ReplaySourceOptions | boolean = {},
  ) {
    const options = typeof given === 'boolean' ? { summariesRecorded: given } : given;
    this.endsAfterLast = endsAfterLastCall(trace);
    this.cacheWrites = cacheWritesOf(trace);
    this.recordsCache = trace.calls.some(callRecordsCache);
    this.reasoningReenters = reasoningReentersOf(trace);
    this.calls = options.calls ?? replayedCalls(trace);
    if (options.summariesRecorded === true) this.recordedSummary = () => (this.calls[this.index]?.compaction === true ? this.calls[this.index++]! : null);
  }
  readonly recordedSummary?: () => CallRecord | null;
  next() {
    return this.calls[this.index++] ?? null;
  }
  /** Gives its calls from call `call` on (0: its first; its length: none left): the session-tree replay's run at the call its schedule plays. */
  at(call: number): this {
    this.index = call;
    return this;
  }
  /** How many of its calls it has given (its recorded summary calls among them). */
  given(): number {
    return Math.min(this.index, this.calls.length);
  }
  exhaustedReason() {
    return exhaustedStop(this.trace.end);
  }
  exhaustedDetail(): string {
    return recordedEndDetail(this.trace.end);
  }
  /** Its calls not yet given, a refused one among them, its recorded summary calls among them (kernel/summaryBeforeCall.ts callsLeft). */
  callsLeft(): number {
    return callsLeft(this.calls.length, this.index);
  }
  endedBeforeNextCall(): boolean {
    return endsBeforeNextCall(this.index, this.trace.calls.length, this.endsAfterLast);
  }
  /** The call just given was recorded as its provider's refusal of a prompt past the window: its numbers (refusalOfCall). */
  refusal(): WindowRefusal | undefined {
    return refusalOfCall(this.calls[this.index - 1]);
  }
}

/**
 * A recorded call its provider refused for its length (failed.contextLengthExceeded): the refusal's numbers, NaN where not
 * recorded; undefined for any other call. What every replay's source says of the call it just gave (StepSource.refusal).
 */
export function refusalOfCall(call: CallRecord | undefined): WindowRefusal | undefined {
  const refused = call?.failed?.contextLengthExceeded;
  return refused === undefined ? undefined : refusalOfRecorded(refused);
}
