/**
 * One Claude Code transcript file (a session, a sub-agent or a compaction) → the model calls of its
 * agent, in the order they were made, with what links it to other agents (draftCall.ts: a call's lines → its record).
 *
 * A streamed response is written as several assistant lines (one per content block) that repeat
 * `message.id`, `requestId` and the usage: one (id, requestId) is one call, with the usage of its LAST
 * line (output tokens grow while streaming). Prompt = input + cache writes (5 min / 1 h) + cache reads.
 * Tool calls come from the `tool_use` blocks, their results (and `is_error`) from the `tool_result`
 * blocks of later user lines, counted with the Claude tokenizer. A call is sent when the line before its
 * first line was written (a sub-agent's progress line or a queued prompt does not count) and ends with its
 * last line: that span is its latency. API failures are calls
 * too: each `api_error` system line is an attempt that failed and was retried, a `<synthetic>` API-error
 * line the attempt that failed for good.
 */
import { basename } from 'node:path';
import type { SourceLine } from '../../io/readLines.js';
import type { ToolCallRecord } from '../../trace/types.js';
import type { AgentCall } from '../common/agentRuns.js';
import { shortText } from '../common/text.js';
import { countTokens } from '../tokenCount.js';
import { LogClock } from '../common/timestamp.js';
import { counted } from '../../plural.js';
import { consumeLines, jsonLineConsumer, LineIssues, type LineConsumer } from '../common/jsonLines.js';
import {
  apiErrorFailure,
  asksForBackground,
  isSyntheticLine,
  progressLink,
  promptText,
  readAssistantLine,
  syntheticFailure,
  taskResult,
  toolResults,
  unreadResponseType,
  type ApiFailure,
  type UnreadLines,
} from './lineFields.js';
import { unreadLinesNote } from './missingTranscript.js';
import { agentCalls, fillFailedModels, modelMismatch, sameResponse, type DraftCall } from './draftCall.js';

/** The prompt of a warm-up agent (anthropics/claude-code#17457: `agent-*.jsonl` files, `isSidechain`, no Task call). */
const WARMUP_PROMPT = 'Warmup';

const CLAUDE_CODE_HINT =
  'expected a Claude Code transcript (~/.claude/projects/<project>/<session>.jsonl) as Claude Code wrote it: copy it again or fix the line named';

/** A tool call waiting for its result. */
interface PendingTool {
  record: ToolCallRecord;
  model: string;
  atMs?: number;
}


/** A sub-agent started by a tool call of this transcript's agent. */
export interface SubagentLink {
  toolUseId: string;
  line: number;
  /** Output tokens of the sub-agent's final response, as its Task result reports them. */
  finalOutputTokens?: number;
  /** It ran in the background: its Task result says `async_launched`, or (no result saying) the call asked `run_in_background`. */
  background?: boolean;
}

export interface Transcript {
  path: string;
  sessionId?: string;
  /** `agentId` its lines carry: set in sub-agent and compaction transcripts, absent in a session's own. */
  agentId?: string;
  calls: AgentCall[];
  /** Calls of `isSidechain` lines in a session's own transcript (older Claude Code wrote sub-agents there). */
  sidechainCalls: AgentCall[];
  /** Sub-agent id → the tool call that started it (progress lines, Task results). */
  links: Map<string, SubagentLink>;
  /** Its first prompt is `Warmup`: a warm-up agent, which Claude Code starts to fill the prompt cache, with no Task call. */
  warmup?: true;
  notes: string[];
  /** Its lines of no known type that carry a response's usage (not read: noted), when it has some. */
  unread?: UnreadLines;
}

function timestampOf(issues: LineIssues, clock: LogClock, line: number, raw: unknown): number | undefined {
  if (raw === undefined || raw === null) return undefined;
  const ms = typeof raw === 'string' ? clock.read(raw) : undefined;
  if (ms === undefined) issues.add(line, 'timestamp', 'wrong_type', `expected an ISO 8601 time, got ${JSON.stringify(raw)}`);
  return ms;
}

/** 1 for a sidechain line, 0 for the main chain's. */
function chainOf(value: Record<string, unknown>): number {
  return value.isSidechain === true ? 1 : 0;
}

class TranscriptReader {
  readonly drafts: DraftCall[] = [];
  private readonly byKey = new Map<string, DraftCall>();
  private readonly pending = new Map<string, PendingTool>();
  readonly links = new Map<string, SubagentLink>();
  /** Tool calls whose arguments asked for a background sub-agent (`run_in_background: true`). */
  readonly backgroundAsked = new Set<string>();
  readonly clock = new LogClock();
  private previousMs: number | undefined;
  private promptTokens: number | undefined;
  private lastModel: string | undefined;
  sessionId: string | undefined;
  agentId: string | undefined;
  skippedSynthetic = 0;
  orphanResults = 0;
  /** User prompts so far, of the main chain and of sidechain lines (older Claude Code wrote a sub-agent's inside a main response's). */
  private readonly turns = [0, 0];
  /** Responses whose (message.id, requestId) an earlier, different response already had (a sanitised log): how many, and the first such id. */
  reusedIds = 0;
  reusedId: string | undefined;
  firstPrompt: string | undefined;
  unread: UnreadLines | undefined;

  constructor(private readonly issues: LineIssues) {}

  read(line: number, value: Record<string, unknown>): void {
    const atMs = timestampOf(this.issues, this.clock, line, value.timestamp);
    if (this.sessionId === undefined && typeof value.sessionId === 'string') this.sessionId = value.sessionId;
    if (this.agentId === undefined && typeof value.agentId === 'string' && value.agentId !== '') this.agentId = value.agentId;
    const link = progressLink(value);
    if (link && !this.links.has(link.agentId)) this.links.set(link.agentId, { toolUseId: link.toolUseId, line });
    if (value.type === 'assistant') this.readAssistant(line, value, atMs);
    else if (value.type === 'user') this.readUser(line, value, atMs);
    else if (value.type === 'system') {
      const failure = apiErrorFailure(value);
      if (failure) this.addFailure(line, value, failure, atMs);
    } else this.noteUnread(line, value);
    // Another agent's progress and a queued prompt say nothing about when this agent sent its next request.
    if (atMs !== undefined && !link && value.type !== 'queue-operation') this.previousMs = atMs;
  }

  private noteUnread(line: number, value: Record<string, unknown>): void {
    const type = unreadResponseType(value);
    if (type === undefined) return;
    this.unread ??= { count: 0, line, type };
    this.unread.count += 1;
  }

  private turnOf(value: Record<string, unknown>): number {
    return this.turns[chainOf(value)]!;
  }

  private newDraft(line: number, value: Record<string, unknown>, atMs: number | undefined): DraftCall {
    const draft: DraftCall = { line, sidechain: value.isSidechain === true && value.agentId === undefined, toolCalls: [], visibleTokens: 0, thinking: false, turn: this.turnOf(value) };
    const startedAtMs = this.previousMs ?? atMs;
    if (startedAtMs !== undefined) draft.startedAtMs = startedAtMs;
    if (this.promptTokens !== undefined) draft.goalTokens = this.promptTokens;
    this.promptTokens = undefined;
    this.drafts.push(draft);
    return draft;
  }

  private addFailure(line: number, value: Record<string, unknown>, failure: ApiFailure, atMs: number | undefined): void {
    const draft = this.newDraft(line, value, atMs);
    draft.failed = failure;
    if (atMs !== undefined) draft.endedAtMs = atMs;
  }

  private readAssistant(line: number, value: Record<string, unknown>, atMs: number | undefined): void {
    if (isSyntheticLine(value)) {
      const failure = syntheticFailure(value);
      if (failure) this.addFailure(line, value, failure, atMs);
      else this.skippedSynthetic += 1;
      return;
    }
    const response = this.issues.readLine(line, (fields) => readAssistantLine(fields, value));
    if (!response) return;
    let draft = this.byKey.get(response.key);
    if (draft && !sameResponse(draft, response, this.turnOf(value))) {
      this.reusedIds += 1;
      this.reusedId ??= response.key;
      draft = undefined;
    }
    const otherModel = draft && modelMismatch(draft, response.model);
    if (otherModel) return this.issues.add(line, 'message.model', 'inconsistent_model', otherModel);
    if (!draft) {
      draft = this.newDraft(line, value, atMs);
      this.byKey.set(response.key, draft);
    }
    draft.model = response.model;
    draft.modelLine ??= line;
    this.lastModel = response.model;
    draft.usage = response.usage; // the last line's usage is the final one
    if (atMs !== undefined) draft.endedAtMs = Math.max(draft.endedAtMs ?? atMs, atMs);
    if (response.stopReason !== undefined) draft.stopReason = response.stopReason;
    if (response.thinking) draft.thinking = true;
    if (response.visibleText !== '') draft.visibleTokens += countTokens(response.visibleText, response.model);
    for (const use of response.toolUses) {
      if (this.pending.has(use.id)) continue;
      const record: ToolCallRecord = { name: use.name, arguments: use.input, resultTokens: 0, error: null, id: use.id };
      draft.toolCalls.push(record);
      if (asksForBackground(use.input)) this.backgroundAsked.add(use.id);
      this.pending.set(use.id, { record, model: response.model, ...(atMs !== undefined ? { atMs } : {}) });
    }
  }

  private readUser(line: number, value: Record<string, unknown>, atMs: number | undefined): void {
    const results = toolResults(value);
    for (const result of results) {
      const tool = this.pending.get(result.toolUseId);
      if (!tool) {
        this.orphanResults += 1;
        continue;
      }
      this.pending.delete(result.toolUseId);
      tool.record.resultTokens = countTokens(result.text, tool.model);
      tool.record.error = result.isError ? shortText(result.text) || 'error' : null;
      if (atMs !== undefined && tool.atMs !== undefined) tool.record.latencyMs = Math.max(0, atMs - tool.atMs);
      const task = taskResult(value);
      if (task) {
        const link = this.links.get(task.agentId) ?? { toolUseId: result.toolUseId, line };
        if (task.finalOutputTokens !== undefined) link.finalOutputTokens = task.finalOutputTokens;
        if (task.background !== undefined) link.background = task.background;
        this.links.set(task.agentId, link);
      }
    }
    if (results.length > 0) return;
    const text = promptText(value);
    if (text === undefined) return;
    this.promptTokens = countTokens(text, this.lastModel ?? 'claude');
    this.firstPrompt ??= text;
    this.turns[chainOf(value)]! += 1;
  }
}

function transcriptNotes(reader: TranscriptReader, cutLine: number | undefined): string[] {
  const notes: string[] = reader.clock.notes();
  if (cutLine !== undefined) notes.push(`line ${cutLine} is cut (not JSON): skipped, as a transcript still being written ends`);
  const real = reader.drafts.filter((draft) => !draft.failed);
  const under = real.filter((draft) => draft.usage !== undefined && draft.usage.output < draft.visibleTokens);
  if (under.length > 0) {
    const missing = under.reduce((sum, draft) => sum + draft.visibleTokens - draft.usage!.output, 0);
    notes.push(
      `${under.length} of ${real.length} calls record fewer output tokens than their visible content holds (${missing} tokens by the public Claude tokenizer): Claude Code logged their usage before the stream ended, so their output and its cost are lower bounds`,
    );
  }
  const thinking = real.filter((draft) => draft.thinking && draft.usage?.thinking === undefined).length;
  if (thinking > 0) notes.push(`${thinking} calls hold thinking blocks: their thinking tokens are inside output_tokens (Anthropic records no separate count)`);
  const failed = reader.drafts.length - real.length;
  if (failed > 0) notes.push(`${failed} API calls failed (api_error lines and <synthetic> API-error messages): recorded as failed calls with zero usage`);
  if (reader.skippedSynthetic > 0) notes.push(`${reader.skippedSynthetic} <synthetic> assistant lines are not model calls (Claude Code wrote them itself): skipped`);
  if (reader.reusedIds > 0) {
    const [id, requestId] = reader.reusedId!.split('|');
    notes.push(
      `${counted(reader.reusedIds, 'response')} repeat the message.id ${JSON.stringify(id)}${requestId ? ` and requestId ${JSON.stringify(requestId)}` : ''} of an earlier response they cannot be part of (another prompt usage, or a user prompt between; the ids look replaced, as in a sanitised log): each read as a call of its own, not merged`,
    );
  }
  const compacted = real.filter((draft) => (draft.usage?.compactions?.length ?? 0) > 0).length;
  if (compacted > 0) {
    notes.push(`${counted(compacted, 'call')} report a server-side compaction in usage.iterations (billed on top of the top-level usage, which leaves it out): each read as a paid compaction call before the response`);
  }
  if (reader.orphanResults > 0) notes.push(`${reader.orphanResults} tool results answer no tool call of this transcript: not counted`);
  return notes;
}

/** Reads one transcript file line by line; `finish` throws every invalid line together (UserError). */
export function transcriptReader(path: string): LineConsumer<Transcript> {
  const issues = new LineIssues(path, CLAUDE_CODE_HINT);
  const reader = new TranscriptReader(issues);
  return jsonLineConsumer(
    issues,
    (line, value) => reader.read(line, value),
    (cutLine) => transcriptOf(path, reader, cutLine),
  );
}

/** Reads one transcript file held in lines; every invalid line is reported together (UserError). */
export function readTranscript(lines: Iterable<SourceLine>, path: string): Transcript {
  return consumeLines(lines, transcriptReader(path));
}

/** A link no Task result said the launch of: background when the call that started it asked for it. */
function markAskedBackground(reader: TranscriptReader): void {
  for (const link of reader.links.values()) if (link.background === undefined && reader.backgroundAsked.has(link.toolUseId)) link.background = true;
}

function transcriptOf(path: string, reader: TranscriptReader, cutLine: number | undefined): Transcript {
  fillFailedModels(reader.drafts);
  markAskedBackground(reader);
  const drafts = reader.drafts.filter((draft) => draft.model !== undefined);
  const transcript: Transcript = {
    path,
    calls: drafts.filter((draft) => !draft.sidechain).flatMap(agentCalls),
    sidechainCalls: drafts.filter((draft) => draft.sidechain).flatMap(agentCalls),
    links: reader.links,
    notes: transcriptNotes(reader, cutLine),
  };
  if (reader.unread !== undefined) {
    transcript.unread = reader.unread;
    transcript.notes.push(unreadLinesNote({ file: basename(path), ...reader.unread }));
  }
  if (reader.sessionId !== undefined) transcript.sessionId = reader.sessionId;
  if (reader.agentId !== undefined) transcript.agentId = reader.agentId;
  if (reader.firstPrompt?.trim() === WARMUP_PROMPT) transcript.warmup = true;
  return transcript;
}
