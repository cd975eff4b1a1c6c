/**
 * A Codex CLI rollout → the session's model calls. Each `token_count` event whose running total moved is
 * one call, with `last_token_usage` as its usage (events that repeat the total, e.g. rate-limit updates,
 * are not calls). The call's tool calls are the `function_call` / `custom_tool_call` / `local_shell_call`
 * items the model produced since the previous call; their outputs (matched by `call_id`) give the result
 * tokens (counted with the model's tokenizer) and, for a non-zero exit code, the error. The model is the
 * latest `turn_context`'s; the call was sent when the line before its first output was written and ended
 * with its `token_count`. A call right before a `compacted` item is the compaction (summary) call.
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

const CODEX_HINT = 'expected a Codex CLI rollout (~/.codex/sessions/**/rollout-*.jsonl) as Codex wrote it: copy it again or fix the line named';

export interface Rollout {
  sessionId?: string;
  /** A spawned sub-agent's rollout: the thread that spawned it (its session_meta's source). */
  spawnedBy?: SpawnedBy;
  calls: AgentCall[];
  notes: string[];
  /** How the session ended when the rollout says (`turn_aborted: interrupted`). */
  finalStatus?: string;
}

interface OpenCall {
  startedAtMs?: number;
  goalTokens?: number;
  toolCalls: ToolCallRecord[];
}

class RolloutReader {
  readonly calls: AgentCall[] = [];
  private readonly pending = new Map<string, { record: ToolCallRecord; model: string; atMs?: number }>();
  private open: OpenCall | undefined;
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
  finalStatus: string | undefined;
  readonly notes: string[] = [];
  readonly clock = new LogClock();
  noModel = 0;
  serverTools = 0;
  unmetered = 0;

  constructor(private readonly issues: LineIssues) {}

  read(line: number, value: JsonObject): void {
    const at = typeof value.timestamp === 'string' ? this.clock.read(value.timestamp) : undefined;
    if (at === undefined) this.issues.add(line, 'timestamp', 'wrong_type', `expected an ISO 8601 time, got ${JSON.stringify(value.timestamp)}`);
    const payload = isJsonObject(value.payload) ? value.payload : {};
    if (value.type === 'session_meta') this.readMeta(payload);
    else if (value.type === 'turn_context' && typeof payload.model === 'string') [this.model, this.modelLine] = [payload.model, line];
    else if (value.type === 'response_item') this.readItem(line, payload, at);
    else if (value.type === 'event_msg') this.readEvent(line, payload, at);
    else if (value.type === 'compacted') this.readCompacted(line);
    if (at !== undefined) this.previousMs = at;
  }

  /** The first session_meta names the thread (a resumed rollout repeats it) and, for a spawned sub-agent, its parent. */
  private readMeta(payload: JsonObject): void {
    if (this.sessionId !== undefined) return;
    this.sessionId = typeof payload.id === 'string' ? payload.id : typeof payload.session_id === 'string' ? payload.session_id : undefined;
    this.spawnedBy = readSpawnedBy(payload);
  }

  private openCall(at: number | undefined): OpenCall {
    if (!this.open) {
      const startedAtMs = this.previousMs ?? at;
      this.open = { toolCalls: [], ...(startedAtMs !== undefined ? { startedAtMs } : {}), ...(this.promptTokens !== undefined ? { goalTokens: this.promptTokens } : {}) };
      this.promptTokens = undefined;
    }
    return this.open;
  }

  private readItem(line: number, payload: JsonObject, at: number | undefined): void {
    if (isModelOutput(payload)) {
      this.justClosed = undefined;
      const open = this.openCall(at);
      if (payload.type === 'web_search_call') this.serverTools += 1;
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
      if (count && count.totalKey !== this.lastTotal) this.closeCall(count, at);
      if (count) this.lastTotal = count.totalKey;
    } else if (payload.type === 'user_message' && typeof payload.message === 'string' && (payload.kind === undefined || payload.kind === 'plain')) {
      this.justClosed = undefined;
      this.dropOpen();
      this.promptTokens = countTokens(payload.message, this.model ?? 'gpt-5');
    } else if (payload.type === 'turn_aborted') {
      this.finalStatus = `turn_aborted${typeof payload.reason === 'string' ? `: ${payload.reason}` : ''}`;
    }
  }

  /** A response that got no token count (an interrupted turn) is not a call we can meter. */
  private dropOpen(): void {
    if (this.open) this.unmetered += 1;
    this.open = undefined;
  }

  private closeCall(count: TokenCount, at: number | undefined): void {
    const open = this.openCall(at);
    this.open = undefined;
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
    if (open.startedAtMs !== undefined) call.startedAtMs = open.startedAtMs;
    if (open.goalTokens !== undefined) call.goalTokens = open.goalTokens;
    this.calls.push(call);
    this.justClosed = call;
  }

  private readCompacted(line: number): void {
    const call = this.justClosed;
    if (call && (call.record.toolCalls?.length ?? 0) === 0) call.record.compaction = true;
    else this.notes.push(`the compaction at line ${line} has no model call of its own in the rollout (remote compaction is not metered there): not counted`);
    this.justClosed = undefined;
  }

  finish(): void {
    this.dropOpen();
    if (this.unmetered > 0) {
      const n = this.unmetered;
      this.notes.push(`${counted(n, 'response')} without a token_count (an interrupted turn, or a cut file): not counted`);
    }
    if (this.noModel > 0) this.notes.push(`${counted(this.noModel, 'token count')} before any turn_context names a model: not counted`);
    if (this.serverTools > 0) this.notes.push(`${counted(this.serverTools, 'web search', 'web searches')} ran on the server inside their calls: not tool calls of the loop`);
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
  if (reader.finalStatus !== undefined) rollout.finalStatus = reader.finalStatus;
  return rollout;
}
