/**
 * The native trace model (schema `loopcost.trace/1`). One run is a header, one record per model call and
 * an end record. See docs/trace-format.md and schema/trace-v1.schema.json.
 */

export const TRACE_SCHEMA = 'loopcost.trace/1';

/**
 * How long the cache writes a run's loop asked its provider for last (runAgentLoop's `cacheWrites`, which its
 * recorder states in the header): `five-minutes`, `may-last-an-hour` (a 1-hour TTL, or a loop that cannot
 * say), `none` (no writes asked for). The predictive bound's write price (kernel/cacheWrites.ts).
 */
export const CACHE_WRITES_SETTINGS = Object.freeze(['five-minutes', 'may-last-an-hour', 'none'] as const);
export type CacheWritesSetting = (typeof CACHE_WRITES_SETTINGS)[number];

/**
 * Brake settings a trace was recorded with: what `--preset recorded` and what-if's baseline replay it
 * under (src/trace/recordedSettings.ts reads them; never applied otherwise). An importer gives what its log
 * says (step and cost limits); the real loop's recorder gives every brake the run had, exactly (its
 * budget in `maxCostPico`, its timeout in `timeoutMs`). Unset: that brake was off (modes: the CLI's default).
 */
export interface RecordedSettings {
  maxSteps?: number;
  /** The budget in USD (as a log gives it; 0 is a budget of 0). At most one of maxCostUsd, maxCostPico. */
  maxCostUsd?: number;
  /** The budget in integer picodollars, exactly (the real loop's recorder). */
  maxCostPico?: number;
  /** The timeout in seconds (as a log gives it). At most one of timeoutSeconds, timeoutMs. */
  timeoutSeconds?: number;
  /** The timeout in milliseconds, exactly (the real loop's recorder; may be fractional). */
  timeoutMs?: number;
  budgetMode?: 'check' | 'predict';
  /** The max_tokens each call sent (unset: 4096). */
  maxOutputTokens?: number;
  maxRepeat?: number;
  repeatMode?: 'total' | 'consecutive' | 'cycle';
  repeatAction?: 'stop' | 'skip';
  maxSkips?: number;
  skipWarningTokens?: number;
  maxSameError?: number;
  sameErrorMode?: 'consecutive' | 'total';
  maxTokens?: number;
  maxBacktracks?: number;
  /** Largest prompt allowed, tokens, or `model` (the model's own window less the max_tokens sent). */
  contextWindow?: number | 'model';
}

/** A run's context strategy as its recording's header states it (TraceHeader.context). */
export interface RecordedContext {
  /** In `--context` syntax (context/strategy.ts contextSpecOf). */
  spec: string;
  /** Tokens a single tool result could add (a larger one was truncated). */
  toolResultCap?: number;
}

/**
 * Where a run sits in a session tree (an agent and the sub-agents it started, e.g. a Claude Code session
 * and its Task sub-agents). Runs of one tree share `sessionId`; an agent whose calls span several runs
 * (one per user turn, or per model when it switched models) numbers them with `part`.
 */
export interface AgentRef {
  sessionId: string;
  /** `main`, or the sub-agent's id. */
  agentId: string;
  kind: 'main' | 'subagent';
  /** Sub-agents: the agent whose tool call started this one. */
  parentAgentId?: string;
  /** Sub-agents: the `id` of that tool call in the parent's runs. */
  parentToolCallId?: string;
  /**
   * Sub-agents: it ran in the background (Claude Code's `async_launched` Task result, or
   * `run_in_background: true` on the Task call): that tool call returned at launch, not when it ended.
   */
  background?: boolean;
  /** 1-based part number when the agent's calls span several runs. */
  part?: number;
}

export interface TraceHeader {
  type: 'header';
  schema: typeof TRACE_SCHEMA;
  model: string;
  /** Provider id, when known (`openai`, `anthropic`, ...). Helps price look-up. */
  provider?: string;
  systemTokens: number;
  goalTokens: number;
  /** `recorded` (imported from a real log) or `synthetic` (generated). Decides the cache default. */
  origin?: 'recorded' | 'synthetic';
  /** Free-form task name / instance id. */
  task?: string;
  /** When the run was recorded (its first call), ISO 8601. Dated prices are read as of this day by default. */
  recordedAt?: string;
  /** Where the trace came from when imported (format and original path). */
  importedFrom?: { format: string; path: string; notes?: string[] };
  recordedSettings?: RecordedSettings;
  /**
   * How long the run's cache writes last, as its loop asked its provider (the runAgentLoop recorder writes its
   * `cacheWrites` when set): the write price a replay's predictive bound takes, under any brakes. Unset: a
   * recording's may last an hour (kernel/cacheWrites.ts).
   */
  cacheWrites?: CacheWritesSetting;
  /**
   * Whether a call's reasoning enters the later prompts of the run (kernel/stepTokens.ts outputEnteringContext):
   * `false` where its loop does not send reasoning back (the runAgentLoop recorder writes its `reasoningInPrompt`,
   * `false` unless told otherwise: its conversation carries no reasoning), so each step holds its output less its
   * reasoning. Unset: it does (providers that are sent it back count it: Codex/Responses, DeepSeek reasoner).
   */
  reasoningInPrompt?: boolean;
  /**
   * The context strategy the run's loop ran under, when not full history (the runAgentLoop recorder): its
   * `--context` spec (`summary:trigger=250,keep=2,tokens=80`) and tool-result cap. Its compaction calls are
   * that strategy's summary calls and its prompts were sent as it shaped them, so a replay with full context
   * replays the run as its loop ran it (replay/recordedStrategy.ts).
   */
  context?: RecordedContext;
  /** The run's place in a session tree (set by importers of agents with sub-agents). */
  agent?: AgentRef;
  /** Ground truth of a run generated from a scenario (`loopcost generate`). */
  synthetic?: SyntheticHeader;
  /** Written line by line while the run went (the runAgentLoop recorder): a run cut off before its end record reads as ending in trace_end. */
  live?: boolean;
  /**
   * How the live recording wrote a call whose tools ran (the runAgentLoop recorder): `pending-then-complete`,
   * twice — as its response was paid, then complete — the second line read in place of the first
   * (trace/liveRecording.ts); `sent-pending-complete`, each model call also written as sent before it was made,
   * the next line read in its place. Left out: every call line is a call. A reader that knows no such field refuses
   * the file instead of counting the first lines as calls.
   */
  liveLines?: 'pending-then-complete' | 'sent-pending-complete';
}

/** What really happened in a generated run, for judging brakes against (see GroundTruth). */
export interface SyntheticHeader {
  behaviour: string;
  /** The population entry's name. */
  name?: string;
  /** The scenario file it was generated from. */
  scenario?: string;
  seed: number;
  /** 0-based index of the run in its scenario. */
  run: number;
  taskDone: boolean;
  doneAtStep?: number;
  stuckFromStep?: number;
  /** Generated without brakes up to this many steps. */
  hardCapSteps?: number;
}

export interface ToolCallRecord {
  name: string;
  /** Arguments as an object, or the raw string a model produced when it was not valid JSON. */
  arguments: unknown;
  /** Tokens the tool's result adds to the context. */
  resultTokens: number;
  /** Error text when the tool failed (non-zero exit, exception); absent or null when it succeeded. */
  error?: string | null;
  /** Virtual time the tool took. */
  latencyMs?: number;
  /** The tool call's id as recorded (`toolu_…`, `call_…`): a sub-agent run names the call that started it. */
  id?: string;
  /**
   * The sub-agent this call started (its `header.agent.agentId`), when the log links them from the call's
   * side (Codex's `spawn_agent` output names the thread it spawned): a tree links that sub-agent to this call.
   */
  startedAgentId?: string;
  /**
   * Every sub-agent this call started, when it started more than one (a tool that runs several agents):
   * each a `header.agent.agentId`, in the order started. Read with `startedAgentId` (trace/startedAgents.ts).
   */
  startedAgentIds?: string[];
  /**
   * The run never reached this tool call: its AbortSignal fired between the tool calls of the response, so
   * this one and every one after it never ran (resultTokens 0, no latency nor error). A replay plays the
   * response's tool calls up to the first unreached one, as the run did (the run ended there).
   */
  unreached?: boolean;
}

export interface CallRecord {
  type: 'call';
  /** Full prompt tokens as recorded (cached and cache-write included). Absent in synthetic traces. */
  inputTokens?: number;
  /** Part of inputTokens read from the prompt cache. */
  cachedInputTokens?: number;
  /** Part of inputTokens written to the cache (5-minute TTL). */
  cacheWriteTokens?: number;
  /** Part of inputTokens written to the cache with a 1-hour TTL. */
  cacheWrite1hTokens?: number;
  /** Completion tokens, reasoning included. */
  outputTokens: number;
  /** Part of outputTokens spent on reasoning. */
  reasoningTokens?: number;
  /**
   * Web searches the provider ran inside the call (Anthropic's `usage.server_tool_use.web_search_requests`,
   * OpenAI's `web_search_call` items): billed per search on top of the tokens, at the price table's web
   * search fee (ModelPricing.webSearchPico), and part of the call's cost. Not tool calls of the loop.
   */
  webSearchRequests?: number;
  latencyMs?: number;
  /** When the call was sent, in ms after the header's `recordedAt`: orders the calls of a tree's runs. */
  startMs?: number;
  toolCalls?: readonly ToolCallRecord[];
  /** The response is a final answer (no further tool calls intended). */
  final?: boolean;
  /** The response abandons the previous step: its call and result leave the context. */
  backtrack?: boolean;
  /** The response could not be parsed (no usable tool call nor answer); it still counts as a step. */
  unparseable?: boolean;
  /** A context-compaction (summary) call: paid, not a step, never ends the run. */
  compaction?: boolean;
  /** The call failed at the provider (HTTP 400, 429, 5xx): usage is usually zero. */
  failed?: FailedCall;
  /** Cost the source reported for this call, in USD. Reported beside ours, never used for ours. */
  recordedCostUsd?: number;
}

/** How a call failed at the provider: its status and message as recorded, and whether it refused the call for its length. */
export interface FailedCall {
  status?: number;
  message: string;
  /**
   * The call was sent and its response never read (a timeout, a lost connection, a body that is no JSON, a
   * cut at the run's timeout, a live recording cut off during it): its `inputTokens` are the loop's own
   * estimate of the prompt it sent, billed as the provider may have billed it (the real loop's recorder).
   */
  estimated?: true;
  /**
   * The provider refused the call because its prompt + the max_tokens it asked for passed the model's
   * context window (OpenAI's 400 `context_length_exceeded`, Anthropic's 400 invalid_request_error
   * "prompt is too long"): paid nothing, no step, and the run ended there (stop `provider_refused`).
   * The numbers the provider gave, each absent when the log does not give it.
   */
  contextLengthExceeded?: ContextLengthExceeded;
}

export interface ContextLengthExceeded {
  /** The prompt as the provider counted it. */
  promptTokens?: number;
  /** The max_tokens the request asked for. */
  maxOutputTokens?: number;
  contextWindowTokens?: number;
}

export type RecordedOutcome = 'completed' | 'error' | 'timeout' | 'limit' | 'unknown';

export interface TraceEnd {
  type: 'end';
  outcome: RecordedOutcome;
  /** The source's own status word, e.g. `Submitted`, `InternalServerError`. */
  status?: string;
  /** The run was stopped by its AbortSignal (the runAgentLoop recorder writes it; only with outcome `unknown`). */
  aborted?: true;
  recordedCostUsd?: number;
  recordedInputTokens?: number;
  recordedOutputTokens?: number;
  recordedCalls?: number;
}

export interface Trace {
  /** Path of the file it came from, `#n` appended when a file holds several runs. */
  source: string;
  /**
   * The 1-based line of its file the run's model was read from, where the file has lines: a native run's
   * own header line (a file of several runs has one per run); an importer of a JSONL format, the line that
   * names the model. Absent for a whole JSON document or a run built in memory. A problem of the run's
   * model (one no price table knows) names it.
   */
  headerLine?: number;
  /**
   * Where the run's model was read when that is a line of another file than `source` names (a Claude Code
   * sub-agent's run, its source the session's, its model in its own transcript): a problem of the model names it.
   */
  modelPlace?: { file: string; line: number };
  header: TraceHeader;
  calls: readonly CallRecord[];
  /**
   * The 1-based line of its file each call was read from, where the file has lines (a native run's: a call
   * past exact picodollars on its own names its line, replay/runContext.ts). Absent for other formats or a run
   * built in memory (such a call is named by its index). Kept apart from the calls, which a sweep lets go.
   */
  callLines?: Int32Array;
  end: TraceEnd;
}

export type TraceRecord = TraceHeader | CallRecord | TraceEnd;
