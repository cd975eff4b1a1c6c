/**
 * A Claude Code model call being assembled from its transcript lines (transcript.ts), and the native
 * call it becomes: which lines are one response, its record (prompt = input + cache writes + cache
 * reads), the model of a failed attempt.
 */
import type { CallRecord, ToolCallRecord } from '../../trace/types.js';
import type { TranscriptCall } from './transcriptTypes.js';
import { clip, shortText } from '../common/text.js';
import { refusedCall } from '../common/contextRefusal.js';
import type { ApiFailure, AssistantLine } from './lineFields.js';

/** A call being assembled from its lines. */
export interface DraftCall {
  model?: string;
  line: number;
  /** The line `model` was read from: the call's own first line, or for a failed attempt the line of the call whose model it was given. */
  modelLine?: number;
  sidechain: boolean;
  /** Which sub-agent of a session's own transcript's sidechain lines made it (sidechainKeys.ts). */
  sidechainAgent?: string;
  startedAtMs?: number;
  endedAtMs?: number;
  usage?: AssistantLine['usage'];
  toolCalls: ToolCallRecord[];
  visibleTokens: number;
  thinking: boolean;
  goalTokens?: number;
  stopReason?: string;
  failed?: ApiFailure;
  /** How many user prompts came before the call's first line (a response never spans one). */
  turn: number;
  /** A line of it named another model (modelMismatch): said once. */
  modelMismatch?: true;
  /** Its `message.id|requestId` (none for a failed attempt). */
  key?: string;
}

/**
 * Whether an assistant line with the key of `draft` can be a later piece of that response: the lines of
 * one response repeat its prompt usage (only the output grows while streaming) and no user prompt comes
 * between them (tool results can: Claude Code runs a tool while the response still streams). A log
 * whose ids were all replaced by one placeholder (`msg_REDACTED`) repeats a key across responses.
 */
export function sameResponse(draft: DraftCall, line: AssistantLine, turn: number): boolean {
  const [a, b] = [draft.usage, line.usage];
  if (draft.turn !== turn) return false;
  return a === undefined || (a.input === b.input && a.cacheWrite5m === b.cacheWrite5m && a.cacheWrite1h === b.cacheWrite1h && a.cacheRead === b.cacheRead);
}

/**
 * What is wrong with a later line of `draft`'s response naming `model`: the lines of one response name the
 * model that answered it, so another model on one of them (an unknown one, a typo) is a damaged line,
 * never read past (the call would be priced with whichever line came last). Undefined when they agree, and
 * after the first line said so (the file is refused: one issue per response).
 */
export function modelMismatch(draft: DraftCall, model: string): string | undefined {
  if (draft.model === undefined || draft.model === model || draft.modelMismatch === true) return undefined;
  draft.modelMismatch = true; // said once per response
  const shown = (name: string) => clip(JSON.stringify(name), 80);
  return `names ${shown(model)}, but line ${draft.modelLine ?? draft.line}, an earlier line of the same response (its message.id and requestId), names ${shown(draft.model)}: the lines of one response name one model`;
}

export function callRecord(draft: DraftCall): CallRecord {
  const usage = draft.usage ?? { input: 0, cacheWrite5m: 0, cacheWrite1h: 0, cacheRead: 0, output: 0 };
  const record: CallRecord = {
    type: 'call',
    inputTokens: usage.input + usage.cacheWrite5m + usage.cacheWrite1h + usage.cacheRead,
    outputTokens: usage.output,
  };
  if (usage.cacheRead > 0) record.cachedInputTokens = usage.cacheRead;
  if (usage.cacheWrite5m > 0) record.cacheWriteTokens = usage.cacheWrite5m;
  if (usage.cacheWrite1h > 0) record.cacheWrite1hTokens = usage.cacheWrite1h;
  if (usage.thinking !== undefined && usage.thinking > 0) record.reasoningTokens = usage.thinking;
  // Billed per search on top of the tokens (usage.ts webSearches): part of the call's cost.
  if (usage.webSearches !== undefined) record.webSearchRequests = usage.webSearches;
  if (draft.startedAtMs !== undefined && draft.endedAtMs !== undefined) record.latencyMs = Math.max(0, draft.endedAtMs - draft.startedAtMs);
  if (draft.toolCalls.length > 0) record.toolCalls = draft.toolCalls;
  if (draft.failed) record.failed = { ...draft.failed, message: shortText(draft.failed.message) };
  // A refusal for length ("Prompt is too long") bills nothing: no usage (the run ends there: endRunsAtRefusals).
  return draft.failed?.contextLengthExceeded === undefined ? record : refusedCall(record, draft.failed.contextLengthExceeded);
}

/** Failed attempts carry no model: they were made with the model of the call before them (else after). */
export function fillFailedModels(drafts: DraftCall[]): void {
  let from: DraftCall | undefined;
  const fill = (draft: DraftCall): void => {
    if (draft.model === undefined && from !== undefined) [draft.model, draft.modelLine] = [from.model, from.modelLine];
    if (draft.model !== undefined) from = draft;
  };
  for (const draft of drafts) fill(draft);
  from = undefined;
  for (let i = drafts.length - 1; i >= 0; i--) fill(drafts[i]!);
}

/** The draft's calls: a compaction call for each server-side compaction its usage reports, then its own call. */
export function agentCalls(draft: DraftCall): TranscriptCall[] {
  const { failed: _failed, stopReason: _stop, goalTokens: _goal, endedAtMs: _end, ...rest } = draft;
  const compactions = (draft.usage?.compactions ?? []).map((usage) => {
    const call = agentCall({ ...rest, usage, toolCalls: [], visibleTokens: 0, thinking: false });
    call.record.compaction = true;
    return call;
  });
  return [...compactions, agentCall(draft)];
}

function agentCall(draft: DraftCall): TranscriptCall {
  const call: TranscriptCall = { record: callRecord(draft), model: draft.model!, turn: draft.turn, ...(draft.modelLine === undefined ? {} : { modelLine: draft.modelLine }) };
  if (draft.sidechainAgent !== undefined) call.sidechainAgent = draft.sidechainAgent;
  if (draft.startedAtMs !== undefined) call.startedAtMs = draft.startedAtMs;
  if (draft.goalTokens !== undefined) call.goalTokens = draft.goalTokens;
  if (draft.stopReason !== undefined) call.stopReason = draft.stopReason;
  if (draft.key !== undefined) call.responseKey = draft.key;
  return call;
}
