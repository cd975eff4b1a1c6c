/**
 * What one Codex CLI rollout line says. A rollout (`~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl`) is
 * one `RolloutLine` per line: `{timestamp, type, payload}` with `type` one of `session_meta`,
 * `response_item`, `event_msg`, `turn_context`, `compacted` (codex-rs/protocol/src/protocol.rs,
 * `RolloutItem`). Model output and tool traffic are `response_item`s (codex-rs/protocol/src/models.rs,
 * `ResponseItem`); usage is the `token_count` event: `info.last_token_usage` is the last response's,
 * `info.total_token_usage` the session's running sum (`input_tokens` includes `cached_input_tokens`,
 * `output_tokens` includes `reasoning_output_tokens`, as in the Responses API).
 */
import { callRuleViolations, RULES_HINT } from '../../trace/rules.js';
import type { IssueCollector } from '../common/issues.js';
import { flattenText } from '../common/contentText.js';
import { isJsonObject, type JsonObject } from '../common/jsonValue.js';
import { lastNonEmptyLine, shortText } from '../common/text.js';

const ROLLOUT_TYPES = new Set(['session_meta', 'response_item', 'event_msg', 'turn_context', 'compacted', 'world_state', 'inter_agent_communication']);

/** A parsed line of a Codex rollout: `{timestamp, type, payload}` with a rollout item type. */
export function looksLikeCodexRolloutLine(value: unknown): boolean {
  return isJsonObject(value) && typeof value.timestamp === 'string' && typeof value.type === 'string' && ROLLOUT_TYPES.has(value.type) && isJsonObject(value.payload);
}

export interface CodexUsage {
  input: number;
  cached: number;
  output: number;
  reasoning: number;
}

/** The usage fields of a call (src/trace/types.ts) as a Codex usage block names them. */
const USAGE_FIELDS: Record<string, string> = { inputTokens: 'input_tokens', cachedInputTokens: 'cached_input_tokens', outputTokens: 'output_tokens', reasoningTokens: 'reasoning_output_tokens' };

/**
 * A usage block, held to the rules every call obeys (src/trace/rules.ts: cached input part of the input,
 * reasoning part of the output, as Codex copies them from the Responses API), each broken one named at its field.
 */
function readUsage(fields: IssueCollector, raw: unknown, at: string): CodexUsage | undefined {
  const usage = fields.object(raw, at);
  if (!usage) return undefined;
  const input = fields.reqCount(usage.input_tokens, `${at}.input_tokens`);
  const cached = fields.optCount(usage.cached_input_tokens, `${at}.cached_input_tokens`) ?? 0;
  const output = fields.reqCount(usage.output_tokens, `${at}.output_tokens`);
  const reasoning = fields.optCount(usage.reasoning_output_tokens, `${at}.reasoning_output_tokens`) ?? 0;
  if (input === undefined || output === undefined) return undefined;
  const broken = callRuleViolations({ type: 'call', inputTokens: input, cachedInputTokens: cached, outputTokens: output, reasoningTokens: reasoning });
  for (const { field, code, message, hint } of broken) fields.add(`${at}.${USAGE_FIELDS[field] ?? 'input_tokens'}`, code, message, hint ?? RULES_HINT);
  return broken.length === 0 ? { input, cached, output, reasoning } : undefined;
}

export interface TokenCount {
  /** The session's running sum, as a key: an event that repeats it is no new call. */
  totalKey: string;
  /** This response's usage (`last_token_usage`). */
  last: CodexUsage;
}

/** A `token_count` event with usage; undefined for one without (`info: null`, rate limits only). */
export function readTokenCount(fields: IssueCollector, payload: JsonObject): TokenCount | undefined {
  if (payload.info === null || payload.info === undefined) return undefined;
  const info = fields.object(payload.info, 'payload.info');
  if (!info) return undefined;
  const total = readUsage(fields, info.total_token_usage, 'payload.info.total_token_usage');
  const last = readUsage(fields, info.last_token_usage, 'payload.info.last_token_usage');
  if (!total || !last) return undefined;
  return { totalKey: `${total.input}/${total.cached}/${total.output}/${total.reasoning}`, last };
}

/** A tool call the model made: `function_call`, `custom_tool_call` or `local_shell_call`. */
export interface CodexToolCall {
  callId: string;
  name: string;
  arguments: unknown;
}

/** The response items the model produced (anything but a user message or a tool output). */
export function isModelOutput(payload: JsonObject): boolean {
  if (payload.type === 'message') return payload.role === 'assistant';
  return ['reasoning', 'function_call', 'custom_tool_call', 'local_shell_call', 'web_search_call'].includes(payload.type as string);
}

function parseArguments(raw: unknown): unknown {
  if (typeof raw !== 'string') return raw ?? {};
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return raw;
  }
}

export function readToolCall(fields: IssueCollector, payload: JsonObject): CodexToolCall | undefined {
  if (payload.type === 'function_call') {
    const name = fields.string(payload.name, 'payload.name');
    const callId = fields.string(payload.call_id, 'payload.call_id');
    return name !== undefined && callId !== undefined ? { callId, name, arguments: parseArguments(payload.arguments) } : undefined;
  }
  if (payload.type === 'custom_tool_call') {
    const name = fields.string(payload.name, 'payload.name');
    const callId = fields.string(payload.call_id, 'payload.call_id');
    return name !== undefined && callId !== undefined ? { callId, name, arguments: payload.input ?? '' } : undefined;
  }
  if (payload.type === 'local_shell_call') {
    const callId = typeof payload.call_id === 'string' ? payload.call_id : typeof payload.id === 'string' ? payload.id : undefined;
    if (callId === undefined) fields.add('payload.call_id', 'missing_field', 'is missing (expected the id its output answers)');
    return callId !== undefined ? { callId, name: 'local_shell', arguments: isJsonObject(payload.action) ? payload.action : {} } : undefined;
  }
  return undefined;
}

export interface ToolOutput {
  callId: string;
  text: string;
  error: string | null;
}

/** Exit code and output of a shell result: `{output, metadata: {exit_code}}` JSON, or `Exit code: N` / `Process exited with code N` text. */
function shellResult(text: string): { code: number; output: string } | undefined {
  try {
    const parsed: unknown = JSON.parse(text);
    if (isJsonObject(parsed) && isJsonObject(parsed.metadata) && typeof parsed.metadata.exit_code === 'number') {
      return { code: parsed.metadata.exit_code, output: typeof parsed.output === 'string' ? parsed.output : '' };
    }
  } catch {
    // Not JSON: the text forms.
  }
  const match = /^(?:Exit code:|Process exited with code) (-?\d+)/m.exec(text);
  return match ? { code: Number(match[1]), output: text.slice(match.index + match[0].length) } : undefined;
}

/** A `function_call_output` / `custom_tool_call_output`: its text and, when it failed, the error text. */
export function readToolOutput(payload: JsonObject): ToolOutput | undefined {
  if ((payload.type !== 'function_call_output' && payload.type !== 'custom_tool_call_output') || typeof payload.call_id !== 'string') return undefined;
  const raw = payload.output;
  const text = typeof raw === 'string' ? raw : isJsonObject(raw) && typeof raw.content === 'string' ? raw.content : flattenText(raw);
  let error: string | null = null;
  const shell = shellResult(text);
  if (shell && shell.code !== 0) {
    const detail = lastNonEmptyLine(shell.output);
    error = shortText(detail !== undefined ? `exit code ${shell.code}: ${detail}` : `exit code ${shell.code}`);
  } else if (isJsonObject(raw) && raw.success === false) {
    error = shortText(text) || 'failed';
  }
  return { callId: payload.call_id, text, error };
}

/** A sub-agent's thread as its `session_meta` names its start: the thread that spawned it, and how deep. */
export interface SpawnedBy {
  parentThreadId: string;
  depth: number;
  nickname?: string;
}

/**
 * `session_meta.payload.source` of a spawned sub-agent: `{ subagent: { thread_spawn: { parent_thread_id,
 * depth, agent_nickname?, agent_role? } } }` (codex-rs/protocol `SessionSource::SubAgent`,
 * `SubAgentSource::ThreadSpawn`). Other sources (`cli`, `exec`, a review or compact sub-agent, which name
 * no parent) are not spawns.
 */
export function readSpawnedBy(payload: JsonObject): SpawnedBy | undefined {
  const source = payload.source;
  const subagent = isJsonObject(source) ? source.subagent : undefined;
  const spawn = isJsonObject(subagent) ? subagent.thread_spawn : undefined;
  if (!isJsonObject(spawn) || typeof spawn.parent_thread_id !== 'string' || spawn.parent_thread_id === '') return undefined;
  const depth = typeof spawn.depth === 'number' && Number.isSafeInteger(spawn.depth) && spawn.depth >= 1 ? spawn.depth : 1;
  return { parentThreadId: spawn.parent_thread_id, depth, ...(typeof spawn.agent_nickname === 'string' && spawn.agent_nickname !== '' ? { nickname: spawn.agent_nickname } : {}) };
}

/** The thread a `spawn_agent` call started, from its output (`{"agent_id": "<thread id>", …}`); undefined when the output names none (a failed spawn). */
export function spawnedAgentId(outputText: string): string | undefined {
  let value: unknown;
  try {
    value = JSON.parse(outputText);
  } catch {
    return undefined;
  }
  return isJsonObject(value) && typeof value.agent_id === 'string' && value.agent_id !== '' ? value.agent_id : undefined;
}
