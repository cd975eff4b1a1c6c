/**
 * Gemini `generateContent` bodies (generativelanguage.googleapis.com and Vertex AI).
 *
 * Usage mapping (usageMetadata): promptTokenCount (cachedContentTokenCount included) + toolUsePromptTokenCount
 * → inputTokens; cachedContentTokenCount → cachedInputTokens; outputTokens = candidatesTokenCount +
 * thoughtsTokenCount; thoughtsTokenCount → reasoningTokens. (totalTokenCount = prompt + candidates +
 * thoughts + toolUsePrompt.)
 *
 * Tool calls are `functionCall` parts of candidates[0]; results are `functionResponse` parts of later
 * requests. A functionResponse whose `response` has an `error` key (pydantic-ai retry prompts) is an error.
 *
 * Reasoning: `thought: true` parts carry its text (a summary of it); a `thoughtSignature` on any part an
 * opaque form of it, which a history's model turn may carry back alone: Gemini 3 counts the reasoning it stands
 * for, Gemini 2.x none of it (reasoningReturn.ts carriesReasoning).
 */
import { flattenText } from '../common/contentText.js';
import { isJsonObject } from '../common/jsonValue.js';
import { clip } from '../common/text.js';
import type { Reader } from './bodyReader.js';
import { emptyMessage, parsedResponse, toolResult, type CarriedReasoning, type NormMessage, type NormToolResult, type ParsedRequest, type ParsedResponse, type ParsedToolCall } from './parsedBodies.js';
import { eachObject, readToolCall, requestBody, responseBody, responseNames, type ToolCallFields } from './providerBody.js';
import { retryPromptError } from './toolResultError.js';

/** A `functionCall` part's fields; its name must be non-empty, in a history as in a response. */
const FUNCTION_CALL: ToolCallFields = { id: 'id', name: 'name', args: 'args', namedForReplay: true };

function partsText(parts: unknown[]): string {
  return parts
    .filter((p): p is Record<string, unknown> => isJsonObject(p) && typeof p.text === 'string' && p.thought !== true)
    .map((p) => p.text as string)
    .join('\n');
}

/** How a turn's parts carry reasoning: as thought text, only as a thought signature, or not. */
function partsReasoning(parts: unknown[]): CarriedReasoning | undefined {
  const objects = parts.filter(isJsonObject);
  if (objects.some((p) => p.thought === true && typeof p.text === 'string' && p.text.trim() !== '')) return 'field';
  return objects.some((p) => typeof p.thoughtSignature === 'string' || typeof p.thought_signature === 'string') ? 'opaque' : undefined;
}

export function parseGeminiRequest(body: unknown, r: Reader, modelFromUri?: string): ParsedRequest {
  const req = requestBody(body, r);
  const model = r.optString(req.model, 'model') ?? modelFromUri;
  const sysKey = req.systemInstruction !== undefined ? 'systemInstruction' : 'system_instruction';
  const sys = r.optObject(req[sysKey], sysKey);
  const system = sys ? partsText(r.optArray(sys.parts, `${sysKey}.parts`) ?? []) : '';
  const messages: NormMessage[] = [];
  eachObject(r, r.array(req.contents, 'contents'), 'contents', (c, path) => {
    const role = r.optString(c.role, `${path}.role`) ?? 'user';
    const parts = r.optArray(c.parts, `${path}.parts`) ?? [];
    const msg = emptyMessage(role === 'model' ? 'assistant' : role === 'function' ? 'tool' : role);
    msg.text = partsText(parts);
    const reasoning = role === 'model' ? partsReasoning(parts) : undefined;
    if (reasoning !== undefined) msg.reasoning = reasoning;
    eachObject(r, parts, `${path}.parts`, (part, ppath) => {
      if (part.functionCall !== undefined) {
        msg.toolCalls.push(readToolCall(r, r.object(part.functionCall, `${ppath}.functionCall`), `${ppath}.functionCall`, FUNCTION_CALL));
      }
      if (part.functionResponse !== undefined) msg.toolResults.push(functionResponse(r, part.functionResponse, `${ppath}.functionResponse`));
    });
    messages.push(msg);
  });
  return { ...(model !== undefined ? { model } : {}), system, messages, notes: [] };
}

/** A `functionResponse` part: an error when its `response` has an `error` key or reads as a retry prompt. */
function functionResponse(r: Reader, value: unknown, path: string): NormToolResult {
  const fr = r.object(value, path);
  const id = r.optString(fr.id, `${path}.id`);
  const name = r.optString(fr.name, `${path}.name`);
  const response = fr.response;
  const text = typeof response === 'string' ? response : JSON.stringify(response ?? {});
  let error: string | undefined;
  if (isJsonObject(response) && response.error !== undefined && response.error !== null) {
    const errText = flattenText(response.error) || JSON.stringify(response.error);
    error = retryPromptError(errText) ?? clip(errText.trim());
  } else {
    error = retryPromptError(flattenText(isJsonObject(response) ? Object.values(response) : response));
  }
  return toolResult(id, name, text, error);
}

export function parseGeminiResponse(body: unknown, r: Reader): ParsedResponse {
  const { res, usage } = responseBody(body, r, 'usageMetadata');
  const prompt = r.count(usage.promptTokenCount, 'usageMetadata.promptTokenCount');
  const toolUsePrompt = r.optCount(usage.toolUsePromptTokenCount, 'usageMetadata.toolUsePromptTokenCount') ?? 0;
  // candidatesTokenCount is omitted when the model produced nothing (e.g. a blocked or empty answer).
  const candidatesTokens = r.optCount(usage.candidatesTokenCount, 'usageMetadata.candidatesTokenCount') ?? 0;
  const thoughts = r.optCount(usage.thoughtsTokenCount, 'usageMetadata.thoughtsTokenCount');
  const cached = r.optCount(usage.cachedContentTokenCount, 'usageMetadata.cachedContentTokenCount');

  const candidates = r.optArray(res.candidates, 'candidates') ?? [];
  const toolCalls: ParsedToolCall[] = [];
  let hasText = false;
  let reasoningText = false;
  if (candidates.length > 0) {
    const cand = r.object(candidates[0], 'candidates[0]');
    const content = r.optObject(cand.content, 'candidates[0].content');
    const parts = r.optArray(content?.parts, 'candidates[0].content.parts') ?? [];
    hasText = partsText(parts).trim() !== '';
    reasoningText = partsReasoning(parts) === 'field';
    eachObject(r, parts, 'candidates[0].content.parts', (part, ppath) => {
      if (part.functionCall !== undefined) {
        toolCalls.push(readToolCall(r, r.object(part.functionCall, `${ppath}.functionCall`), `${ppath}.functionCall`, FUNCTION_CALL));
      }
    });
  }
  return parsedResponse({
    usage: {
      inputTokens: prompt + toolUsePrompt,
      cachedInputTokens: cached ?? 0,
      outputTokens: candidatesTokens + (thoughts ?? 0),
      reasoningTokens: thoughts,
    },
    toolCalls,
    hasText,
    reasoningText,
    ...responseNames(res, r, 'modelVersion', 'responseId'),
  });
}
