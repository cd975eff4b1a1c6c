/**
 * Walks a mini-swe-agent chat (`messages`): the system prompt, the task (first user message), one call
 * draft per assistant message, and the tool results, each paired with the tool call it answers (tool
 * messages by `tool_call_id`, else in order; in text mode the user messages that follow the actions).
 * Command results set the tool call's error and latency here; their token counts wait for the model name.
 */
import { endBeforeStart, RULES_HINT } from '../../trace/rules.js';
import { MAX_CLOCK_SKEW_SECONDS, pastClockSkew } from '../common/clockSkew.js';
import { readContentText, type ContentTextWording } from '../common/contentText.js';
import type { IssueCollector } from '../common/issues.js';
import { describeValue, type JsonObject } from '../common/jsonValue.js';
import { readAssistantMessage, type CallDraft } from './assistantMessage.js';
import { applyReturnCode, outputOf, parseReturnCode } from './commandResult.js';
import type { ToolCallRecord } from '../../trace/types.js';
import { YEAR_10000_UNIX_SECONDS } from '../common/timestamp.js';

/** A tool call waiting for its result. */
interface PendingTool {
  /** Index in the call drafts; -1 when its assistant message was invalid. */
  callIndex: number;
  toolIndex: number;
  id?: string;
  answered: boolean;
  timestamp?: number;
}

/** The text of a tool result, to be counted once the model is known. */
export interface ToolResultDraft {
  tool: { callIndex: number; toolIndex: number };
  text: string;
}

export interface MiniSweAgentChat {
  calls: CallDraft[];
  toolResults: ToolResultDraft[];
  systemText?: string;
  goalText?: string;
  /** The `exit` message, which names the exception that ended a failed run. */
  exitMessage?: JsonObject;
  /** The first model name an assistant message's response reports. */
  responseModel?: string;
  /** How many calls each model name the responses report (`extra.response.model`) served. */
  servedModels: Map<string, number>;
  /** The first `extra.timestamp` (unix seconds): when the run was recorded. */
  firstTimestamp?: number;
  /**
   * User messages mini-swe-agent added for a step it interrupted (`extra.interrupt_type`): a reply it could
   * not parse (FormatError) or the user stopping it. Each may stand for a model call counted in `api_calls`
   * without an assistant message; `costUsd` sums the `extra.cost` such a message records (2.4.6 on).
   */
  interrupted: { count: number; costUsd: number };
  /** Messages stamped slightly before the one they follow (within MAX_CLOCK_SKEW_SECONDS), and the largest step back. */
  clockSkew?: { count: number; maxSeconds: number };
}

/**
 * Real trajectories step back in time by up to about a second now and then (5 of 99 runs of
 * mini-swe-agent's deepseek_chat_test_1-100 set: a tool result stamped 0.4–1.1 s before the assistant
 * message that asked for it — the agent and the environment that runs its commands read different
 * clocks). Such a gap counts as 0 ms and the run gets a note; a larger step back is refused as corrupted.
 */
export { MAX_CLOCK_SKEW_SECONDS }; // the one rule, shared with Claude Code transcripts: ../common/clockSkew.ts

const CONTENT_WORDING: ContentTextWording = {
  badPart: (part) => `expected a content part with "text", got ${describeValue(part)}`,
  badContent: (content) => `expected the message text (a string), got ${describeValue(content)}`,
};

export function readChatMessages(issues: IssueCollector, messages: readonly unknown[]): MiniSweAgentChat {
  const walk = new ChatWalk(issues);
  messages.forEach((raw, i) => walk.message(raw, `messages[${i}]`));
  return walk.chat();
}

/** The walk through a chat's messages: what they said so far, and the tool calls still waiting for results. */
class ChatWalk {
  private readonly calls: CallDraft[] = [];
  private readonly toolResults: ToolResultDraft[] = [];
  private readonly byId = new Map<string, PendingTool>();
  private pending: PendingTool[] = [];
  private systemText: string | undefined;
  private goalText: string | undefined;
  private lastTimestamp: number | undefined;
  private firstTimestamp: number | undefined;
  private exitMessage: JsonObject | undefined;
  private responseModel: string | undefined;
  private readonly servedModels = new Map<string, number>();
  private readonly skew = { count: 0, maxSeconds: 0 };
  private readonly interrupted = { count: 0, costUsd: 0 };

  constructor(private readonly issues: IssueCollector) {}

  /** Message `at`: read by its role, then its timestamp checked against the clock so far. */
  message(raw: unknown, at: string): void {
    const issues = this.issues;
    const message = issues.object(raw, at);
    if (!message) return;
    const role = issues.string(message.role, `${at}.role`);
    if (role === undefined) return;
    const extra = issues.optObject(message.extra, `${at}.extra`);
    const timestamp = extra ? unixSeconds(issues, extra.timestamp, `${at}.extra.timestamp`) : undefined;
    const read: ReadMessage = { message, at, extra, timestamp };
    if (role === 'system') {
      if (this.systemText === undefined) this.systemText = contentText(issues, read);
    } else if (role === 'user') this.user(read);
    else if (role === 'assistant') this.assistant(read);
    else if (role === 'tool') this.tool(read);
    else if (role === 'exit') this.exitMessage = message;
    if (timestamp !== undefined) this.clock(timestamp, at);
  }

  /** The task (the first user message), else an interrupted step's message or a text-mode tool result. */
  private user({ message, at, extra }: ReadMessage): void {
    const text = contentText(this.issues, { message, at });
    if (this.goalText === undefined) {
      this.goalText = text;
      return;
    }
    if (extra && typeof extra.interrupt_type === 'string') {
      this.interrupted.count++;
      this.interrupted.costUsd += this.issues.optCostUsd(extra.cost, `${at}.extra.cost`) ?? 0;
    }
    // Text-mode runs answer actions with user messages; tool-call runs use them for format errors.
    const waiting = this.pending.find((tool) => !tool.answered);
    if (waiting && this.calls[waiting.callIndex]?.textModeActions && text !== undefined) {
      waiting.answered = true;
      this.toolResults.push({ tool: waiting, text });
      applyReturnCode(this.toolRecord(waiting), parseReturnCode(text), outputOf(text, undefined), undefined);
    }
  }

  /** A call draft; its tool calls wait for their results. */
  private assistant({ message, at, extra, timestamp }: ReadMessage): void {
    const draft = readAssistantMessage(this.issues, message, extra, at, timestamp, this.lastTimestamp);
    // An invalid assistant message (already reported) still claims its tool messages: no cascade of issues.
    const callIndex = draft.call ? this.calls.length : -1;
    if (draft.call) {
      this.calls.push(draft.call);
      this.responseModel ??= draft.responseModel;
      if (draft.responseModel !== undefined) this.servedModels.set(draft.responseModel, (this.servedModels.get(draft.responseModel) ?? 0) + 1);
    }
    this.pending = draft.toolIds.map((id, toolIndex) => {
      const tool: PendingTool = { callIndex, toolIndex, answered: false };
      if (id !== undefined) {
        tool.id = id;
        this.byId.set(id, tool);
      }
      if (timestamp !== undefined) tool.timestamp = timestamp;
      return tool;
    });
  }

  /** A tool result: paired with the tool call it answers (by id, else in order), whose error and latency it sets. */
  private tool({ message, at, extra, timestamp }: ReadMessage): void {
    const issues = this.issues;
    const text = contentText(issues, { message, at });
    const toolCallId = issues.optString(message.tool_call_id, `${at}.tool_call_id`);
    const tool = this.answeredTool(toolCallId);
    if (!tool) {
      issues.add(
        at,
        'orphan_tool_message',
        toolCallId !== undefined
          ? `tool message answers tool_call_id ${JSON.stringify(toolCallId)}, which no earlier assistant message issued`
          : 'tool message follows no unanswered tool call',
        'each tool message must follow the assistant message whose tool call it answers: the trajectory looks edited or reordered',
      );
    } else if (tool.callIndex < 0) {
      tool.answered = true;
    } else if (text !== undefined) {
      tool.answered = true;
      this.toolResults.push({ tool, text });
      const toolRecord = this.toolRecord(tool);
      const returnCode = extra ? issues.optNumber(extra.returncode, `${at}.extra.returncode`, 'an exit code') : undefined;
      const rawOutput = extra ? issues.optString(extra.raw_output, `${at}.extra.raw_output`) : undefined;
      const exceptionType = extra ? issues.optString(extra.exception_type, `${at}.extra.exception_type`) : undefined;
      applyReturnCode(toolRecord, returnCode ?? parseReturnCode(text), outputOf(text, rawOutput), exceptionType);
      if (timestamp !== undefined && tool.timestamp !== undefined) {
        toolRecord.latencyMs = Math.max(0, Math.round((timestamp - tool.timestamp) * 1000));
      }
    }
  }

  /** The unanswered tool call a tool message answers: the one with its id, else the first waiting one. */
  private answeredTool(toolCallId: string | undefined): PendingTool | undefined {
    let tool = toolCallId !== undefined ? this.byId.get(toolCallId) : undefined;
    if (tool?.answered) tool = undefined;
    return tool ?? this.pending.find((candidate) => !candidate.answered && (toolCallId === undefined || candidate.id === undefined));
  }

  private toolRecord(tool: PendingTool): ToolCallRecord {
    return this.calls[tool.callIndex]!.record.toolCalls![tool.toolIndex]!;
  }

  /** A message's timestamp: a small step back is clock skew (noted), a large one an issue. */
  private clock(timestamp: number, at: string): void {
    const lastTimestamp = this.lastTimestamp;
    const skewSeconds = lastTimestamp === undefined ? 0 : lastTimestamp - timestamp;
    if (pastClockSkew(skewSeconds)) {
      const backwards = endBeforeStart(`${at}.extra.timestamp`, lastTimestamp!, timestamp, `the message is timestamped ${skewSeconds.toFixed(3)} s before the one it follows (more than the ${MAX_CLOCK_SKEW_SECONDS} s of clock skew tolerated)`)!;
      this.issues.add(backwards.field, backwards.code, backwards.message, RULES_HINT);
    } else if (skewSeconds > 0) {
      this.skew.count++;
      this.skew.maxSeconds = Math.max(this.skew.maxSeconds, skewSeconds);
    }
    // The clock read is the latest seen: a skewed message neither shortens nor lengthens the run.
    this.lastTimestamp = lastTimestamp === undefined ? timestamp : Math.max(lastTimestamp, timestamp);
    this.firstTimestamp ??= timestamp;
  }

  /** What the walk found, its absent parts left out. */
  chat(): MiniSweAgentChat {
    const chat: MiniSweAgentChat = { calls: this.calls, toolResults: this.toolResults, interrupted: this.interrupted, servedModels: this.servedModels };
    if (this.systemText !== undefined) chat.systemText = this.systemText;
    if (this.goalText !== undefined) chat.goalText = this.goalText;
    if (this.exitMessage !== undefined) chat.exitMessage = this.exitMessage;
    if (this.responseModel !== undefined) chat.responseModel = this.responseModel;
    if (this.firstTimestamp !== undefined) chat.firstTimestamp = this.firstTimestamp;
    if (this.skew.count > 0) chat.clockSkew = this.skew;
    return chat;
  }
}


/**
 * A message's `extra.timestamp`: unix seconds in the years 1970–9999, else an issue at the field (one
 * issue, not one per message after it, nor one about a latency it would make).
 */
function unixSeconds(issues: IssueCollector, raw: unknown, field: string): number | undefined {
  const seconds = issues.optNumber(raw, field, 'a unix time in seconds');
  if (seconds === undefined || (seconds >= 0 && seconds < YEAR_10000_UNIX_SECONDS)) return seconds;
  issues.add(field, 'invalid_value', `expected a unix time in seconds of the years 1970–9999 (0 to under ${YEAR_10000_UNIX_SECONDS}), got ${seconds}`);
  return undefined;
}

/** One message as read: its object, its place, its `extra` and timestamp. */
interface ReadMessage {
  message: JsonObject;
  at: string;
  extra: JsonObject | undefined;
  timestamp: number | undefined;
}

function contentText(issues: IssueCollector, { message, at }: Pick<ReadMessage, 'message' | 'at'>): string | undefined {
  return readContentText(issues, message.content, `${at}.content`, CONTENT_WORDING);
}
