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
import { shortText } from '../common/text.js';
import { countTokens } from '../tokenCount.js';
import { LogClock } from '../common/timestamp.js';
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
import { transcriptNotes } from './transcriptNotes.js';
import { SubagentLinks } from './subagentLinks.js';
import { agentIdOf, SidechainKeys } from './sidechainKeys.js';
import { CompactBoundaryLog } from './compactBoundaries.js';
import { endsCall, timestampOf, TranscriptTime } from './timeSteps.js';
import { OwnerCheck, type ExpectedOwner } from './subagentOwner.js';
import type { SubagentLink, Transcript } from './transcriptTypes.js';

/** The prompt of a warm-up agent (anthropics/claude-code#17457: `agent-*.jsonl` files, `isSidechain`, no Task call). */
const WARMUP_PROMPT = 'Warmup';

const TRANSCRIPT_FILE = /\.jsonl(\.gz)?$/i;

const CLAUDE_CODE_HINT =
  'expected a Claude Code transcript (~/.claude/projects/<project>/<session>.jsonl) as Claude Code wrote it: copy it again or fix the line named';

/** A tool call waiting for its result. */
interface PendingTool {
  record: ToolCallRecord;
  model: string;
  line: number;
  atMs?: number;
}

export type { SubagentLink, Transcript };

/** 1 for a sidechain line, 0 for the main chain's. */
function chainOf(value: Record<string, unknown>): number {
  return value.isSidechain === true ? 1 : 0;
}

class TranscriptReader {
  readonly drafts: DraftCall[] = [];
  private readonly byKey = new Map<string, DraftCall>();
  private readonly pending = new Map<string, PendingTool>();
  readonly links = new SubagentLinks();
  /** The sub-agent of each sidechain line of a session's own transcript (older Claude Code wrote them there). */
  readonly sidechainKeys = new SidechainKeys();
  /** The sidechain sub-agent of the line being read, when it is one's. */
  private lineSidechain: string | undefined;
  readonly compactions = new CompactBoundaryLog();
  /** Tool calls whose arguments asked for a background sub-agent (`run_in_background: true`). */
  readonly backgroundAsked = new Set<string>();
  readonly clock = new LogClock();
  private previousMs: number | undefined;
  private readonly time: TranscriptTime; // time running backwards (timeSteps.ts)
  private promptTokens: number | undefined;
  private lastModel: string | undefined;
  sessionId: string | undefined;
  /** A line named the session the file is named after (a resumed session's file can open with lines copied under the old id). */
  namedSessionSeen = false;
  agentId: string | undefined;
  /**
   * Whose transcript this is, decided by its first line that says whether it is a sidechain: a main-chain
   * line makes it a session's own (lines of a sub-agent copied into it, with their `agentId`, do not make
   * it a sub-agent's); a sidechain line makes it the transcript of the agent that line names (or of the
   * first `agentId` a later line names).
   */
  private ownDecided = false;
  /** The file is a session's own (its first line saying so is of the main chain). */
  private mainChain = false;
  readonly images = { count: 0, tokens: 0 };
  skippedSynthetic = 0;
  orphanResults = 0;
  /** User prompts so far, of the main chain and of sidechain lines (older Claude Code wrote a sub-agent's inside a main response's). */
  private readonly turns = [0, 0];
  /** Responses whose (message.id, requestId) an earlier, different response already had (a sanitised log): how many, and the first such id. */
  reusedIds = 0;
  reusedId: string | undefined;
  firstPrompt: string | undefined;
  unread: UnreadLines | undefined;

  constructor(
    private readonly issues: LineIssues,
    private readonly nameId: string | undefined,
  ) {
    this.time = new TranscriptTime(issues);
  }

  private readOwner(value: Record<string, unknown>): void {
    if (typeof value.sessionId === 'string') {
      this.sessionId ??= value.sessionId;
      if (value.sessionId === this.nameId) this.namedSessionSeen = true;
    }
    if (!this.ownDecided && typeof value.isSidechain === 'boolean') {
      this.ownDecided = true;
      this.mainChain = !value.isSidechain;
      this.agentId = this.mainChain ? undefined : agentIdOf(value);
    }
    if (!this.mainChain && this.agentId === undefined) this.agentId = agentIdOf(value);
  }

  /**
   * A line of another agent than this transcript's: a sidechain line in a session's own transcript (older
   * Claude Code wrote sub-agents there, newer ones can copy them there), or one naming no agent or another.
   */
  private isOtherAgent(value: Record<string, unknown>): boolean {
    return value.isSidechain === true && (this.mainChain || this.agentId === undefined || agentIdOf(value) !== this.agentId);
  }

  read(line: number, value: Record<string, unknown>): void {
    const atMs = timestampOf(this.issues, this.clock, line, value.timestamp);
    this.readOwner(value);
    const link = progressLink(value);
    // A progress line comes while the tool call that started the sub-agent runs: that call's time, else its own.
    if (link) this.links.link(link.agentId, link.toolUseId, { line, atMs: this.pending.get(link.toolUseId)?.atMs ?? atMs });
    this.lineSidechain = this.isOtherAgent(value) ? this.sidechainKeys.keyOf(value) : undefined;
    if (endsCall(value)) this.time.callEnd(line, atMs, value.timestamp, this.lineSidechain);
    if (value.type === 'assistant') this.readAssistant(line, value, atMs);
    else if (value.type === 'user') this.readUser(line, value, atMs);
    else if (value.type === 'system') {
      const failure = apiErrorFailure(value);
      if (failure) this.addFailure(line, value, failure, atMs);
      this.compactions.system(line, value, { atMs, lastModel: this.lastModel, issues: this.issues });
    } else this.noteUnread(line, value);
    // Another agent's progress and a queued prompt say nothing about when this agent sent its next request.
    if (atMs !== undefined && !link && value.type !== 'queue-operation') {
      this.previousMs = atMs;
      this.time.saw(line, atMs, this.lineSidechain);
    }
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
    const draft: DraftCall = { line, sidechain: this.isOtherAgent(value), toolCalls: [], visibleTokens: 0, thinking: false, turn: this.turnOf(value) };
    if (this.lineSidechain !== undefined) draft.sidechainAgent = this.lineSidechain;
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
      draft.key = response.key;
      this.byKey.set(response.key, draft);
    }
    draft.model = response.model;
    draft.modelLine ??= line;
    this.lastModel = response.model;
    if (!draft.sidechain) this.compactions.call(response.model);
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
      this.pending.set(use.id, { record, model: response.model, line, ...(atMs !== undefined ? { atMs } : {}) });
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
      tool.record.resultTokens = countTokens(result.text, tool.model) + result.imageTokens;
      this.images.count += result.images;
      this.images.tokens += result.imageTokens;
      tool.record.error = result.isError ? shortText(result.text) || 'error' : null;
      if (atMs !== undefined && tool.atMs !== undefined) tool.record.latencyMs = this.time.toolLatency(line, atMs, value.timestamp, { line: tool.line, atMs: tool.atMs }, this.lineSidechain);
      const task = taskResult(value);
      if (task) this.links.taskResult(task.agentId, result.toolUseId, { line, atMs: tool.atMs }, task);
    }
    if (results.length > 0) return;
    this.compactions.user(line, value, this.lastModel);
    const text = promptText(value);
    if (text === undefined) return;
    this.promptTokens = countTokens(text, this.lastModel ?? 'claude');
    this.firstPrompt ??= text;
    this.turns[chainOf(value)]! += 1;
  }
}

/** Reads one transcript file line by line (`owner`: the sub-agent a session tree reads it as, subagentOwner.ts); `finish` throws every invalid line together (UserError). */
export function transcriptReader(path: string, owner?: ExpectedOwner): LineConsumer<Transcript> {
  const issues = new LineIssues(path, CLAUDE_CODE_HINT);
  const reader = new TranscriptReader(issues, basename(path).replace(TRANSCRIPT_FILE, ''));
  const check = owner === undefined ? undefined : new OwnerCheck(owner, issues);
  return jsonLineConsumer(
    issues,
    (line, value) => {
      check?.read(line, value);
      reader.read(line, value);
    },
    (cutLine) => transcriptOf(path, reader, cutLine),
  );
}

/** Reads one transcript file held in lines; every invalid line is reported together (UserError). `owner`: see transcriptReader. */
export function readTranscript(lines: Iterable<SourceLine>, path: string, owner?: ExpectedOwner): Transcript {
  return consumeLines(lines, transcriptReader(path, owner));
}

function transcriptOf(path: string, reader: TranscriptReader, cutLine: number | undefined): Transcript {
  fillFailedModels(reader.drafts);
  reader.links.markAskedBackground(reader.backgroundAsked);
  const drafts = reader.drafts.filter((draft) => draft.model !== undefined);
  const transcript: Transcript = {
    path,
    calls: drafts.filter((draft) => !draft.sidechain).flatMap(agentCalls),
    sidechainCalls: drafts.filter((draft) => draft.sidechain).flatMap(agentCalls),
    sidechainPrompts: reader.sidechainKeys.prompts,
    links: reader.links.byAgent,
    compactBoundaries: reader.compactions.boundaries,
    notes: transcriptNotes(reader, cutLine),
  };
  if (reader.unread !== undefined) {
    transcript.unread = reader.unread;
    transcript.notes.push(unreadLinesNote({ file: basename(path), ...reader.unread }));
  }
  // A resumed session's file may open with lines copied under the old session's id: its own id is its name's.
  const sessionId = reader.namedSessionSeen ? basename(path).replace(TRANSCRIPT_FILE, '') : reader.sessionId;
  if (sessionId !== undefined) transcript.sessionId = sessionId;
  if (reader.agentId !== undefined) transcript.agentId = reader.agentId;
  if (reader.firstPrompt?.trim() === WARMUP_PROMPT) transcript.warmup = true;
  return transcript;
}
