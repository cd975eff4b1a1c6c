import type { BrakeConfig } from '../brakes/config.js';
import type { Interner } from '../brakes/fingerprint.js';
import type { BrakeState } from '../brakes/state.js';
import type { Stop, StopReason } from '../brakes/stopReasons.js';
import type { CacheMode, ContextStrategy } from '../context/strategy.js';
import type { PromptView } from '../kernel/context.js';
import type { ModelPricing } from '../pricing/types.js';
import type { CallRecord } from '../trace/types.js';
import type { SummaryCallSize } from '../kernel/cost.js';
import type { CacheWrites } from '../kernel/cacheWrites.js';
import type { LatencyModel } from './latency.js';
import type { LoopSession } from './session.js';
import type { SpareParts } from './spareParts.js';

/**
 * The check a tree of agents (src/tree/budget.ts) makes before a call of one of its runs, on the tree's and
 * the agent's totals (brought up to date with what `session` spent so far, a summary call included): null
 * when the call may go.
 */
export interface TreeCheck {
  check(session: LoopSession, view: PromptView): Stop | null;
  /** Whether the tree's brakes would let the next call through, `summary` bounded in predict mode (a summary call's gate, as summaryMayRun is a run's). */
  summaryMayRun(session: LoopSession, summary: SummaryCallSize): boolean;
}

/** What a call's request carries besides its prompt: what a provider decides on (a synthetic agent refuses as one would). */
export interface StepRequest {
  /**
   * The max_tokens it asks for: the loop always sends one (the session's `Limit.MaxOutputTokens`,
   * `--max-output-tokens`, default 4096); a request served may carry none.
   */
  maxOutputTokens?: number;
}

/**
 * A provider's refusal of a request whose prompt + max_tokens (the prompt alone, when it asks for none)
 * passes the model's context window: OpenAI's 400 `context_length_exceeded`. The call was made and
 * failed; it is paid nothing, is no step, and the run ends there (LoopSession.providerRefused) — in the
 * simulated loop (a synthetic agent's provider: src/kernel/providerWindow.ts, a summary call's too) and the real one alike.
 */
export interface WindowRefusal {
  /** The prompt as the provider counted it. */
  promptTokens: number;
  /** The max_tokens the request asked for; absent when it asked for none. */
  maxOutputTokens?: number;
  contextWindowTokens: number;
}

/**
 * Where responses come from: a recorded trace, a synthetic policy reacting to its context, or (in the
 * real loop) a model. It is asked for the response to the prompt `view` describes, sent with `request`
 * (a recording ignores both); null = no more.
 */
export interface StepSource {
  next(view: PromptView, state: Readonly<BrakeState>, request: StepRequest): CallRecord | null;
  /** What ends the run when the source runs out: a recorded completion, or trace_end. */
  exhaustedReason(): Extract<StopReason, 'completed' | 'trace_end'>;
  /** What a recording says of its end when it did not complete (trace/endDetail.ts; '' or left out: nothing). */
  exhaustedDetail?(): string;
  /**
   * True once the source has given its last response and its run ended there, before the loop asked for
   * another: a recording whose model gave up after a failed call, or whose run was aborted (kernel/gaveUp.ts).
   * The run then ends as the source's end says, with no summary call and no brake before a call that never
   * came. Left out: false.
   */
  endedBeforeNextCall?(): boolean;
  /**
   * How many calls the source has left to give (a recording: its calls not yet replayed). A summary call due
   * when none is left is not made: the run ends there, as the source's end says (kernel/summaryBeforeCall.ts).
   * Left out: a source that answers whenever asked (a model, a synthetic agent).
   */
  callsLeft?(): number;
  /**
   * The provider's refusal the response `next` last gave stands for (a failed call), when it was one;
   * left out or undefined: none (a recording's failed calls are what they were, steps like any call).
   */
  refusal?(): WindowRefusal | undefined;
  /**
   * The duplicate-action guard (`--repeat-action skip`) skipped tool call `index` of the response `next` last
   * gave: the tool did not run, and what its step holds is the guard's warning, not its result. A closed-loop
   * policy acts on what its context holds (synthetic agents: a skipped read is no read). Left out: not told.
   */
  toolSkipped?(index: number): void;
  /**
   * Present when the source recorded the strategy's summary calls (a live run's recording replayed under the
   * strategy its loop ran: replay/recordedStrategy.ts): the summary call due now as recorded — the next call
   * when it is a compaction call, which it gives (so `next` does not), else null (the run made none here).
   */
  recordedSummary?(): CallRecord | null;
  /**
   * False: the source never reads `state.tools` (the repeated-action and same-error counts). With the
   * repeated-action brake off, the loop then keeps no count of actions (nothing would read them) and
   * spends nothing making their fingerprints. Left out: the source may read them, and they are kept.
   */
  readonly readsToolState?: boolean;
  /**
   * How long the cache writes of its calls may last (kernel/cacheWrites.ts): a recording's may last an hour,
   * a synthetic agent's last five minutes. Left out: they may last an hour.
   */
  readonly cacheWrites?: CacheWrites;
  /**
   * Whether its calls record a cache read or write (a recording's: replay/runFacts.ts hasRecordedCache): under the
   * cache as recorded, a run whose calls record none loses no cache hit to its strategy (kernel/cacheLost.ts).
   * Left out: they may (a live loop's, before its calls).
   */
  readonly recordsCache?: boolean;
  /**
   * Whether its calls' reasoning enters the later prompts of the run (kernel/stepTokens.ts reasoningReentersOf:
   * a recording's header `reasoningInPrompt`). Left out: it does.
   */
  readonly reasoningReenters?: boolean;
}

/** What a LoopSession shares or is told beyond its options. */
export interface SessionSetup {
  /** The fingerprint table, shared by the sessions of a tree (default: the session's own). */
  interner?: Interner;
  /** False when the step source never reads `state.tools` (StepSource.readsToolState). */
  sourceReadsToolState?: boolean;
  /** How long the run's cache writes may last (StepSource.cacheWrites; the real loop's own setting): the predictive bound's write price, as the cache mode leaves it (kernel meter.ts boundWrites). Default: they may last an hour. */
  cacheWrites?: CacheWrites;
  /** Whether the run's calls record a cache (StepSource.recordsCache): under the cache as recorded, the cache hits its strategy loses are counted only if so (kernel/cacheLost.ts). Default: they may. */
  recordsCache?: boolean;
  /** Whether a call's reasoning enters the run's later prompts (StepSource.reasoningReenters; the real loop's `reasoningInPrompt`): kernel/stepTokens.ts outputEnteringContext. Default: it does. */
  reasoningReenters?: boolean;
  /** Parts of a run that ended to run in, each emptied or written whole for this run (spareParts.ts; run.ts runLoop passes them on). Default: new ones. */
  spare?: SpareParts;
}

export interface LoopOptions {
  brakes: BrakeConfig;
  strategy: ContextStrategy;
  /** Resolved cache mode (`recorded` only makes sense for recorded traces). */
  cache: CacheMode;
  pricing: ModelPricing;
  systemTokens: number;
  goalTokens: number;
  /** Time for calls and tool calls whose trace records none. */
  latency?: LatencyModel;
  /** The summary model's prices (`summary:…,model=X`); default: `pricing`. */
  summaryPricing?: ModelPricing;
  /**
   * The responses' usage is for the prompt as actually sent under the strategy (a real loop applied it):
   * meter it as billed, never moved by the strategy again.
   */
  usageAsSent?: boolean;
  /** Keep one StepRow per call (charts, curves). Off for large sweeps. */
  keepSteps?: boolean;
  /** With keepSteps: rows only for the calls made while the run had made at most this many steps (a recording written down up to that step needs no more). */
  keepStepsThrough?: number;
}

/** One model call as billed. Cumulative figures include this call. */
export interface StepRow {
  /** 1-based index of the model call (backtracks and failed calls included). */
  call: number;
  /** Steps counted so far (backtracks do not count). */
  step: number;
  inputTokens: number;
  cachedInputTokens: number;
  cacheWriteTokens: number;
  /** Of cacheWriteTokens, those written for an hour (billed at the 1-hour price); absent when none. */
  cacheWrite1hTokens?: number;
  outputTokens: number;
  costPico: number;
  cumulativeInputTokens: number;
  cumulativeOutputTokens: number;
  cumulativeCostPico: number;
  /** The growth model's full-history prompt size for this call. */
  modelInputTokens: number;
  recordedInputTokens?: number;
  backtrack?: boolean;
  failed?: boolean;
  /** A summary call (context `summary`/`hybrid`): not a step; `call` is the agent calls made before it. */
  summary?: boolean;
  /** The tools the call asked for, in order (absent: none); their arguments are never kept. RunAccounts fills the four tool fields. */
  tools?: string[];
  /** Tokens its tool results added to the context as they entered it (each past the tool-result cap; a skipped one: the guard's warning); with `tools`. */
  toolResultTokens?: number;
  /** Those results before the cap: only when the cap cut one. */
  toolResultTokensBeforeCap?: number;
  /** Its tools the duplicate-action guard skipped (not run; the warning entered in place of each): absent when none. */
  skippedTools?: string[];
}

/**
 * A run's calls as metered — its failed calls, the tool calls it played, its tokens as billed (cache
 * writes of both lifetimes together) — named as every report of a run names them: replay's and the real
 * loop's totals (RunTotals), a report's run (report/records.ts), a served session (serve/sessionSummary.ts).
 * The one list of them; meteredTotals (accounts.ts) copies them out of a run's accounts or any such report.
 */
export interface MeteredTotals {
  failedCalls: number;
  toolCalls: number;
  inputTokens: number;
  cachedInputTokens: number;
  cacheWriteTokens: number;
  outputTokens: number;
  reasoningTokens: number;
}

/** The figures every replay path produces for a run. */
export interface RunTotals extends MeteredTotals {
  steps: number;
  calls: number;
  backtracks: number;
  costPico: number;
  /** Spend beyond the budget (0 without a budget). */
  overshootPico: number;
  elapsedMs: number;
  /** Cache on: unchanged prompt tokens the provider's minimum cacheable prefix rule did not serve from cache. */
  cacheRuleLostTokens: number;
  /** Present when not 0 (every path leaves them out alike): see StrategyFigures. */
  summaryCalls?: number;
  summaryCostPico?: number;
  strategyCacheLostTokens?: number;
  skippedActions?: number;
}

/** Figures of the strategies that rewrite history and of the duplicate-action guard. */
export interface StrategyFigures {
  /** Summary calls made (context `summary`/`hybrid`), and their cost (included in costPico; their tokens in the token totals). */
  summaryCalls: number;
  summaryCostPico: number;
  /** Cache on or recorded: prompt tokens the previous prompt held that masking, a summary or a slid window moved out of the unchanged prefix. */
  strategyCacheLostTokens: number;
  /** Repeated actions skipped by `--repeat-action skip` (not executed, not in toolCalls). */
  skippedActions: number;
}

/** The StrategyFigures' keys, in the order reports give them. */
export const STRATEGY_FIGURE_KEYS = ['summaryCalls', 'summaryCostPico', 'strategyCacheLostTokens', 'skippedActions'] as const satisfies readonly (keyof StrategyFigures)[];

/** Writes the strategy figures that are not 0 into `totals` (so runs without them look as before). */
export function addStrategyFigures<T extends Partial<StrategyFigures>>(totals: T, figures: StrategyFigures): T {
  for (const key of STRATEGY_FIGURE_KEYS) if (figures[key] !== 0) totals[key] = figures[key];
  return totals;
}

export interface RunOutcome extends RunTotals {
  stop: Stop;
  /** Σ over the calls made of recorded prompt tokens, when the trace recorded them. */
  recordedInputTokens?: number;
  /** Σ over the calls made of (recorded − growth model) prompt tokens. */
  recordedInputDelta?: number;
  /** Σ of the recorded per-call costs of the calls made, when every one was recorded. */
  recordedCallCostPico?: number;
  rows: StepRow[];
}
