/**
 * A trace-driven model: answers each call with the trace's next recorded response (its tool calls,
 * usage and marks), fails where the trace recorded a failed call (refuses where it recorded a refusal of
 * a prompt past the window; gives up after its last failed call where the recorded model gave up), and
 * answers each tool call with the result recorded at the call's place in its response (its size, error
 * and latency; ToolContext.callIndex, as a response may name one id twice), whatever the call's name and
 * arguments (fromRecording: a call of a tool the recorded run lacked, or with arguments it refused, is
 * answered with the refusal recorded). Time moves on a virtual clock by the recorded latencies. A recording
 * whose run its AbortSignal stopped (kernel/gaveUp.ts runAborted) is stopped so too: `signal`, given to the
 * run, fires where the recorded one fired (abortPoint). A tool call a deadline cut (deadline.ts: the last one a run
 * not aborted reached of a call it stopped inside) says so again (`cutOff`): the loop reaches none after it. Driving runAgentLoop with it (and its signal, and its
 * cacheWrites: what the loop that made the run would have said, as the replay's cache mode leaves it; and its
 * reasoningInPrompt: whether the run's reasoning entered its later prompts, as its header says) must give
 * what replayTrace gives for the same trace and settings (the parity test), an abort being, replayed, the
 * recording's end (trace_end, with the run's detail). A summary call, the strategy's and no recorded one, is
 * answered with its S tokens, or refused as replay's simulated provider refuses it (kernel/providerWindow.ts): its
 * prompt (the loop's estimate, ModelRequest `promptEstimateTokens`) + S past `summaryWindowTokens`.
 */
import type { CacheMode } from '../context/strategy.js';
import { cacheWritesOf } from '../kernel/cacheWrites.js';
import { boundWrites } from '../kernel/meter.js';
import { cacheModeCode } from '../loop/meter.js';
import { cacheWritesOption } from './cacheWrites.js';
import { reasoningReentersOf } from '../kernel/stepTokens.js';
import { recordedEndDetail } from '../trace/endDetail.js';
import { canonicalJson } from '../brakes/fingerprint.js';
import { refusalMessage, refusalOfRecorded } from '../loop/refusalWords.js';
import { windowRefusal } from '../kernel/providerWindow.js';
import { reachedToolCalls, runsTools } from '../trace/toolsRun.js';
import { cutShort } from '../trace/rules.js';
import type { ToolRun } from './tools.js';
import { exhaustedStop, modelGaveUp, runAborted } from '../kernel/gaveUp.js';
import { callsLeft, endsAtSummary } from '../kernel/summaryBeforeCall.js';
import type { CallRecord, FailedCall, ToolCallRecord, Trace } from '../trace/types.js';
import type { VirtualClock } from './clock.js';
import { ModelCallError, ModelExhausted, type AgentCacheWrites, type AgentContextOptions, type AgentLoopOptions, type AgentTool, type Model, type ModelRequest, type ModelTurn, type ModelUsage } from './types.js';

/**
 * A trace-driven run: the options runAgentLoop takes from it, to spread into its own
 * (`runAgentLoop({ ...traceModel(trace, clock), brakes, pricing, clock })`), and `calls`, which is not one:
 * it is not enumerable, so a spread (or Object.keys) leaves it out.
 */
export interface TraceDriven extends TraceDrivenOptions {
  /** Calls answered so far (not enumerable: no option of runAgentLoop's). */
  readonly calls: number;
}

/** What of a trace-driven run runAgentLoop takes as options: a spread of traceModel's result gives these, and only these. */
export interface TraceDrivenOptions extends Required<Pick<AgentLoopOptions, 'model' | 'tools' | 'context' | 'signal' | 'cacheWrites' | 'reasoningInPrompt'>> {
  model: Model;
  tools: AgentTool[];
  context: AgentContextOptions;
  /** The run's AbortSignal (runAgentLoop's `signal`): fired where the recorded run's fired, never for a recording of a run not aborted. */
  signal: AbortSignal;
  /**
   * runAgentLoop's `cacheWrites`: how long the recorded run's writes last (kernel/cacheWrites.ts: five minutes for
   * a synthetic run, else they may last an hour), as the replay's cache mode leaves them (meter.ts boundWrites).
   */
  cacheWrites: AgentCacheWrites;
  /** runAgentLoop's `reasoningInPrompt`: whether the recorded run's reasoning entered its later prompts, as its header says (kernel/stepTokens.ts reasoningReentersOf: unset, it did). */
  reasoningInPrompt: boolean;
}

/** Where a trace-driven run is: the next recorded call, and the tool calls of the response last answered. */
interface Answering {
  next: number;
  /** The tool calls of the response last answered, with the ids it gave them: each is answered by its place (a response may name one id twice). */
  answered: { index: number; records: readonly ToolCallRecord[]; ids: readonly string[] };
  /** Fires the run's signal if call `index` (its tool call `tool`; -1: the call itself) is where the recorded run's fired. */
  abortIfAt(index: number, tool: number): void;
}

/** What a trace-driven run is held to, beyond its trace: the replay's settings it cannot read from the trace. */
export interface TraceModelOptions {
  /** The cache mode of the replay the run is held to (default `recorded`: the real loop bills the usage its provider reports). */
  cache?: CacheMode;
  /**
   * The context window of the model summary calls go to (the strategy's model X's, else the run's: its pricing's
   * `contextWindow`): a summary request whose prompt estimate + max tokens passes it is refused (400
   * `context_length_exceeded`), as replay's simulated provider refuses it. Absent: no summary request is refused.
   */
  summaryWindowTokens?: number;
}

export function traceModel(trace: Trace, clock: VirtualClock, { cache = 'recorded', summaryWindowTokens }: TraceModelOptions = {}): TraceDriven {
  const controller = new AbortController();
  const abortAt = abortPoint(trace);
  if (abortAt?.call === -1) controller.abort();
  const state: Answering = {
    next: 0,
    answered: { index: -1, records: [], ids: [] },
    abortIfAt: (index, tool) => {
      if (abortAt?.call === index && abortAt.tool === tool) controller.abort();
    },
  };
  const cacheWrites = cacheWritesOption(boundWrites(cacheWritesOf(trace), cacheModeCode(cache)));
  const reasoningInPrompt = reasoningReentersOf(trace);
  const options: TraceDrivenOptions = { model: recordedModel(trace, clock, { state, summaryWindowTokens }), tools: recordedTools(trace, clock, state), context: recordedContext(trace), signal: controller.signal, cacheWrites, reasoningInPrompt };
  // `calls` is no option: not enumerable, so a spread into runAgentLoop's options does not copy it (its options refuse unknown keys).
  return Object.defineProperty(options, 'calls', { get: () => state.next, enumerable: false }) as TraceDriven;
}

/** The model: each call answered with the trace's next recorded response, or its recorded failure; a summary call with S tokens, or refused past `summaryWindowTokens`. */
function recordedModel(trace: Trace, clock: VirtualClock, { state, summaryWindowTokens }: { state: Answering; summaryWindowTokens: number | undefined }): Model {
  // The recorded model gave up after its last (failed) call: that failure ends the run as it ended the recorded one.
  const gaveUpAt = modelGaveUp(trace) ? trace.calls.length - 1 : -1;
  return {
    name: trace.header.model,
    ...(trace.header.provider === undefined ? {} : { provider: trace.header.provider }),
    async call(request) {
      const ended = () => new ModelExhausted(exhaustedStop(trace.end), recordedEndDetail(trace.end));
      if (request.purpose === 'summary') {
        // Past the last recorded call, a request past the end: the run made no call for it to come before (kernel/summaryBeforeCall.ts).
        if (endsAtSummary(callsLeft(trace.calls.length, state.next))) throw ended();
        const refused = summaryRefused(request, summaryWindowTokens);
        if (refused) throw refused;
        // A summary call is the strategy's, not the trace's: answered with S tokens, taking no recorded call.
        return { text: '(summary)', toolCalls: [], usage: { outputTokens: request.maxOutputTokens } };
      }
      const record = trace.calls[state.next];
      if (record === undefined) throw ended();
      const index = state.next++;
      clock.advance(record.latencyMs ?? 0);
      state.abortIfAt(index, -1);
      if (record.failed) throw recordedFailure(record, record.failed, { endsRun: index === gaveUpAt ? recordedEndDetail(trace.end) : undefined });
      const turn = turnOf(record, index);
      state.answered = { index, records: record.toolCalls ?? [], ids: turn.toolCalls.map((call) => call.id) };
      return turn;
    },
  };
}

/**
 * A summary request refused as a provider refuses a prompt past the window (in replay's simulated provider's
 * numbers, kernel/providerWindow.ts windowRefusal: the loop's prompt estimate, S, the window); undefined when answered.
 */
function summaryRefused(request: ModelRequest, windowTokens: number | undefined): ModelCallError | undefined {
  if (request.promptEstimateTokens === undefined) return undefined;
  const refusal = windowRefusal(windowTokens, request.promptEstimateTokens, request.maxOutputTokens);
  return refusal && new ModelCallError(refusalMessage(refusal), { status: 400, retryable: false, refusal });
}

/** The error a recorded failed call is answered with (`failed`: its failure; `endsRun`: the detail of the run it ended, where the recorded model gave up). */
function recordedFailure(record: CallRecord, failed: FailedCall, given: { endsRun: string | undefined }): ModelCallError {
  const recorded = failed.contextLengthExceeded;
  const refusal = recorded === undefined ? undefined : refusalOfRecorded(recorded);
  const endsRun = given.endsRun === undefined ? {} : { endsRun: given.endsRun };
  // A failed compaction (summary) call stays one: no step, as the loop that made it counted it.
  const compaction = record.compaction === true ? { compaction: true } : {};
  const status = failed.status === undefined ? {} : { status: failed.status };
  return new ModelCallError(failed.message, { ...status, retryable: refusal === undefined, usage: usageOf(record), ...(refusal ? { refusal } : {}), ...endsRun, ...compaction });
}

/** A tool for each name the trace's calls use, each answered with the result recorded at the call's place. */
function recordedTools(trace: Trace, clock: VirtualClock, state: Answering): AgentTool[] {
  const names = new Set(trace.calls.flatMap((call) => (call.toolCalls ?? []).map((tool) => tool.name)));
  const cutAt = runAborted(trace) ? new Map<number, number>() : new Map(trace.calls.flatMap((call, index) => (cutShort(call) ? [[index, reachedToolCalls(call) - 1] as const] : [])));
  return [...names].map((name) => ({
    name,
    description: `${name}, answered from the trace`,
    parameters: { type: 'object' },
    // Named and called as recorded, whatever the name and arguments (a tool the run lacked, arguments that were no JSON object): the result is the recorded one.
    fromRecording: true,
    run(_args, { callId, callIndex }) {
      const { answered } = state;
      const recorded = callIndex === undefined || answered.ids[callIndex] !== callId ? undefined : answered.records[callIndex];
      if (recorded === undefined) throw new Error(`tool call ${callId} (#${callIndex}) is none of the last response's`);
      clock.advance(recorded.latencyMs ?? 0);
      state.abortIfAt(answered.index, callIndex!);
      const result: ToolRun = { output: `(${recorded.resultTokens} tokens of ${name}'s recorded result)`, tokens: recorded.resultTokens, ...(recorded.error ? { error: recorded.error } : {}) };
      // The last tool call a run not aborted reached of a call it stopped inside: its deadline cut it there (deadline.ts).
      if (cutAt.has(answered.index) && callIndex === cutAt.get(answered.index)) result.cutOff = true;
      return result;
    },
  }));
}

/** The context: the recorded prompt sizes (a trace-driven run knows every token count). */
function recordedContext(trace: Trace): AgentContextOptions {
  return {
    system: '(recorded system prompt)',
    goal: trace.header.task ?? '(recorded goal)',
    systemTokens: trace.header.systemTokens,
    goalTokens: trace.header.goalTokens,
    countTokens: () => {
      throw new Error('a trace-driven run knows every token count');
    },
  };
}

/**
 * Where the recorded run's AbortSignal fired (undefined: it was not aborted), as the real loop (loop.ts)
 * meets it: `call` -1 before the first call (no call recorded); else its last call — during its last tool call
 * the run reached (`tool`: it ran, and the loop found the signal fired after it: the ones after it recorded
 * `unreached`), or, when it reached none (`tool` -1), while the call was made (a failed call, one whose tool
 * calls were all unreached or run none (trace/toolsRun.ts runsTools), the wait before a retry: the loop finds it
 * fired once the call is over).
 */
function abortPoint(trace: Trace): { call: number; tool: number } | undefined {
  if (!runAborted(trace)) return undefined;
  const last = trace.calls.length - 1;
  const record = trace.calls[last];
  return { call: last, tool: record === undefined || !runsTools(record) ? -1 : reachedToolCalls(record) - 1 };
}

function usageOf(record: CallRecord): ModelUsage {
  return {
    ...(record.inputTokens === undefined ? {} : { inputTokens: record.inputTokens }),
    ...(record.cachedInputTokens === undefined ? {} : { cachedInputTokens: record.cachedInputTokens }),
    ...(record.cacheWriteTokens === undefined ? {} : { cacheWriteTokens: record.cacheWriteTokens }),
    ...(record.cacheWrite1hTokens === undefined ? {} : { cacheWrite1hTokens: record.cacheWrite1hTokens }),
    outputTokens: record.outputTokens,
    ...(record.reasoningTokens === undefined ? {} : { reasoningTokens: record.reasoningTokens }),
    ...(record.webSearchRequests === undefined ? {} : { webSearchRequests: record.webSearchRequests }),
  };
}

function turnOf(record: CallRecord, index: number): ModelTurn {
  const toolCalls = (record.toolCalls ?? []).map((tool, j) => {
    const id = tool.id ?? `call_${index}_${j}`;
    return { id, name: tool.name, arguments: typeof tool.arguments === 'string' ? tool.arguments : canonicalJson(tool.arguments) };
  });
  const marks = {
    ...(record.final ? { final: true } : {}),
    ...(record.backtrack ? { backtrack: true } : {}),
    ...(record.compaction ? { compaction: true } : {}),
    ...(record.unparseable ? { unparseable: true } : {}),
  };
  return { text: null, toolCalls, usage: usageOf(record), ...(Object.keys(marks).length > 0 ? { marks } : {}) };
}
