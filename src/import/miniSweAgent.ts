/**
 * Importer for mini-swe-agent trajectories (`*.traj.json`, `trajectory_format: "mini-swe-agent-1.1"`).
 *
 * One assistant message is one model call; its `extra.response.usage` is the provider's usage as LiteLLM
 * returned it and `extra.cost` the USD LiteLLM computed for it. Tool messages answer tool calls by
 * `tool_call_id`. The run ends with an `exit` message; `info` holds the exit status and run totals.
 *
 * Also holds the small validation helpers shared with the SWE-agent importer.
 */
import { MAX_REPORTED_ISSUES, UserError, type InputIssue } from '../errors.js';
import {
  TRACE_SCHEMA,
  type CallRecord,
  type RecordedOutcome,
  type RecordedSettings,
  type ToolCallRecord,
  type Trace,
  type TraceHeader,
} from '../trace/types.js';
import { countTokens, encodingForModel, isApproximateTokenizer } from './tokenCount.js';

export const MINI_SWE_AGENT_FORMAT = 'mini-swe-agent';

/** First output line with which a mini-swe-agent command submits (2.x and 1.x spellings). */
export const MINI_SWE_AGENT_SUBMIT_MARKERS = ['COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT', 'MINI_SWE_AGENT_FINAL_OUTPUT'];

/** Longest tool error / failure text we keep (deterministic prefix, so equal failures compare equal). */
export const MAX_ERROR_TEXT = 200;

export interface MiniSweAgentImportOptions {
  /**
   * The API call that ended a run with an exception (`InternalServerError`, `Timeout`) is counted in
   * `info.model_stats.api_calls` but has no assistant message. `record` (default) appends it as a call with
   * `failed` set and zero usage, so the call count equals `api_calls`; `omit` leaves it out.
   */
  failedCall?: 'record' | 'omit';
}

// ---------------------------------------------------------------------------------------------------------
// Shared helpers (also used by sweAgent.ts)

export type JsonObject = Record<string, unknown>;

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  if (typeof value === 'object') return 'an object';
  return `${typeof value} ${String(value)}`;
}

/** Collects input issues (at most MAX_REPORTED_ISSUES) and throws them as one UserError. */
export class IssueCollector {
  readonly issues: InputIssue[] = [];
  private extra = 0;

  constructor(
    readonly file: string,
    private readonly defaultHint: string,
  ) {}

  add(field: string | undefined, code: string, message: string, hint?: string): void {
    if (this.issues.length >= MAX_REPORTED_ISSUES) {
      this.extra += 1;
      return;
    }
    const issue: InputIssue = { file: this.file, code, message, hint: hint ?? this.defaultHint };
    if (field !== undefined && field !== '') issue.field = field;
    this.issues.push(issue);
  }

  get count(): number {
    return this.issues.length + this.extra;
  }

  throwIfAny(): void {
    if (this.issues.length === 0) return;
    const issues = [...this.issues];
    if (this.extra > 0) {
      const last = issues[issues.length - 1]!;
      issues[issues.length - 1] = {
        ...last,
        message: `${last.message} (and ${this.extra} more issue${this.extra === 1 ? '' : 's'} not shown)`,
      };
    }
    throw new UserError(issues);
  }

  /** Required object. */
  object(value: unknown, field: string): JsonObject | undefined {
    if (value === undefined || value === null) {
      this.add(field, 'missing_field', 'is missing (expected an object)');
      return undefined;
    }
    if (!isJsonObject(value)) {
      this.add(field, 'wrong_type', `expected an object, got ${describe(value)}`);
      return undefined;
    }
    return value;
  }

  /** Optional object (null and absent both mean absent). */
  optObject(value: unknown, field: string): JsonObject | undefined {
    if (value === undefined || value === null) return undefined;
    return this.object(value, field);
  }

  string(value: unknown, field: string): string | undefined {
    if (value === undefined || value === null) {
      this.add(field, 'missing_field', 'is missing (expected a string)');
      return undefined;
    }
    if (typeof value !== 'string') {
      this.add(field, 'wrong_type', `expected a string, got ${describe(value)}`);
      return undefined;
    }
    return value;
  }

  optString(value: unknown, field: string): string | undefined {
    if (value === undefined || value === null) return undefined;
    return this.string(value, field);
  }

  /** Required non-negative integer (token counts). */
  reqCount(value: unknown, field: string, what = 'a token count'): number | undefined {
    if (value === undefined || value === null) {
      this.add(field, 'missing_field', `is missing (expected ${what}, a non-negative integer)`);
      return undefined;
    }
    return this.checkInteger(value, field, what);
  }

  optCount(value: unknown, field: string, what = 'a token count'): number | undefined {
    if (value === undefined || value === null) return undefined;
    return this.checkInteger(value, field, what);
  }

  private checkInteger(value: unknown, field: string, what: string): number | undefined {
    if (typeof value !== 'number' || !Number.isFinite(value)) {
      this.add(field, 'wrong_type', `expected ${what} (a non-negative integer), got ${describe(value)}`);
      return undefined;
    }
    if (value < 0) {
      this.add(field, 'negative_number', `expected ${what} ≥ 0, got ${value}`);
      return undefined;
    }
    if (!Number.isInteger(value)) {
      this.add(field, 'not_integer', `expected ${what} (an integer), got ${value}`);
      return undefined;
    }
    return value;
  }

  /** Optional non-negative finite number (USD amounts, limits). */
  optAmount(value: unknown, field: string, what = 'an amount'): number | undefined {
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'number' || !Number.isFinite(value)) {
      this.add(field, 'wrong_type', `expected ${what} (a number), got ${describe(value)}`);
      return undefined;
    }
    if (value < 0) {
      this.add(field, 'negative_number', `expected ${what} ≥ 0, got ${value}`);
      return undefined;
    }
    return value;
  }

  /** Optional finite number of any sign (timestamps, return codes). */
  optNumber(value: unknown, field: string, what = 'a number'): number | undefined {
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'number' || !Number.isFinite(value)) {
      this.add(field, 'wrong_type', `expected ${what}, got ${describe(value)}`);
      return undefined;
    }
    return value;
  }
}

/** JSON.parse with a UserError (line of the syntax error when V8 reports a position) instead of a SyntaxError. */
export function parseJsonDocument(content: string, path: string, what: string): unknown {
  const text = content.charCodeAt(0) === 0xfeff ? content.slice(1) : content;
  if (text.trim() === '') {
    throw new UserError({
      file: path,
      code: 'empty_file',
      message: `the file is empty, expected a ${what} (one JSON document)`,
      hint: 'check that the right file was given and that it was fully written',
    });
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const position = /at position (\d+)/.exec(message);
    const truncated = /end of JSON input|Unterminated string/i.test(message);
    const issue: InputIssue = {
      file: path,
      code: 'invalid_json',
      message: `not valid JSON (${message})${truncated ? ': the document ends too early' : ''}`,
      hint: truncated
        ? `the ${what} looks truncated: copy or decompress it again, or wait until the agent has finished writing it`
        : `the ${what} must be one JSON document: fix the syntax at the line shown or export the run again`,
    };
    if (position) issue.line = lineOfOffset(text, Number(position[1]));
    throw new UserError(issue);
  }
}

function lineOfOffset(text: string, offset: number): number {
  let line = 1;
  const end = Math.min(offset, text.length);
  for (let i = 0; i < end; i++) if (text.charCodeAt(i) === 10) line += 1;
  return line;
}

/** Provider id from a model name: an explicit `provider/` prefix, else the model family. */
export function inferProvider(model: string): string | undefined {
  const lower = model.toLowerCase();
  const slash = lower.indexOf('/');
  if (slash > 0) {
    const prefix = lower.slice(0, slash);
    if (/^[a-z][a-z0-9_-]*$/.test(prefix)) return prefix;
  }
  const bare = lower.slice(lower.lastIndexOf('/') + 1);
  if (/^claude/.test(bare)) return 'anthropic';
  if (/^(gpt|chatgpt|o[1-9](\b|-|$)|text-|davinci|codex)/.test(bare)) return 'openai';
  if (/^deepseek/.test(bare)) return 'deepseek';
  if (/^gemini/.test(bare)) return 'google';
  if (/^(mistral|codestral|magistral|devstral)/.test(bare)) return 'mistral';
  return undefined;
}

/** Cut to MAX_ERROR_TEXT characters on one line. */
export function shortText(text: string): string {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  return oneLine.length <= MAX_ERROR_TEXT ? oneLine : `${oneLine.slice(0, MAX_ERROR_TEXT - 1)}…`;
}

export function lastNonEmptyLine(text: string): string | undefined {
  const lines = text.split(/\r?\n/);
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i]!.trim();
    if (line !== '') return line;
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------------------
// Detection

/** Cheap check on the parsed JSON: a mini-swe-agent trajectory (top-level `messages` + `info`). */
export function looksLikeMiniSweAgent(parsed: unknown): boolean {
  if (!isJsonObject(parsed) || !Array.isArray(parsed.messages) || !isJsonObject(parsed.info)) return false;
  const format = parsed.trajectory_format;
  if (typeof format === 'string') return format.startsWith('mini-swe-agent');
  return 'mini_version' in parsed.info || isJsonObject(parsed.info.model_stats);
}

// ---------------------------------------------------------------------------------------------------------
// Import

interface PendingTool {
  callIndex: number;
  toolIndex: number;
  id?: string;
  answered: boolean;
  timestamp?: number;
}

const HINT =
  'expected a mini-swe-agent trajectory as written by mini-swe-agent (trajectory_format mini-swe-agent-1.1): export the run again or fix the field named';

/** Statuses mini-swe-agent writes to `info.exit_status` (exception class names) → outcome. */
export function miniSweAgentOutcome(status: string | undefined): RecordedOutcome {
  if (status === undefined) return 'unknown';
  if (status === 'Submitted') return 'completed';
  if (/timeout/i.test(status)) return 'timeout';
  if (/^LimitsExceeded$|limit/i.test(status)) return 'limit';
  return 'error';
}

/** LiteLLM exception class → the HTTP status LiteLLM attaches to it. */
const LITELLM_STATUS: Record<string, number> = {
  BadRequestError: 400,
  AuthenticationError: 401,
  PermissionDeniedError: 403,
  NotFoundError: 404,
  Timeout: 408,
  UnprocessableEntityError: 422,
  RateLimitError: 429,
  ContextWindowExceededError: 400,
  InternalServerError: 500,
  APIConnectionError: 500,
  APIError: 500,
  BadGatewayError: 502,
  ServiceUnavailableError: 503,
};

export function importMiniSweAgent(content: string, path: string, opts: MiniSweAgentImportOptions = {}): Trace[] {
  const parsed = parseJsonDocument(content, path, 'mini-swe-agent trajectory');
  const issues = new IssueCollector(path, HINT);
  if (!isJsonObject(parsed)) {
    issues.add(undefined, 'wrong_type', `expected a JSON object with "info" and "messages", got ${describe(parsed)}`);
    issues.throwIfAny();
    throw new Error('unreachable');
  }

  // --- info -------------------------------------------------------------------------------------------
  const info = issues.object(parsed.info, 'info');
  const exitStatus = info ? issues.optString(info.exit_status, 'info.exit_status') : undefined;
  const modelStats = info ? issues.optObject(info.model_stats, 'info.model_stats') : undefined;
  const instanceCost = modelStats
    ? issues.optAmount(modelStats.instance_cost, 'info.model_stats.instance_cost', 'a cost in USD')
    : undefined;
  const apiCalls = modelStats ? issues.optCount(modelStats.api_calls, 'info.model_stats.api_calls', 'a call count') : undefined;
  const config = info ? issues.optObject(info.config, 'info.config') : undefined;
  const agentConfig = config ? issues.optObject(config.agent, 'info.config.agent') : undefined;
  const modelConfig = config ? issues.optObject(config.model, 'info.config.model') : undefined;
  let model = modelConfig ? issues.optString(modelConfig.model_name, 'info.config.model.model_name') : undefined;
  const stepLimit = agentConfig ? issues.optCount(agentConfig.step_limit, 'info.config.agent.step_limit', 'a step limit') : undefined;
  const costLimit = agentConfig
    ? issues.optAmount(agentConfig.cost_limit, 'info.config.agent.cost_limit', 'a cost limit in USD')
    : undefined;
  const task = issues.optString(parsed.instance_id, 'instance_id');

  // --- messages ---------------------------------------------------------------------------------------
  if (!Array.isArray(parsed.messages)) {
    if (parsed.messages === undefined || parsed.messages === null) {
      issues.add('messages', 'missing_field', 'is missing (expected the array of chat messages)');
    } else issues.add('messages', 'wrong_type', `expected an array of chat messages, got ${describe(parsed.messages)}`);
    issues.throwIfAny();
  }
  const messages = parsed.messages as unknown[];

  interface ToolResultDraft {
    tool: PendingTool;
    text: string;
  }
  const calls: CallDraft[] = [];
  const toolResults: ToolResultDraft[] = [];
  const byId = new Map<string, PendingTool>();
  let pending: PendingTool[] = [];
  let systemText: string | undefined;
  let goalText: string | undefined;
  let lastTimestamp: number | undefined;
  let exitMessage: JsonObject | undefined;
  let responseModel: string | undefined;
  let sumInput = 0;
  let sumOutput = 0;

  messages.forEach((raw, i) => {
    const at = `messages[${i}]`;
    const message = issues.object(raw, at);
    if (!message) return;
    const role = issues.string(message.role, `${at}.role`);
    if (role === undefined) return;
    const extra = issues.optObject(message.extra, `${at}.extra`);
    const timestamp = extra ? issues.optNumber(extra.timestamp, `${at}.extra.timestamp`, 'a unix time in seconds') : undefined;

    if (role === 'system') {
      if (systemText === undefined) systemText = contentText(issues, message.content, `${at}.content`);
    } else if (role === 'user') {
      const text = contentText(issues, message.content, `${at}.content`);
      if (goalText === undefined) goalText = text;
      else {
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
      const draft = readAssistant(issues, message, extra, at, timestamp, lastTimestamp);
      // An invalid assistant message (already reported) still claims its tool messages: no cascade of issues.
      const callIndex = draft.call ? calls.length : -1;
      if (draft.call) {
        calls.push(draft.call);
        sumInput += draft.call.record.inputTokens ?? 0;
        sumOutput += draft.call.record.outputTokens;
        responseModel ??= draft.responseModel;
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
      const text = contentText(issues, message.content, `${at}.content`);
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
    if (timestamp !== undefined) lastTimestamp = timestamp;
  });

  model ??= responseModel;
  if (model === undefined && issues.count === 0) {
    issues.add(
      'info.config.model.model_name',
      'missing_field',
      'is missing and no assistant message names a model: the model cannot be priced',
    );
  }
  issues.throwIfAny();
  const modelName = model!;

  // --- token counts that need the model ---------------------------------------------------------------
  for (const { tool, text } of toolResults) {
    calls[tool.callIndex]!.record.toolCalls![tool.toolIndex]!.resultTokens = countTokens(text, modelName);
  }

  // --- final / unparseable ----------------------------------------------------------------------------
  // mini-swe-agent finishes only through a command whose output starts with the submit marker; a reply
  // without any tool call is a format error it answers with a user message and continues after.
  const lastCall = calls[calls.length - 1];
  for (const draft of calls) {
    const hasTools = (draft.record.toolCalls?.length ?? 0) > 0;
    if (draft === lastCall && (draft.submitMarker || exitStatus === 'Submitted')) draft.record.final = true;
    else if (!hasTools) draft.record.unparseable = true;
  }

  const notes: string[] = [];
  const records = calls.map((draft) => draft.record);

  // --- the API call that failed and ended the run -----------------------------------------------------
  const failedText = exitMessage ? exitFailureText(exitMessage) : undefined;
  const missingCalls = apiCalls !== undefined ? apiCalls - records.length : 0;
  if (missingCalls === 1 && exitStatus !== undefined && exitStatus !== 'Submitted' && failedText !== undefined) {
    const failedRecord = failedCallRecord(failedText);
    if ((opts.failedCall ?? 'record') === 'record') {
      records.push(failedRecord);
      notes.push(
        `the last API call failed (${failedText.split(':')[0]}) and has no assistant message: recorded as a failed call with zero usage so the call count matches api_calls`,
      );
    } else {
      notes.push(`the last API call failed (${failedText.split(':')[0]}): omitted, so there is one call fewer than api_calls`);
    }
  } else if (apiCalls !== undefined && missingCalls !== 0) {
    notes.push(`info.model_stats.api_calls is ${apiCalls} but the trajectory holds ${records.length} assistant messages`);
  }
  if (toolResults.length > 0 && isApproximateTokenizer(modelName)) {
    notes.push(
      `tool result tokens counted with ${encodingForModel(modelName)}, an approximation for ${modelName}`,
    );
  }

  // --- header / end -----------------------------------------------------------------------------------
  const recordedSettings: RecordedSettings = {};
  if (stepLimit !== undefined && stepLimit > 0) recordedSettings.maxSteps = stepLimit;
  if (costLimit !== undefined && costLimit > 0) recordedSettings.maxCostUsd = costLimit;

  const header: TraceHeader = {
    type: 'header',
    schema: TRACE_SCHEMA,
    model: modelName,
    systemTokens: systemText !== undefined ? countTokens(systemText, modelName) : 0,
    goalTokens: goalText !== undefined ? countTokens(goalText, modelName) : 0,
    origin: 'recorded',
    importedFrom: { format: MINI_SWE_AGENT_FORMAT, path, ...(notes.length > 0 ? { notes } : {}) },
  };
  const provider = inferProvider(modelName);
  if (provider !== undefined) header.provider = provider;
  if (task !== undefined) header.task = task;
  if (Object.keys(recordedSettings).length > 0) header.recordedSettings = recordedSettings;

  const trace: Trace = {
    source: path,
    header,
    calls: records,
    end: {
      type: 'end',
      outcome: miniSweAgentOutcome(exitStatus),
      recordedInputTokens: sumInput,
      recordedOutputTokens: sumOutput,
    },
  };
  if (exitStatus !== undefined) trace.end.status = exitStatus;
  if (instanceCost !== undefined) trace.end.recordedCostUsd = instanceCost;
  if (apiCalls !== undefined) trace.end.recordedCalls = apiCalls;
  return [trace];
}

function contentText(issues: IssueCollector, value: unknown, field: string): string | undefined {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  // OpenAI content parts: [{type: 'text', text: '...'}]
  if (Array.isArray(value)) {
    const parts: string[] = [];
    for (const [k, part] of value.entries()) {
      if (isJsonObject(part) && typeof part.text === 'string') parts.push(part.text);
      else if (typeof part === 'string') parts.push(part);
      else if (!(isJsonObject(part) && typeof part.type === 'string')) {
        issues.add(`${field}[${k}]`, 'wrong_type', `expected a content part with "text", got ${describe(part)}`);
        return undefined;
      }
    }
    return parts.join('\n');
  }
  issues.add(field, 'wrong_type', `expected the message text (a string), got ${describe(value)}`);
  return undefined;
}

interface CallDraft {
  record: CallRecord;
  /** One of its commands carries the submit marker. */
  submitMarker: boolean;
  /** Actions came from `extra.actions` (text mode): results arrive as user messages. */
  textModeActions: boolean;
}

interface AssistantDraft {
  /** Undefined when the message is invalid (its issues are collected). */
  call?: CallDraft;
  toolIds: (string | undefined)[];
  responseModel?: string;
}

function readAssistant(
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

  if (promptTokens !== undefined && cached !== undefined && cached > promptTokens) {
    issues.add(`${u}.prompt_tokens_details.cached_tokens`, 'invalid_value', `cached tokens (${cached}) exceed prompt_tokens (${promptTokens})`);
  }
  if (completionTokens !== undefined && reasoning !== undefined && reasoning > completionTokens) {
    issues.add(
      `${u}.completion_tokens_details.reasoning_tokens`,
      'invalid_value',
      `reasoning tokens (${reasoning}) exceed completion_tokens (${completionTokens})`,
    );
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
    issues.add(`${at}.tool_calls`, 'wrong_type', `expected an array of tool calls, got ${describe(rawToolCalls)}`);
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
      const args = parseArguments(issues, fn.arguments, `${t}.function.arguments`);
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

/** Tool arguments: JSON-decoded when they are a valid JSON string, else the raw string (objects kept). */
function parseArguments(issues: IssueCollector, value: unknown, field: string): unknown {
  if (value === undefined || value === null) return {};
  if (typeof value === 'string') {
    try {
      return JSON.parse(value) as unknown;
    } catch {
      return value;
    }
  }
  if (isJsonObject(value)) return value;
  issues.add(field, 'wrong_type', `expected the tool arguments as a JSON string or object, got ${describe(value)}`);
  return value;
}

function commandOf(args: unknown): string {
  if (typeof args === 'string') return args;
  if (isJsonObject(args) && typeof args.command === 'string') return args.command;
  return '';
}

function parseReturnCode(text: string): number | undefined {
  const match = /<returncode>\s*(-?\d+)\s*<\/returncode>/.exec(text);
  return match ? Number(match[1]) : undefined;
}

/** The command's own output: `extra.raw_output`, else the `<output>` element of the observation. */
function outputOf(text: string, rawOutput: string | undefined): string {
  if (rawOutput !== undefined) return rawOutput;
  const match = /<output>([\s\S]*?)(<\/output>|$)/.exec(text);
  return match ? match[1]! : text;
}

/**
 * Error text for a failed command: `returncode N: <last non-empty output line>` (the last line is where a
 * traceback names the exception), `returncode N: <exception type>` when the command raised (timeout), or
 * `returncode N` for silent failures (grep without a match). ≤ MAX_ERROR_TEXT characters.
 */
function applyReturnCode(
  tool: ToolCallRecord,
  returnCode: number | undefined,
  output: string,
  exceptionType: string | undefined,
): void {
  if (returnCode === undefined || returnCode === 0) {
    tool.error = exceptionType !== undefined ? shortText(exceptionType) : null;
    return;
  }
  const detail = exceptionType ?? lastNonEmptyLine(output);
  tool.error = shortText(detail !== undefined ? `returncode ${returnCode}: ${detail}` : `returncode ${returnCode}`);
}

function exitFailureText(exit: JsonObject): string | undefined {
  const extra = isJsonObject(exit.extra) ? exit.extra : {};
  const text =
    typeof extra.exception_str === 'string' ? extra.exception_str : typeof exit.content === 'string' ? exit.content : undefined;
  if (text === undefined || text.trim() === '') return undefined;
  return text.split(/\r?\n/)[0]!.trim();
}

function failedCallRecord(failureText: string): CallRecord {
  const record: CallRecord = {
    type: 'call',
    inputTokens: 0,
    outputTokens: 0,
    recordedCostUsd: 0,
    failed: { message: shortText(failureText) },
  };
  const litellmClass = /litellm\.(\w+)/.exec(failureText)?.[1];
  const status = litellmClass !== undefined ? LITELLM_STATUS[litellmClass] : undefined;
  if (status !== undefined) record.failed!.status = status;
  const waited = /after ([\d.]+) seconds/.exec(failureText);
  if (waited) record.latencyMs = Math.round(Number(waited[1]) * 1000);
  return record;
}
