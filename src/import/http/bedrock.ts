/**
 * AWS Bedrock Converse bodies (`POST bedrock-runtime.<region>.amazonaws.com/model/<id>/converse`).
 *
 * Usage mapping — like Anthropic, Converse's usage.inputTokens EXCLUDES cache reads and writes (the
 * pydantic-ai cassette has inputTokens 433 + cacheReadInputTokens 2752 + outputTokens 16 = totalTokens 3201):
 *   inputTokens       = inputTokens + cacheReadInputTokens + cacheWriteInputTokens
 *   cachedInputTokens = cacheReadInputTokens;  cacheWriteTokens = cacheWriteInputTokens
 *   outputTokens      = outputTokens;          latencyMs = metrics.latencyMs
 * Tool calls are `toolUse` content blocks; results are `toolResult` blocks (status `error` = error).
 * Reasoning is a `reasoningContent` block, which a history's assistant turn carries back or not (reasoningReturn.ts).
 */
import { flattenText } from '../common/contentText.js';
import type { Reader } from './bodyReader.js';
import { emptyMessage, parsedResponse, toolResult, type ParsedRequest, type ParsedResponse, type ParsedToolCall } from './parsedBodies.js';
import { eachObject, readToolCall, requestBody, responseBody, roleMessages, type ToolCallFields } from './providerBody.js';
import { toolResultError } from './toolResultError.js';

const TOOL_USE: ToolCallFields = { id: 'toolUseId', name: 'name', args: 'input', namedForReplay: false };

export function parseBedrockRequest(body: unknown, r: Reader, modelFromUri?: string): ParsedRequest {
  const req = requestBody(body, r);
  const system = flattenText(r.optArray(req.system, 'system') ?? []);
  const messages = roleMessages(req, r, (m, path, role) => {
    const msg = emptyMessage(role);
    const texts: string[] = [];
    eachObject(r, r.array(m.content, `${path}.content`), `${path}.content`, (block, bpath) => {
      if (typeof block.text === 'string') texts.push(block.text);
      if (block.reasoningContent !== undefined) msg.reasoning = 'field';
      if (block.toolUse !== undefined) {
        msg.toolCalls.push(readToolCall(r, r.object(block.toolUse, `${bpath}.toolUse`), `${bpath}.toolUse`, TOOL_USE));
      }
      if (block.toolResult !== undefined) {
        const tr = r.object(block.toolResult, `${bpath}.toolResult`);
        const id = r.optString(tr.toolUseId, `${bpath}.toolResult.toolUseId`);
        const text = flattenText(tr.content);
        const status = r.optString(tr.status, `${bpath}.toolResult.status`);
        msg.toolResults.push(toolResult(id, undefined, text, toolResultError(text, status === 'error')));
      }
    });
    msg.text = texts.join('\n');
    return msg;
  });
  return { ...(modelFromUri !== undefined ? { model: modelFromUri } : {}), system, messages, notes: [] };
}

export function parseBedrockResponse(body: unknown, r: Reader): ParsedResponse {
  const { res, usage } = responseBody(body, r);
  const uncached = r.count(usage.inputTokens, 'usage.inputTokens');
  const outputTokens = r.count(usage.outputTokens, 'usage.outputTokens');
  const cacheRead = r.optCount(usage.cacheReadInputTokens, 'usage.cacheReadInputTokens');
  const cacheWrite = r.optCount(usage.cacheWriteInputTokens, 'usage.cacheWriteInputTokens');
  const output = r.object(res.output, 'output');
  const message = r.optObject(output.message, 'output.message');
  const blocks = r.optArray(message?.content, 'output.message.content') ?? [];
  const toolCalls: ParsedToolCall[] = [];
  let hasText = false;
  let reasoningText = false;
  eachObject(r, blocks, 'output.message.content', (block, path) => {
    if (typeof block.text === 'string' && block.text.trim() !== '') hasText = true;
    if (block.reasoningContent !== undefined) reasoningText = true;
    if (block.toolUse !== undefined) {
      toolCalls.push(readToolCall(r, r.object(block.toolUse, `${path}.toolUse`), `${path}.toolUse`, { ...TOOL_USE, namedForReplay: true }));
    }
  });
  const metrics = r.optObject(res.metrics, 'metrics');
  const latencyMs = r.optCount(metrics?.latencyMs, 'metrics.latencyMs', { integer: false });
  return parsedResponse({
    usage: {
      inputTokens: uncached + (cacheRead ?? 0) + (cacheWrite ?? 0),
      cachedInputTokens: cacheRead ?? 0,
      cacheWriteTokens: cacheWrite,
      outputTokens,
    },
    toolCalls,
    hasText,
    reasoningText,
    latencyMs,
  });
}

/** Model id from a Bedrock URI path `/model/<url-encoded id>/converse`. */
export function bedrockModelFromPath(pathname: string): string | undefined {
  const m = /\/model\/([^/]+)\//.exec(pathname);
  if (!m || m[1] === undefined) return undefined;
  try {
    return decodeURIComponent(m[1]);
  } catch {
    return m[1];
  }
}
