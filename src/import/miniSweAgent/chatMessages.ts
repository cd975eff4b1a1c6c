/**
 * Walks a mini-swe-agent chat (`messages`): the system prompt, the task (first user message), one call
 * draft per assistant message, and the tool results, each paired with the tool call it answers (tool
 * messages by `tool_call_id`, else in order; in text mode the user messages that follow the actions).
 * Command results set the tool call's error and latency here; their token counts wait for the model name.
 */
import { endBeforeStart, RULES_HINT } from '../../trace/rules.js';
import { readContentText, type ContentTextWording } from '../common/contentText.js';
import type { IssueCollector } from '../common/issues.js';
import { describeValue, type JsonObject } from '../common/jsonValue.js';
import { readAssistantMessage, type CallDraft } from './assistantMessage.js';
import { applyReturnCode, outputOf, parseReturnCode } from './commandResult.js';

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
export const MAX_CLOCK_SKEW_SECONDS = 5;

const CONTENT_WORDING: ContentTextWording = {
  badPart: (part) => `expected a content part with "text", got ${describeValue(part)}`,
  badContent: (content) => `expected the message text (a string), got ${describeValue(content)}`,
};

export function readChatMessages(issues: IssueCollector, messages: readonly unknown[]): MiniSweAgentChat {
  const calls: CallDraft[] = [];
  const toolResults: ToolResultDraft[] = [];
  const byId = new Map<string, PendingTool>();
  let pending: PendingTool[] = [];
  let systemText: string | undefined;
  let goalText: string | undefined;
  let lastTimestamp: number | undefined;
  let exitMessage: JsonObject | undefined;
  let responseModel: string | undefined;
  const servedModels = new Map<string, number>();
  let firstTimestamp: number | undefined;
  const skew = { count: 0, maxSeconds: 0 };
  const interrupted = { count: 0, costUsd: 0 };

  messages.forEach((raw, i) => {
    const at = `messages[${i}]`;
    const message = issues.object(raw, at);
    if (!message) return;
    const role = issues.string(message.role, `${at}.role`);
    if (role === undefined) return;
    const extra = issues.optObject(message.extra, `${at}.extra`);
    const timestamp = extra ? issues.optNumber(extra.timestamp, `${at}.extra.timestamp`, 'a unix time in seconds') : undefined;
    const contentText = (): string | undefined => readContentText(issues, message.content, `${at}.content`, CONTENT_WORDING);

    if (role === 'system') {
      if (systemText === undefined) systemText = contentText();
    } else if (role === 'user') {
      const text = contentText();
      if (goalText === undefined) goalText = text;
      else {
        if (extra && typeof extra.interrupt_type === 'string') {
          interrupted.count++;
          interrupted.costUsd += issues.optAmount(extra.cost, `${at}.extra.cost`, 'a cost in USD') ?? 0;
        }
        // Text-mode runs answer actions with user messages; tool-call runs use them for format errors.
        const waiting = pending.find((tool) => !tool.answered);
        if (waiting && calls[waiting.callIndex]?.textModeActions && text !== undefined) {
          waiting.answered = true;
          toolResults.push({ tool: waiting, text });
          const toolRecord = calls[waiting.callIndex]!.record.toolCalls![waiting.toolIndex]!;
          applyReturnCode(toolRecord, parseReturnCode(text), outputOf(text, undefined), undefined);
        }
      }
    } else if (role === 'assistant') {
      const draft = readAssistantMessage(issues, message, extra, at, timestamp, lastTimestamp);
      // An invalid assistant message (already reported) still claims its tool messages: no cascade of issues.
      const callIndex = draft.call ? calls.length : -1;
      if (draft.call) {
        calls.push(draft.call);
        responseModel ??= draft.responseModel;
        if (draft.responseModel !== undefined) servedModels.set(draft.responseModel, (servedModels.get(draft.responseModel) ?? 0) + 1);
      }
      pending = draft.toolIds.map((id, toolIndex) => {
        const tool: PendingTool = { callIndex, toolIndex, answered: false };
        if (id !== undefined) {
          tool.id = id;
          byId.set(id, tool);
        }
        if (timestamp !== undefined) tool.timestamp = timestamp;
        return tool;
      });
    } else if (role === 'tool') {
      const text = contentText();
      const toolCallId = issues.optString(message.tool_call_id, `${at}.tool_call_id`);
      let tool = toolCallId !== undefined ? byId.get(toolCallId) : undefined;
      if (tool?.answered) tool = undefined;
      tool ??= pending.find((candidate) => !candidate.answered && (toolCallId === undefined || candidate.id === undefined));
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
        toolResults.push({ tool, text });
        const toolRecord = calls[tool.callIndex]!.record.toolCalls![tool.toolIndex]!;
        const returnCode = extra ? issues.optNumber(extra.returncode, `${at}.extra.returncode`, 'an exit code') : undefined;
        const rawOutput = extra ? issues.optString(extra.raw_output, `${at}.extra.raw_output`) : undefined;
        const exceptionType = extra ? issues.optString(extra.exception_type, `${at}.extra.exception_type`) : undefined;
        applyReturnCode(toolRecord, returnCode ?? parseReturnCode(text), outputOf(text, rawOutput), exceptionType);
        if (timestamp !== undefined && tool.timestamp !== undefined) {
          toolRecord.latencyMs = Math.max(0, Math.round((timestamp - tool.timestamp) * 1000));
        }
      }
    } else if (role === 'exit') {
      exitMessage = message;
    }
    if (timestamp !== undefined) {
      const skewSeconds = lastTimestamp === undefined ? 0 : lastTimestamp - timestamp;
      if (skewSeconds > MAX_CLOCK_SKEW_SECONDS) {
        const backwards = endBeforeStart(`${at}.extra.timestamp`, lastTimestamp!, timestamp, `the message is timestamped ${skewSeconds.toFixed(3)} s before the one it follows (more than the ${MAX_CLOCK_SKEW_SECONDS} s of clock skew tolerated)`)!;
        issues.add(backwards.field, backwards.code, backwards.message, RULES_HINT);
      } else if (skewSeconds > 0) {
        skew.count++;
        skew.maxSeconds = Math.max(skew.maxSeconds, skewSeconds);
      }
      // The clock read is the latest seen: a skewed message neither shortens nor lengthens the run.
      lastTimestamp = lastTimestamp === undefined ? timestamp : Math.max(lastTimestamp, timestamp);
      firstTimestamp ??= timestamp;
    }
  });

  const chat: MiniSweAgentChat = { calls, toolResults, interrupted, servedModels };
  if (systemText !== undefined) chat.systemText = systemText;
  if (goalText !== undefined) chat.goalText = goalText;
  if (exitMessage !== undefined) chat.exitMessage = exitMessage;
  if (responseModel !== undefined) chat.responseModel = responseModel;
  if (firstTimestamp !== undefined) chat.firstTimestamp = firstTimestamp;
  if (skew.count > 0) chat.clockSkew = skew;
  return chat;
}
