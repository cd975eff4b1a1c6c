/**
 * A Codex CLI rollout → the session's model calls. Each `token_count` event whose running total moved is
 * one call, with `last_token_usage` as its usage (events that repeat the total, e.g. rate-limit updates,
 * are not calls). The call's tool calls are the `function_call` / `custom_tool_call` / `local_shell_call`
 * items the model produced in that response; their outputs (matched by `call_id`) give the result tokens
 * (counted with the model's tokenizer) and, for a non-zero exit code, the error. The model is the latest
 * `turn_context`'s. A call right before a `compacted` item is the compaction (summary) call.
 *
 * Which items are a response's depends on the order Codex wrote them, read per user turn (from its
 * `user_message` to the next, or the file's end) at the turn's first token_count whose total moved:
 * - Items first (Codex writes each item as it arrives, then the response's `token_count`, as in the
 *   rollouts of test/fixtures/codex and of Codex 0.135): model output came before that token_count. Each
 *   token_count closes the response of the model output items since the previous one. The call was sent
 *   when the line before its first output was written and ended with its token_count; output items left
 *   with no token_count after them (an interrupted turn, a cut file) are not counted.
 * - Count first (Codex 0.40: the `token_count` event is written when the response completes, its
 *   `reasoning` / `function_call` / `message` items and the tool outputs after it, with the same time):
 *   no model output came before that token_count. Each token_count opens the response whose items follow
 *   it, up to the next token_count or the turn's end. The call was sent when the last line other than an
 *   event (`turn_context`, the previous response's items) was written: the events between are its own
 *   streamed reasoning.
 * A turn whose first response wrote no output item at all before its token_count would read as count
 * first; Codex writes at least a reasoning or message item for every response it meters, but for the
 * compaction's summary response (compact.rs keeps its items in memory: only its token_count and the
 * `compacted` item are written), so a compaction that opens a turn leaves the order to the next call.
 * A `turn_aborted` (the user interrupted) ends the turn's run after its last call, as unknown with that
 * status (AgentCall.endStatus), whatever the call was.
 * A forked rollout (`codex fork`, a sub-agent spawned with its parent's context) opens with a copy of its
 * parent's lines: they set the model, the running total and the prompt, but their calls are the parent's
 * and are not metered (codex/forkCopy.ts). A response's `web_search_call` items are its call's web searches
 * (CallRecord.webSearchRequests); they and the service tier are said in notes (codex/billingNotes.ts).
 */
import type { SourceLine } from '../../io/readLines.js';
import type { ToolCallRecord } from '../../trace/types.js';
import type { AgentCall } from '../common/agentRuns.js';
import { isJsonObject, type JsonObject } from '../common/jsonValue.js';
import { countTokens } from '../tokenCount.js';
import { consumeLines, jsonLineConsumer, LineIssues, type LineConsumer } from '../common/jsonLines.js';
import { isModelOutput, readSpawnedBy, readTokenCount, readToolCall, readToolOutput, spawnedAgentId, type SpawnedBy, type TokenCount } from './rolloutLines.js';
import { counted } from '../../plural.js';
import { LogClock } from '../common/timestamp.js';
import { ForkCopy } from './forkCopy.js';
import { CodexBilling } from './billingNotes.js';

const CODEX_HINT = 'expected a Codex CLI rollout (~/.codex/sessions/**/rollout-*.jsonl) as Codex wrote it: copy it again or fix the line named';

export interface Rollout {
  sessionId?: string;
  /** A spawned sub-agent's rollout: the thread that spawned it (its session_meta's source). */
  spawnedBy?: SpawnedBy;
  calls: AgentCall[];
  notes: string[];
}

interface OpenCall {
  startedAtMs?: number;
  goalTokens?: number;
  toolCalls: ToolCallRecord[];
  /** web_search_call items of the response: billed per search (CallRecord.webSearchRequests). */
  webSearches?: number;
}

/** How a turn's token_counts pair with its response items (see the module comment). */
type TurnOrder = 'itemsFirst' | 'countFirst';

/** Count first: the response a token_count opened, gathering the items that follow it. */
interface Answering {
  open: OpenCall;
  count: TokenCount;
  atMs: number | undefined;
}

class RolloutReader {
  readonly calls: AgentCall[] = [];
  private readonly pending = new Map<string, { record: ToolCallRecord; model: string; atMs?: number }>();
  private open: OpenCall | undefined;
  /** The current turn's order, once its first metered token_count said it. */
  private order: TurnOrder | undefined;
  private answering: Answering | undefined;
  /** The index in `calls` of the current turn's first call. */
  private turnStart = 0;
  /** The current turn's `turn_aborted` status. */
  private aborted: string | undefined;
  /** When the last line other than an event (`event_msg`) was written. */
  private lastItemMs: number | undefined;
  private model: string | undefined;
  /** The line of the turn_context that named `model`. */
  private modelLine = 0;
  private previousMs: number | undefined;
  private lastTotal: string | undefined;
  private promptTokens: number | undefined;
  /** The last call closed, while nothing else has happened since (a `compacted` item then marks it). */
  private justClosed: AgentCall | undefined;
  sessionId: string | undefined;
  spawnedBy: SpawnedBy | undefined;
  readonly notes: string[] = [];
  readonly clock = new LogClock();
  noModel = 0;
  unmetered = 0;
  /** The history a forked rollout opens with (codex/forkCopy.ts). */
  readonly fork = new ForkCopy();
  readonly billing = new CodexBilling();

  constructor(private readonly issues: LineIssues) {}

  read(line: number, value: JsonObject): void {
    const at = typeof value.timestamp === 'string' ? this.clock.read(value.timestamp) : undefined;
    if (at === undefined) this.issues.add(line, 'timestamp', 'wrong_type', `expected an ISO 8601 time, got ${JSON.stringify(value.timestamp)}`);
    const payload = isJsonObject(value.payload) ? value.payload : {};
    if (this.fork.copied(line, value.type, payload, at)) this.readCopied(line, value.type, payload);
    else if (value.type === 'session_meta') this.readMeta(payload);
    else if (value.type === 'turn_context') this.readTurnContext(line, payload);
    else if (value.type === 'response_item') this.readItem(line, payload, at);
    else if (value.type === 'event_msg') this.readEvent(line, payload, at);
    else if (value.type === 'compacted') this.readCompacted(line);
    if (at !== undefined) this.previousMs = at;
    if (at !== undefined && value.type !== 'event_msg') this.lastItemMs = at;
  }

  private readTurnContext(line: number, payload: JsonObject): void {
    if (typeof payload.model === 'string') [this.model, this.modelLine] = [payload.model, line];
    this.billing.readSettings('turn_context', payload);
  }

  /** A line of the copied history a fork opens with: what it sets is read (model, running total, tier, prompt), no call is metered. */
  private readCopied(line: number, type: unknown, payload: JsonObject): void {
    if (type === 'turn_context') this.readTurnContext(line, payload);
    else if (type === 'event_msg' && payload.type === 'token_count') {
      const count = this.issues.readLine(line, (fields) => readTokenCount(fields, payload));
      if (count && count.totalKey !== this.lastTotal) this.fork.copiedCall(line);
      if (count) this.lastTotal = count.totalKey;
    } else if (type === 'event_msg' && (payload.type === 'user_message' || payload.type === 'thread_settings_applied')) this.readEvent(line, payload, undefined);
  }

  /** The first session_meta names the thread (a resumed rollout repeats it) and, for a spawned sub-agent, its parent. */
  private readMeta(payload: JsonObject): void {
    if (this.sessionId !== undefined) return;
    this.sessionId = typeof payload.id === 'string' ? payload.id : typeof payload.session_id === 'string' ? payload.session_id : undefined;
    this.spawnedBy = readSpawnedBy(payload);
  }

  private newCall(startedAtMs: number | undefined): OpenCall {
    const open = { toolCalls: [], ...(startedAtMs !== undefined ? { startedAtMs } : {}), ...(this.promptTokens !== undefined ? { goalTokens: this.promptTokens } : {}) };
    this.promptTokens = undefined;
    return open;
  }

  /** Items first: the response the model output items since the last call belong to. */
  private openCall(at: number | undefined): OpenCall {
    this.open ??= this.newCall(this.previousMs ?? at);
    return this.open;
  }

  private readItem(line: number, payload: JsonObject, at: number | undefined): void {
    if (isModelOutput(payload)) {
      this.justClosed = undefined;
      const open = this.answering?.open ?? this.openCall(at);
      if (payload.type === 'web_search_call') open.webSearches = (open.webSearches ?? 0) + 1;
      const tool = this.issues.readLine(line, (fields) => readToolCall(fields, payload));
      if (!tool) return;
      const record: ToolCallRecord = { name: tool.name, arguments: tool.arguments, resultTokens: 0, error: null, id: tool.callId };
      open.toolCalls.push(record);
      this.pending.set(tool.callId, { record, model: this.model ?? 'gpt-5', ...(at !== undefined ? { atMs: at } : {}) });
      return;
    }
    const output = readToolOutput(payload);
    if (output) {
      this.justClosed = undefined;
      const tool = this.pending.get(output.callId);
      if (!tool) return;
      this.pending.delete(output.callId);
      tool.record.resultTokens = countTokens(output.text, tool.model);
      tool.record.error = output.error;
      const started = tool.record.name === 'spawn_agent' ? spawnedAgentId(output.text) : undefined;
      if (started !== undefined) tool.record.startedAgentId = started;
      if (at !== undefined && tool.atMs !== undefined) tool.record.latencyMs = Math.max(0, at - tool.atMs);
    }
  }

  private readEvent(line: number, payload: JsonObject, at: number | undefined): void {
    if (payload.type === 'token_count') {
      const count = this.issues.readLine(line, (fields) => readTokenCount(fields, payload));
      if (count && count.totalKey !== this.lastTotal) this.meter(count, at);
      if (count) this.lastTotal = count.totalKey;
    } else if (payload.type === 'user_message' && typeof payload.message === 'string' && (payload.kind === undefined || payload.kind === 'plain')) {
      this.endTurn();
      this.justClosed = undefined;
      this.promptTokens = countTokens(payload.message, this.model ?? 'gpt-5');
    } else if (payload.type === 'turn_aborted') {
      this.aborted = `turn_aborted${typeof payload.reason === 'string' ? `: ${payload.reason}` : ''}`;
    } else if (payload.type === 'thread_settings_applied') this.billing.readSettings('event_msg', payload);
  }

  /** A token_count whose total moved: it closes the response before it, or opens the one after it. */
  private meter(count: TokenCount, at: number | undefined): void {
    this.fork.ownCall();
    this.order ??= this.open ? 'itemsFirst' : 'countFirst';
    if (this.order === 'itemsFirst') {
      const open = this.openCall(at);
      this.open = undefined;
      this.closeCall(open, count, at);
      return;
    }
    this.closeAnswering();
    this.answering = { open: this.newCall(this.lastItemMs ?? at), count, atMs: at };
  }

  private closeAnswering(): void {
    const answering = this.answering;
    this.answering = undefined;
    if (answering) this.closeCall(answering.open, answering.count, answering.atMs);
  }

  /** A user turn ends (the next user message, the file's end): its last response closes, an aborted turn's last call ends its run. */
  private endTurn(): void {
    this.closeAnswering();
    this.dropOpen();
    const last = this.calls[this.calls.length - 1];
    if (this.aborted !== undefined && last && this.calls.length > this.turnStart) last.endStatus = this.aborted;
    [this.order, this.aborted, this.turnStart] = [undefined, undefined, this.calls.length];
  }

  /** A response that got no token count (an interrupted turn) is not a call we can meter. */
  private dropOpen(): void {
    if (this.open) this.unmetered += 1;
    this.open = undefined;
  }

  private closeCall(open: OpenCall, count: TokenCount, at: number | undefined): void {
    if (this.model === undefined) {
      this.noModel += 1;
      return;
    }
    const { input, cached, output, reasoning } = count.last;
    const call: AgentCall = { record: { type: 'call', inputTokens: input, outputTokens: output }, model: this.model, modelLine: this.modelLine };
    if (cached > 0) call.record.cachedInputTokens = cached;
    if (reasoning > 0) call.record.reasoningTokens = reasoning;
    if (open.startedAtMs !== undefined && at !== undefined) call.record.latencyMs = Math.max(0, at - open.startedAtMs);
    if (open.toolCalls.length > 0) call.record.toolCalls = open.toolCalls;
    if (open.webSearches !== undefined) {
      call.record.webSearchRequests = open.webSearches;
      this.billing.webSearch(this.model, open.webSearches);
    }
    if (open.startedAtMs !== undefined) call.startedAtMs = open.startedAtMs;
    if (open.goalTokens !== undefined) call.goalTokens = open.goalTokens;
    this.calls.push(call);
    this.billing.call();
    this.justClosed = call;
  }

  private readCompacted(line: number): void {
    this.closeAnswering();
    const call = this.justClosed;
    if (call && (call.record.toolCalls?.length ?? 0) === 0) {
      call.record.compaction = true;
      // The summary response writes no item in either order: a turn whose first call it was has not said its order yet.
      if (this.calls.length - 1 === this.turnStart) this.order = undefined;
    } else this.notes.push(`the compaction at line ${line} has no model call of its own in the rollout (remote compaction is not metered there): not counted`);
    this.justClosed = undefined;
  }

  finish(): void {
    this.endTurn();
    if (this.unmetered > 0) {
      const n = this.unmetered;
      this.notes.push(`${counted(n, 'response')} without a token_count (an interrupted turn, or a cut file): not counted`);
    }
    if (this.noModel > 0) this.notes.push(`${counted(this.noModel, 'token count')} before any turn_context names a model: not counted`);
    const copied = this.fork.note();
    if (copied !== undefined) this.notes.push(copied);
    this.notes.push(...this.billing.notes());
  }
}

/** Reads a rollout line by line; `finish` throws every invalid line together (UserError). */
export function rolloutReader(path: string): LineConsumer<Rollout> {
  const issues = new LineIssues(path, CODEX_HINT);
  const reader = new RolloutReader(issues);
  return jsonLineConsumer(
    issues,
    (line, value) => reader.read(line, value),
    (cutLine) => rolloutOf(reader, cutLine),
  );
}

export function readRollout(lines: Iterable<SourceLine>, path: string): Rollout {
  return consumeLines(lines, rolloutReader(path));
}

function rolloutOf(reader: RolloutReader, cutLine: number | undefined): Rollout {
  reader.finish();
  const notes = [...reader.clock.notes(), ...reader.notes];
  if (cutLine !== undefined) notes.unshift(`line ${cutLine} is cut (not JSON): skipped, as a rollout still being written ends`);
  const reasoning = reader.calls.filter((call) => (call.record.reasoningTokens ?? 0) > 0).length;
  if (reasoning > 0) notes.push(`${counted(reasoning, 'call')} spent reasoning tokens (reasoning_output_tokens, part of output_tokens)`);
  const rollout: Rollout = { calls: reader.calls, notes };
  if (reader.sessionId !== undefined) rollout.sessionId = reader.sessionId;
  if (reader.spawnedBy !== undefined) rollout.spawnedBy = reader.spawnedBy;
  return rollout;
}
