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
  const usage = readUsage(issues, extra, at);
  const tools = readToolCalls(issues, message, extra, at);
  if (issues.count > before || usage.promptTokens === undefined || usage.completionTokens === undefined) return { toolIds: tools.allIds };

  const record: CallRecord = { type: 'call', inputTokens: usage.promptTokens, outputTokens: usage.completionTokens };
  if (usage.cached !== undefined) record.cachedInputTokens = usage.cached;
  if (usage.cacheWrite !== undefined && usage.cacheWrite > 0) record.cacheWriteTokens = usage.cacheWrite;
  if (usage.reasoning !== undefined) record.reasoningTokens = usage.reasoning;
  if (timestamp !== undefined) {
    record.latencyMs = previousTimestamp !== undefined ? Math.max(0, Math.round((timestamp - previousTimestamp) * 1000)) : 0;
  } else if (previousTimestamp === undefined) {
    record.latencyMs = 0;
  }
  if (tools.toolCalls.length > 0) record.toolCalls = tools.toolCalls;
  if (usage.cost !== undefined) record.recordedCostUsd = usage.cost;

  const submitMarker = tools.commands.some((command) => MINI_SWE_AGENT_SUBMIT_MARKERS.some((marker) => command.includes(marker)));
  const draft: AssistantDraft = {
    call: { record, submitMarker, textModeActions: tools.textModeActions },
    toolIds: tools.toolIds,
  };
  if (usage.responseModel !== undefined) draft.responseModel = usage.responseModel;
  return draft;
}

/** What an assistant message's `extra` says of its call: usage (LiteLLM's), cost and the model that served it. */
interface MessageUsage {
  promptTokens?: number | undefined;
  completionTokens?: number | undefined;
  cached?: number | undefined;
  cacheWrite?: number | undefined;
  reasoning?: number | undefined;
  cost?: number | undefined;
  responseModel?: string | undefined;
}

/** `extra.response.usage`, `extra.cost` and `extra.response.model`; a usage that breaks a call rule is an issue. */
function readUsage(issues: IssueCollector, extra: JsonObject | undefined, at: string): MessageUsage {
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
  const cost = extra ? issues.optCostUsd(extra.cost, `${at}.extra.cost`) : undefined;
  const responseModel = response ? issues.optString(response.model, `${at}.extra.response.model`) : undefined;
  if (promptTokens !== undefined && completionTokens !== undefined) {
    const cachedField = promptDetails?.cached_tokens !== undefined ? `${u}.prompt_tokens_details.cached_tokens` : `${u}.prompt_cache_hit_tokens`;
    checkCallRules(issues, { promptTokens, completionTokens, cached, cacheWrite, reasoning }, { u, cachedField });
  }
  return { promptTokens, completionTokens, cached, cacheWrite, reasoning, cost, responseModel };
}

/** The rules every call obeys (src/trace/rules.ts), each broken one an issue named by the trajectory's own field. */
function checkCallRules(issues: IssueCollector, usage: MessageUsage & { promptTokens: number; completionTokens: number }, fieldsAt: { u: string; cachedField: string }): void {
  const { u } = fieldsAt;
  const record: CallRecord = { type: 'call', inputTokens: usage.promptTokens, outputTokens: usage.completionTokens };
  if (usage.cached !== undefined) record.cachedInputTokens = usage.cached;
  if (usage.cacheWrite !== undefined) record.cacheWriteTokens = usage.cacheWrite;
  if (usage.reasoning !== undefined) record.reasoningTokens = usage.reasoning;
  const fields: Record<string, string> = {
    cachedInputTokens: fieldsAt.cachedField,
    cacheWriteTokens: `${u}.cache_creation_input_tokens`,
    reasoningTokens: `${u}.completion_tokens_details.reasoning_tokens`,
  };
  for (const broken of callRuleViolations(record)) issues.add(fields[broken.field] ?? `${u}.prompt_tokens`, broken.code, broken.message, RULES_HINT);
}

/** An assistant message's tool calls and the commands they run. */
interface MessageTools {
  toolCalls: ToolCallRecord[];
  /** Ids of the valid tool calls, in order. */
  toolIds: (string | undefined)[];
  /** Ids of every tool call, valid or not: an invalid message still claims its tool messages. */
  allIds: (string | undefined)[];
  commands: string[];
  /** Actions came from `extra.actions` (text mode). */
  textModeActions: boolean;
}

/** Tool calls (tool-call mode), else actions parsed from text (text mode). */
function readToolCalls(issues: IssueCollector, message: JsonObject, extra: JsonObject | undefined, at: string): MessageTools {
  const tools: MessageTools = { toolCalls: [], toolIds: [], allIds: [], commands: [], textModeActions: false };
  const rawToolCalls = message.tool_calls;
  if (rawToolCalls !== undefined && rawToolCalls !== null && !Array.isArray(rawToolCalls)) {
    issues.add(`${at}.tool_calls`, 'wrong_type', `expected an array of tool calls, got ${describeValue(rawToolCalls)}`);
  } else if (Array.isArray(rawToolCalls) && rawToolCalls.length > 0) {
    for (const rawCall of rawToolCalls) {
      tools.allIds.push(isJsonObject(rawCall) && typeof rawCall.id === 'string' ? rawCall.id : undefined);
    }
    rawToolCalls.forEach((rawCall, k) => {
      const t = `${at}.tool_calls[${k}]`;
      const toolCall = issues.object(rawCall, t);
      const fn = toolCall ? issues.object(toolCall.function, `${t}.function`) : undefined;
      const name = fn ? issues.string(fn.name, `${t}.function.name`) : undefined;
      const id = toolCall ? issues.optString(toolCall.id, `${t}.id`) : undefined;
      if (!fn || name === undefined) return;
      const args = readToolArguments(issues, fn.arguments, `${t}.function.arguments`);
      tools.toolCalls.push({ name, arguments: args, resultTokens: 0, error: null });
      tools.toolIds.push(id);
      tools.commands.push(commandOf(args));
    });
  } else if (extra && Array.isArray(extra.actions) && extra.actions.length > 0) {
    tools.textModeActions = true;
    extra.actions.forEach((rawAction, k) => {
      const action = issues.object(rawAction, `${at}.extra.actions[${k}]`);
      const command = action ? issues.string(action.command, `${at}.extra.actions[${k}].command`) : undefined;
      if (command === undefined) return;
      tools.toolCalls.push({ name: 'bash', arguments: { command }, resultTokens: 0, error: null });
      tools.toolIds.push(undefined);
      tools.commands.push(command);
    });
  }
  return tools;
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
