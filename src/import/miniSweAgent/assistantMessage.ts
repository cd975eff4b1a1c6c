/**
 * One mini-swe-agent assistant message → the draft of one call: its usage (`extra.response.usage`, as
 * LiteLLM returned it), its cost (`extra.cost`), and its tool calls (`tool_calls` in tool-call mode, else the
 * `extra.actions` parsed from the text in text mode). Results and errors are filled in later, when the
 * messages that answer the tool calls are read.
 */
import { jsonTextProblem } from '../../io/jsonText.js';
import { MAX_ARGUMENTS_DEPTH, pathPastDepth } from '../../io/limits.js';
import { callRuleViolations, RULES_HINT } from '../../trace/rules.js';
import type { CallRecord, ToolCallRecord } from '../../trace/types.js';
import type { IssueCollector } from '../common/issues.js';
import { describeValue, isJsonObject, type JsonObject } from '../common/jsonValue.js';

/** First output line with which a mini-swe-agent command submits (2.x and 1.x spellings). */
export const MINI_SWE_AGENT_SUBMIT_MARKERS = ['COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT', 'MINI_SWE_AGENT_FINAL_OUTPUT'];

export interface CallDraft {
  record: CallRecord;
  /** One of its commands carries the submit marker. */
  submitMarker: boolean;
  /** Actions came from `extra.actions` (text mode): results arrive as user messages. */
  textModeActions: boolean;
}

export interface AssistantDraft {
  /** Undefined when the message is invalid (its issues are collected). */
  call?: CallDraft;
  toolIds: (string | undefined)[];
  responseModel?: string;
}

/**
 * Reads assistant message `at`. Latency is the time since the previous message (0 for the first);
 * timestamps are unix seconds from `extra.timestamp`.
 */
export function readAssistantMessage(
  issues: IssueCollector,
  message: JsonObject,
  extra: JsonObject | undefined,
  at: string,
  timestamp: number | undefined,
  previousTimestamp: number | undefined,
): AssistantDraft {
  const before = issues.count;
  if (!extra) issues.add(`${at}.extra`, 'missing_field', 'is missing: an assistant message needs extra.response.usage (its token usage)');
  const response = extra ? issues.object(extra.response, `${at}.extra.response`) : undefined;
  const usage = response ? issues.object(response.usage, `${at}.extra.response.usage`) : undefined;
  const u = `${at}.extra.response.usage`;
  const promptTokens = usage ? issues.reqCount(usage.prompt_tokens, `${u}.prompt_tokens`) : undefined;
  const completionTokens = usage ? issues.reqCount(usage.completion_tokens, `${u}.completion_tokens`) : undefined;
  const promptDetails = usage ? issues.optObject(usage.prompt_tokens_details, `${u}.prompt_tokens_details`) : undefined;
  const completionDetails = usage
    ? issues.optObject(usage.completion_tokens_details, `${u}.completion_tokens_details`)
    : undefined;
  let cached = promptDetails ? issues.optCount(promptDetails.cached_tokens, `${u}.prompt_tokens_details.cached_tokens`) : undefined;
  if (cached === undefined && usage) cached = issues.optCount(usage.prompt_cache_hit_tokens, `${u}.prompt_cache_hit_tokens`);
  const cacheWrite = usage ? issues.optCount(usage.cache_creation_input_tokens, `${u}.cache_creation_input_tokens`) : undefined;
  const reasoning = completionDetails
    ? issues.optCount(completionDetails.reasoning_tokens, `${u}.completion_tokens_details.reasoning_tokens`)
    : undefined;
  const cost = extra ? issues.optAmount(extra.cost, `${at}.extra.cost`, 'a cost in USD') : undefined;
  const responseModel = response ? issues.optString(response.model, `${at}.extra.response.model`) : undefined;

  if (promptTokens !== undefined && completionTokens !== undefined) {
    // The rules every call obeys (src/trace/rules.ts), named by the trajectory's own fields.
    const usage: CallRecord = { type: 'call', inputTokens: promptTokens, outputTokens: completionTokens };
    if (cached !== undefined) usage.cachedInputTokens = cached;
    if (cacheWrite !== undefined) usage.cacheWriteTokens = cacheWrite;
    if (reasoning !== undefined) usage.reasoningTokens = reasoning;
    const fields: Record<string, string> = {
      cachedInputTokens: promptDetails?.cached_tokens !== undefined ? `${u}.prompt_tokens_details.cached_tokens` : `${u}.prompt_cache_hit_tokens`,
      cacheWriteTokens: `${u}.cache_creation_input_tokens`,
      reasoningTokens: `${u}.completion_tokens_details.reasoning_tokens`,
    };
    for (const broken of callRuleViolations(usage)) issues.add(fields[broken.field] ?? `${u}.prompt_tokens`, broken.code, broken.message, RULES_HINT);
  }

  // Tool calls (tool-call mode), else actions parsed from text (text mode).
  const toolCalls: ToolCallRecord[] = [];
  const toolIds: (string | undefined)[] = [];
  /** Ids of every tool call, valid or not: an invalid message still claims its tool messages. */
  const allIds: (string | undefined)[] = [];
  const commands: string[] = [];
  let textModeActions = false;
  const rawToolCalls = message.tool_calls;
  if (rawToolCalls !== undefined && rawToolCalls !== null && !Array.isArray(rawToolCalls)) {
    issues.add(`${at}.tool_calls`, 'wrong_type', `expected an array of tool calls, got ${describeValue(rawToolCalls)}`);
  } else if (Array.isArray(rawToolCalls) && rawToolCalls.length > 0) {
    for (const rawCall of rawToolCalls) {
      allIds.push(isJsonObject(rawCall) && typeof rawCall.id === 'string' ? rawCall.id : undefined);
    }
    rawToolCalls.forEach((rawCall, k) => {
      const t = `${at}.tool_calls[${k}]`;
      const toolCall = issues.object(rawCall, t);
      const fn = toolCall ? issues.object(toolCall.function, `${t}.function`) : undefined;
      const name = fn ? issues.string(fn.name, `${t}.function.name`) : undefined;
      const id = toolCall ? issues.optString(toolCall.id, `${t}.id`) : undefined;
      if (!fn || name === undefined) return;
      const args = readToolArguments(issues, fn.arguments, `${t}.function.arguments`);
      toolCalls.push({ name, arguments: args, resultTokens: 0, error: null });
      toolIds.push(id);
      commands.push(commandOf(args));
    });
  } else if (extra && Array.isArray(extra.actions) && extra.actions.length > 0) {
    textModeActions = true;
    extra.actions.forEach((rawAction, k) => {
      const action = issues.object(rawAction, `${at}.extra.actions[${k}]`);
      const command = action ? issues.string(action.command, `${at}.extra.actions[${k}].command`) : undefined;
      if (command === undefined) return;
      toolCalls.push({ name: 'bash', arguments: { command }, resultTokens: 0, error: null });
      toolIds.push(undefined);
      commands.push(command);
    });
  }

  if (issues.count > before || promptTokens === undefined || completionTokens === undefined) return { toolIds: allIds };

  const record: CallRecord = { type: 'call', inputTokens: promptTokens, outputTokens: completionTokens };
  if (cached !== undefined) record.cachedInputTokens = cached;
  if (cacheWrite !== undefined && cacheWrite > 0) record.cacheWriteTokens = cacheWrite;
  if (reasoning !== undefined) record.reasoningTokens = reasoning;
  if (timestamp !== undefined) {
    record.latencyMs = previousTimestamp !== undefined ? Math.max(0, Math.round((timestamp - previousTimestamp) * 1000)) : 0;
  } else if (previousTimestamp === undefined) {
    record.latencyMs = 0;
  }
  if (toolCalls.length > 0) record.toolCalls = toolCalls;
  if (cost !== undefined) record.recordedCostUsd = cost;

  const submitMarker = commands.some((command) => MINI_SWE_AGENT_SUBMIT_MARKERS.some((marker) => command.includes(marker)));
  const draft: AssistantDraft = {
    call: { record, submitMarker, textModeActions },
    toolIds,
  };
  if (responseModel !== undefined) draft.responseModel = responseModel;
  return draft;
}

/**
 * Tool arguments: JSON-decoded when they are a valid JSON string, else the raw string (objects kept).
 * Stricter than `parseToolArguments` (common/toolArguments.ts): a value of another type is an issue, and a
 * blank string stays a string.
 */
function readToolArguments(issues: IssueCollector, value: unknown, field: string): unknown {
  if (value === undefined || value === null) return {};
  if (typeof value === 'string') {
    let parsed: unknown;
    try {
      parsed = JSON.parse(value) as unknown;
    } catch {
      return value;
    }
    // The parsed value nests as deep as the text: only a value past the limit has its text scanned for the place.
    const deep = pathPastDepth(parsed, MAX_ARGUMENTS_DEPTH) === undefined ? undefined : jsonTextProblem(value, { duplicates: false, maxDepth: MAX_ARGUMENTS_DEPTH });
    if (deep) issues.add(field, deep.code, `tool arguments ${deep.message}`, 'the arguments look corrupted: check the trajectory');
    return parsed;
  }
  if (isJsonObject(value)) return value;
  issues.add(field, 'wrong_type', `expected the tool arguments as a JSON string or object, got ${describeValue(value)}`);
  return value;
}

/** The shell command of a tool call's arguments ('' when there is none). */
function commandOf(args: unknown): string {
  if (typeof args === 'string') return args;
  if (isJsonObject(args) && typeof args.command === 'string') return args.command;
  return '';
}
