/**
 * The real agent loop's interfaces: the model it calls, the tools it runs, the clock it reads and the
 * recorder it writes to. Everything here is a plain value or an interface, so a loop can be driven by an
 * OpenAI-compatible endpoint (openaiChat.ts), a recorded trace (traceModel.ts) or a test's script.
 */
import type { BrakeSettings } from '../brakes/config.js';
import type { Stop } from '../brakes/stopReasons.js';
import type { ContextStrategy } from '../context/strategy.js';
import type { RunOutcome, WindowRefusal } from '../loop/types.js';
import type { ModelPricing } from '../pricing/types.js';
import type { CacheWritesSetting, CallRecord, TraceEnd, TraceHeader } from '../trace/types.js';
import type { SubagentLimits } from '../tree/budget.js';
import type { LiveTreeReport } from './subagent.js';

/**
 * How long the cache writes the loop asks its provider for last: `five-minutes` (Anthropic's default
 * `cache_control`), `may-last-an-hour` (a 1-hour TTL, or a loop that cannot say), `none` (it asks for no
 * writes: no `cache_control`; a provider's automatic cache only reads). What the predictive budget prices a
 * prompt token's write at (kernel/cacheWrites.ts); its recording's header states it (`cacheWrites`).
 */
export type AgentCacheWrites = CacheWritesSetting;

/** A message of the conversation the loop sends (Chat Completions roles). */
export type AgentMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string }
  | { role: 'assistant'; content: string | null; toolCalls?: ModelToolCall[] }
  | { role: 'tool'; toolCallId: string; content: string };

/** A tool call as the model wrote it: `arguments` is the raw JSON text. */
export interface ModelToolCall {
  id: string;
  name: string;
  arguments: string;
}

/** What a tool looks like to the model. */
export interface ToolSpec {
  name: string;
  description: string;
  /** JSON Schema of the arguments object. */
  parameters: Record<string, unknown>;
}

export interface ModelRequest {
  messages: readonly AgentMessage[];
  tools: readonly ToolSpec[];
  /** `none`: the model must answer text, not call a tool (the summary call sends the run's tools so its prompt is the one it replaces). */
  toolChoice?: 'none';
  /** The output cap sent as `max_completion_tokens`: the same number the predictive budget bounds the call by. */
  maxOutputTokens: number;
  signal?: AbortSignal;
  /** `summary`: the context strategy's summary call (the run's tools sent, toolChoice `none`; the answer's text replaces the older steps). */
  purpose?: 'summary';
  /** The loop's estimate of the prompt in tokens (the one its brakes priced), sent with a summary call: a provider counts the prompt itself (adapters ignore it); a stand-in with no text to count (traceModel) refuses a summary call past the window by it, as replay's simulated provider does. */
  promptEstimateTokens?: number;
  /** A model to call instead of the adapter's own (`summary:…,model=X`). */
  model?: string;
}

/** Usage as the provider billed it (prompt tokens include the cached and cache-write parts). */
export interface ModelUsage {
  /** Absent when the endpoint reports none: the prompt is then billed as the view sizes it (the growth model). */
  inputTokens?: number;
  cachedInputTokens?: number;
  cacheWriteTokens?: number;
  /** Written with a 1-hour TTL (Anthropic). */
  cacheWrite1hTokens?: number;
  outputTokens: number;
  /**
   * `true`: the provider reported no output count (none, or 0 for a response with text or tool calls, which no
   * real call has): `outputTokens` is then 0, and the loop counts the response's text and tool calls with its
   * token counter instead, as it counts a tool's result (agent/unreportedUsage.ts).
   */
  outputNotReported?: boolean;
  reasoningTokens?: number;
  /** Web searches the provider ran inside the call (Anthropic's server_tool_use.web_search_requests, OpenAI's web_search_call items): billed per search on top of the tokens, counted toward the budget once the call returns. */
  webSearchRequests?: number;
}

/** One model response. */
export interface ModelTurn {
  text: string | null;
  toolCalls: ModelToolCall[];
  usage: ModelUsage;
  /**
   * What the response means beyond its tool calls, when the model or framework says so: a final answer
   * that still runs its tool calls, a backtrack (drops the previous step), a compaction call (paid, not a
   * step), an unparseable response (counts as a step; e.g. cut off at the output cap). A real endpoint
   * sets at most `unparseable` (`loopcost serve` also `backtrack`, from its extension: openaiResponse.ts); a replayed trace sets what it recorded.
   */
  marks?: { final?: boolean; backtrack?: boolean; compaction?: boolean; unparseable?: boolean };
  /** The provider's response as received (adapters set it; the loop reads only `loopcost serve`'s bill of the call in it: servedCost.ts). */
  raw?: unknown;
}

export interface Model {
  /** The model's name as priced and recorded (e.g. `gpt-4o-mini`). */
  readonly name: string;
  readonly provider?: string;
  /**
   * One call. Throws ModelCallError when the provider failed (the loop records and bills it, then
   * retries per its policy) and ModelExhausted when a scripted or replayed model has no more answers.
   */
  call(request: ModelRequest): Promise<ModelTurn>;
}

/**
 * A failed provider call: what the provider said, and the usage it billed when it returned any;
 * `refusal`: it refused a prompt past the model's window (the loop ends the run there, `provider_refused`).
 */
export class ModelCallError extends Error {
  constructor(
    message: string,
    readonly options: {
      status?: number;
      retryable: boolean;
      usage?: ModelUsage;
      cause?: unknown;
      refusal?: WindowRefusal;
      /** The model gives up after this failure (a replayed recording whose model gave up there: kernel/gaveUp.ts): the loop records and bills it, does not retry, and ends the run trace_end with this detail, as a replay of the recording does. */
      endsRun?: string;
      /** The failed call was a compaction (summary) call (a replayed recording's, marked `compaction`): recorded and paid so, no step, as the loop that made it counted it (loop.ts summarize) and a replay counts it. */
      compaction?: boolean;
      /** How long the provider asked to wait before another attempt (a 429's `Retry-After`), in ms: the loop's retry waits the longer of it and its back-off (retryWait.ts, at most 60 s more). */
      retryAfterMs?: number;
      /** The request was sent and its response never read (a timeout, a connection lost, a body that is no JSON): with no `usage`, the loop bills it at its own prompt estimate, marked estimated (failedCalls.ts). */
      unread?: boolean;
    },
  ) {
    super(message);
    this.name = 'ModelCallError';
  }
}

/** A scripted or replayed model has no more answers: the run ends as its recording did. */
export class ModelExhausted extends Error {
  /** `detail`: what the recording says of an end without completing (trace/endDetail.ts; '' for nothing). */
  constructor(
    readonly reason: 'completed' | 'trace_end',
    readonly detail = '',
  ) {
    super(`the model has no more answers (${reason})`);
    this.name = 'ModelExhausted';
  }
}

/** What running a tool gave: text for the model, its size in tokens when the tool knows it, an error when it failed. */
export interface ToolResult {
  output: string;
  /** Tokens the result adds to the context; counted by the loop's token counter when absent. */
  tokens?: number;
  /** Set when the tool failed: the text the same-tool-same-error brake compares. */
  error?: string;
}

export interface ToolContext {
  signal?: AbortSignal;
  /** The call's id as the model wrote it. */
  callId: string;
  /** The call's place among its response's tool calls, from 0 (set by the loop; a response may name one id twice). */
  callIndex?: number;
  /** Runs a sub-agent under this run's tree budget (what defineSubagentTool calls); set by runAgentLoop. */
  runSubagent?(spec: SubagentSpec): Promise<AgentRunResult>;
}

/** The agent a sub-agent tool starts: its model, tools and context; clock, retry and token counter are the parent's. */
export interface SubagentSpec {
  agentId: string;
  model: Model;
  tools?: readonly AgentTool<any>[];
  context: AgentContextOptions;
  /** Its model's prices (default: the parent's). */
  pricing?: ModelPricing;
  /** Its own per-call brakes (repeat, same error, context window, …; unset modes as the CLI's); the tree's bind the totals. Default: the parent's. */
  brakes?: BrakeSettings;
  recorder?: TraceRecorder;
}

/** A tool the loop may run. `run` may return a string, a ToolResult, or throw (an error observation). */
export interface AgentTool<Args = Record<string, unknown>> extends ToolSpec {
  /** Runs a sub-agent (defineSubagentTool): the run then checks every call of its tree against one budget. */
  subagent?: boolean;
  /**
   * Answers from a recording (traceModel's tools): `run` takes the arguments as the model wrote them
   * (Args = string), unparsed, and the name is the one recorded — any a model wrote, a tool its run lacked included.
   */
  fromRecording?: boolean;
  run(args: Args, context: ToolContext): Promise<string | ToolResult> | string | ToolResult;
}

/** Milliseconds on any origin; only differences are read. */
export interface Clock {
  now(): number;
  /** Waits (retry back-off); a virtual clock advances instead. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  /**
   * Resolves once the clock reads more than `ms` past its reading now, without moving it (a virtual clock:
   * once advance or sleep takes it there); rejects once `signal` fires. What cuts a call in flight at the
   * run's timeout (deadline.ts): a clock without it is read between calls only, a call running to its end.
   */
  timer?(ms: number, signal: AbortSignal): Promise<void>;
  /**
   * The date of reading `readingMs` (ISO): a recording of a run on this clock is dated its start's (`recordedAt`;
   * dated prices are read at its day); null: no date, the recording left undated (priced at the table's current
   * prices). A VirtualClock given an epoch dates (epoch + reading), one without answers null: identical runs make
   * identical recordings. A clock without dateOf (the wall clock) leaves the date to the recorder (the real one).
   */
  dateOf?(readingMs: number): string | null;
  /** The loop is done with tool call `callId`, run or refused (`counted` false: a skipped repeat): ServedClock counts its recorded time. */
  toolCallDone?(callId: string, counted: boolean): void;
}

/** When a failed call is tried again. */
export interface RetryPolicy {
  /** Retries after the first attempt of one call (default 3). */
  maxRetries: number;
  /** Wait before retry `attempt` (1-based), in ms (default 1 s, 2 s, 4 s, … capped at 30 s). */
  backoffMs(attempt: number): number;
}

/** Receives the run as it goes: a header, one record per model call, the end. */
export interface TraceRecorder {
  /** `clockDate`: the date of the run's start on its clock (Clock.dateOf), when it tells one: a recorder that dates its recordings dates this one so; null: the clock says the run has no date (leave it undated). */
  header(header: TraceHeader, clockDate?: string | null): void;
  /**
   * Optional: a call whose tools are about to run, as soon as its response is paid — its tool calls `unreached`
   * (none ran yet), no `final` mark (trace/liveRecording.ts pendingCall). `call` gives the same call complete once
   * its step is over. fileRecorder writes both lines, so a run killed while a tool runs keeps the call it paid.
   */
  pending?(call: CallRecord): void;
  /**
   * Optional: a model call about to be made, as sent (trace/liveRecording.ts sentCall: failed, billed at the
   * loop's prompt estimate, marked estimated); the next `pending` or `call` gives that call's outcome in its
   * place, and `end` right after it drops it. fileRecorder writes it, so a run killed during the call keeps it.
   */
  sent?(call: CallRecord): void;
  call(call: CallRecord): void;
  end(end: TraceEnd): void;
}

export interface AgentContextOptions {
  system: string;
  goal: string;
  /** full history (default), a window of the last K steps, masking, summaries or both, with an optional tool-result cap. */
  strategy?: ContextStrategy;
  /** Sizes of the system prompt and goal when known (else counted). */
  systemTokens?: number;
  goalTokens?: number;
  /** Counts the tokens of a text (default: the model family's tokenizer, see src/import/tokenCount.ts). */
  countTokens?: (text: string) => number;
}

export interface AgentLoopOptions {
  model: Model;
  tools: readonly AgentTool<any>[];
  /** Any brake settings, as the CLI's flags: `{ maxSteps: 5 }` is `--max-steps 5`; unset modes are the flags' defaults (brakeConfig). */
  brakes: BrakeSettings;
  context: AgentContextOptions;
  /** The model's prices (e.g. `loadPriceTable().resolve('gpt-4o')`). */
  pricing: ModelPricing;
  /** The summary calls' prices when the strategy names another model (`summary:…,model=X`); default `pricing`. */
  summaryPricing?: ModelPricing;
  recorder?: TraceRecorder;
  clock?: Clock;
  signal?: AbortSignal;
  retry?: Partial<RetryPolicy>;
  /** A task name for the recorded header. */
  task?: string;
  /** Limits on each sub-agent on its own (sub-agent tools), besides the brakes that bind the whole tree. */
  subagentLimits?: SubagentLimits;
  /** How long the cache writes it asks its provider for last (its sub-agents' too): the predictive budget's write price. Default `may-last-an-hour` (the dearest). */
  cacheWrites?: AgentCacheWrites;
  /** `true`: its model is billed for a call's reasoning in later prompts (a Model that sends it back: the loop's messages carry none). Default `false`: a step is its output less its reasoning (kernel/stepTokens.ts). */
  reasoningInPrompt?: boolean;
  /**
   * `true`: run with nothing to end it. By default a run needs a bound — a brake on its totals (`brakes.maxSteps`, `brakes.maxCostPico`,
   * `brakes.timeoutMs` or `brakes.maxTokens`) or a `signal` — and one with none is refused (a UserError naming `brakes`, before the model
   * is called: agent/bounded.ts), as it would run as long as its model calls tools, keeping every step. Say `unbounded: true` only when the
   * model (or a Model of your own) is known to end, e.g. a scripted one.
   */
  unbounded?: boolean;
}

/** How a real run ended: the same figures a replay reports, and the conversation it had. */
export interface AgentRunResult extends RunOutcome {
  stop: Stop;
  /** The model's last text (the final answer when the run completed). */
  finalText: string | null;
  messages: AgentMessage[];
  /**
   * What the run did otherwise than asked, in words, when anything: a summary call that answered no text (billed,
   * nothing compacted), failed model calls a brake stopped the run after (modelCallFailed.ts). Absent when none.
   */
  notes?: string[];
  /** When the run had sub-agent tools: the tree's totals, every agent, and the ones a brake stopped. */
  tree?: LiveTreeReport;
  /** A sub-agent's run: the name its tree gave this start (`researcher`, `researcher#2` for a second start). */
  agentId?: string;
}
