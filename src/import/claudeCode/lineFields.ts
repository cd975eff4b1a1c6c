/**
 * What one Claude Code transcript line says, read and validated field by field: an assistant line's
 * response (model, ids, usage, content blocks), an API error (a `<synthetic>` assistant line or an
 * `api_error` system line), a user line's tool results and text, a progress line's sub-agent link.
 */
import type { IssueCollector } from '../common/issues.js';
import { isJsonObject, type JsonObject } from '../common/jsonValue.js';
import { flattenText } from '../common/contentText.js';
import { clip } from '../common/text.js';
import { refusalInText } from '../common/contextRefusal.js';
import { isFailureStatus } from '../../trace/rules.js';
import { readUsage, type ClaudeUsage } from './usage.js';
import { imagesOf } from './imageTokens.js';

export type { ClaudeUsage };
import { CLAUDE_CODE_LINE_TYPES } from '../formats.js';
import type { ContextLengthExceeded } from '../../trace/types.js';
import type { ReportedUsage } from './transcriptTypes.js';

export interface ToolUseBlock {
  id: string;
  name: string;
  input: unknown;
}

/** One streamed piece of a response: the lines of a response share `key` and repeat the usage. */
export interface AssistantLine {
  /** `message.id|requestId`: one model call. */
  key: string;
  model: string;
  usage: ClaudeUsage;
  toolUses: ToolUseBlock[];
  /** Text of the text, thinking and tool_use blocks of this line (to compare output_tokens with). */
  visibleText: string;
  thinking: boolean;
  stopReason?: string;
}

/** A call that failed at the provider (a refusal for length: Anthropic's "prompt is too long"). */
export interface ApiFailure {
  status?: number;
  message: string;
  contextLengthExceeded?: ContextLengthExceeded;
}

/** `failure` with the refusal for length its words say, if they say one (common/contextRefusal.ts). */
function withRefusal(failure: ApiFailure, words: string): ApiFailure {
  const refusal = refusalInText(words);
  return refusal === undefined ? failure : { ...failure, contextLengthExceeded: refusal };
}

export const SYNTHETIC_MODEL = '<synthetic>';

function readBlocks(fields: IssueCollector, content: unknown, at: string): Pick<AssistantLine, 'toolUses' | 'visibleText' | 'thinking'> {
  const toolUses: ToolUseBlock[] = [];
  const texts: string[] = [];
  let thinking = false;
  const blocks = Array.isArray(content) ? content : typeof content === 'string' ? [{ type: 'text', text: content }] : [];
  blocks.forEach((block, k) => {
    if (!isJsonObject(block)) return;
    if (block.type === 'tool_use' || block.type === 'server_tool_use') {
      const id = fields.string(block.id, `${at}[${k}].id`);
      const name = fields.string(block.name, `${at}[${k}].name`);
      if (id !== undefined && name !== undefined && block.type === 'tool_use') toolUses.push({ id, name, input: block.input ?? {} });
      texts.push(JSON.stringify(block.input ?? {}));
    } else if (block.type === 'text' && typeof block.text === 'string') {
      texts.push(block.text);
    } else if (block.type === 'thinking') {
      thinking = true;
      if (typeof block.thinking === 'string') texts.push(block.thinking);
    } else if (block.type === 'redacted_thinking') {
      thinking = true;
    }
  });
  return { toolUses, visibleText: texts.join('\n'), thinking };
}

/** An assistant line of a real response (not `<synthetic>`); undefined when invalid (issues collected). */
export function readAssistantLine(fields: IssueCollector, line: JsonObject): AssistantLine | undefined {
  const message = fields.object(line.message, 'message');
  if (!message) return undefined;
  const model = fields.string(message.model, 'message.model');
  const id = fields.string(message.id, 'message.id');
  const requestId = fields.optString(line.requestId, 'requestId');
  const usage = readUsage(fields, message.usage, 'message.usage');
  const blocks = readBlocks(fields, message.content, 'message.content');
  if (model === undefined || id === undefined || usage === undefined) return undefined;
  const result: AssistantLine = { key: `${id}|${requestId ?? ''}`, model, usage, ...blocks };
  if (typeof message.stop_reason === 'string') result.stopReason = message.stop_reason;
  return result;
}

/**
 * The type of a line of no Claude Code line type loopcost knows that carries a model response's usage
 * (`message.usage`), as JSON shows it (`"alien"`): such a line is not read, and what it records is missing
 * from the totals (transcript.ts notes it). Undefined for every other line (an unknown type without usage
 * records no cost: skipped as Claude Code's bookkeeping).
 */
export function unreadResponseType(line: JsonObject): string | undefined {
  if (typeof line.type === 'string' && CLAUDE_CODE_LINE_TYPES.has(line.type)) return undefined;
  return isJsonObject(line.message) && isJsonObject(line.message.usage) ? clip(JSON.stringify(line.type ?? null), 40) : undefined;
}

/** A transcript's lines of which `unreadResponseType` gives a type: how many, the first's line and type. */
export interface UnreadLines {
  count: number;
  line: number;
  type: string;
}

export function isSyntheticLine(line: JsonObject): boolean {
  return isJsonObject(line.message) && line.message.model === SYNTHETIC_MODEL;
}

/** A `<synthetic>` assistant line Claude Code wrote in the model's place when a call failed for good. */
export function syntheticFailure(line: JsonObject): ApiFailure | undefined {
  if (line.isApiErrorMessage !== true) return undefined;
  const text = isJsonObject(line.message) ? flattenText(line.message.content) : '';
  const failure: ApiFailure = { message: text.trim() || (typeof line.error === 'string' ? line.error : 'API error') };
  const status = typeof line.apiErrorStatus === 'number' ? line.apiErrorStatus : Number(/API Error: (\d{3})/.exec(text)?.[1]);
  if (isFailureStatus(status)) failure.status = status;
  return withRefusal(failure, failure.message);
}

/** A `system` line with subtype `api_error`: one attempt failed and is retried. */
export function apiErrorFailure(line: JsonObject): ApiFailure | undefined {
  if (line.type !== 'system' || line.subtype !== 'api_error') return undefined;
  const error = isJsonObject(line.error) ? line.error : {};
  const body = isJsonObject(error.error) ? error.error : undefined;
  const detail = body && isJsonObject(body.error) ? body.error : undefined;
  const cause = isJsonObject(error.cause) ? error.cause : isJsonObject(line.cause) ? line.cause : undefined;
  const words = [
    typeof detail?.type === 'string' ? detail.type : typeof error.type === 'string' ? error.type : undefined,
    typeof detail?.message === 'string' ? detail.message : typeof error.message === 'string' ? error.message : undefined,
    typeof cause?.code === 'string' ? cause.code : undefined,
  ].filter((word): word is string => word !== undefined);
  const retry =
    typeof line.retryAttempt === 'number' && typeof line.maxRetries === 'number' ? ` (retry ${line.retryAttempt} of ${line.maxRetries})` : '';
  const failure: ApiFailure = { message: `${words.length > 0 ? words.join(': ') : 'API error'}${retry}` };
  if (isFailureStatus(error.status)) failure.status = error.status;
  return withRefusal(failure, words.join(': '));
}

/** `agent_progress` line: the sub-agent `agentId` was started by the tool call `parentToolUseID`. */
export function progressLink(line: JsonObject): { agentId: string; toolUseId: string } | undefined {
  if (line.type !== 'progress' || !isJsonObject(line.data) || line.data.type !== 'agent_progress') return undefined;
  const agentId = line.data.agentId;
  const toolUseId = line.parentToolUseID;
  return typeof agentId === 'string' && agentId !== '' && typeof toolUseId === 'string' && toolUseId !== '' ? { agentId, toolUseId } : undefined;
}

export interface ToolResultBlock {
  toolUseId: string;
  text: string;
  isError: boolean;
  /** Image blocks of the result (imageTokens.ts), and their estimated tokens: 0 when none. */
  images: number;
  imageTokens: number;
}

/** The tool results of a user line. */
export function toolResults(line: JsonObject): ToolResultBlock[] {
  const message = isJsonObject(line.message) ? line.message : undefined;
  if (!message || !Array.isArray(message.content)) return [];
  const results: ToolResultBlock[] = [];
  for (const block of message.content) {
    if (!isJsonObject(block) || block.type !== 'tool_result' || typeof block.tool_use_id !== 'string') continue;
    const { images, tokens } = imagesOf(block.content);
    results.push({ toolUseId: block.tool_use_id, text: flattenText(block.content), isError: block.is_error === true, images, imageTokens: tokens });
  }
  return results;
}

/** The text a person (or a command) typed: a user line that is not a tool result, meta line or compaction summary. */
export function promptText(line: JsonObject): string | undefined {
  if (line.isMeta === true || line.isCompactSummary === true) return undefined;
  const message = isJsonObject(line.message) ? line.message : undefined;
  if (!message) return undefined;
  if (typeof message.content === 'string') return message.content;
  if (!Array.isArray(message.content) || message.content.some((block) => isJsonObject(block) && block.type === 'tool_result')) return undefined;
  const text = flattenText(message.content);
  return text === '' ? undefined : text;
}

/** A Task result's `toolUseResult.status` when the sub-agent was launched in the background (the call returned at once). */
const BACKGROUND_LAUNCH = 'async_launched';

/** A token count a Task result reports: a non-negative integer, else undefined. */
function reportedCount(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : undefined;
}

/** A Task result's `toolUseResult.usage` (the billed usage of the sub-agent's final response), when it gives every token count. */
function reportedUsage(usage: unknown): Omit<ReportedUsage, 'line'> | undefined {
  if (!isJsonObject(usage)) return undefined;
  const [input, cacheWrite, cacheRead, output] = ['input_tokens', 'cache_creation_input_tokens', 'cache_read_input_tokens', 'output_tokens'].map((key) => reportedCount(usage[key]));
  if (input === undefined || cacheWrite === undefined || cacheRead === undefined || output === undefined) return undefined;
  return { input, cacheWrite, cacheRead, output };
}

/**
 * `toolUseResult` of a Task result: the sub-agent the answered tool call ran, the usage its final
 * response was billed (`usage`, when it gives every token count), and whether it ran in the background
 * (`status: "async_launched"` or `isAsync: true`: the call returned at launch; another status: it returned
 * when the sub-agent ended; no status: not said).
 */
export function taskResult(line: JsonObject): { agentId: string; reported?: Omit<ReportedUsage, 'line'>; background?: boolean } | undefined {
  const result = line.toolUseResult;
  if (!isJsonObject(result) || typeof result.agentId !== 'string' || result.agentId === '') return undefined;
  const reported = reportedUsage(result.usage);
  const background = result.status === BACKGROUND_LAUNCH || result.isAsync === true ? true : typeof result.status === 'string' ? false : undefined;
  return {
    agentId: result.agentId,
    ...(reported === undefined ? {} : { reported }),
    ...(background === undefined ? {} : { background }),
  };
}

/** A tool call's arguments asking for its sub-agent to run in the background (the Task tool's `run_in_background: true`). */
export function asksForBackground(input: unknown): boolean {
  return isJsonObject(input) && input.run_in_background === true;
}
