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
 */
import { flattenText } from '../common/contentText.js';
import { isJsonObject } from '../common/jsonValue.js';
import { clip } from '../common/text.js';
import type { Reader } from './bodyReader.js';
import {
  emptyMessage,
  parsedResponse,
  toolCall,
  toolResult,
  type NormMessage,
  type ParsedRequest,
  type ParsedResponse,
  type ParsedToolCall,
} from './parsedBodies.js';
import { retryPromptError } from './toolResultError.js';

function partsText(parts: unknown[]): string {
  return parts
    .filter((p): p is Record<string, unknown> => isJsonObject(p) && typeof p.text === 'string' && p.thought !== true)
    .map((p) => p.text as string)
    .join('\n');
}

export function parseGeminiRequest(body: unknown, r: Reader, modelFromUri?: string): ParsedRequest {
  const req = r.object(body, '', 'a request body object');
  const model = r.optString(req.model, 'model') ?? modelFromUri;
  const sysKey = req.systemInstruction !== undefined ? 'systemInstruction' : 'system_instruction';
  const sys = r.optObject(req[sysKey], sysKey);
  const system = sys ? partsText(r.optArray(sys.parts, `${sysKey}.parts`) ?? []) : '';
  const contents = r.array(req.contents, 'contents');
  const messages: NormMessage[] = [];
  contents.forEach((raw, i) => {
    const path = `contents[${i}]`;
    const c = r.object(raw, path);
    const role = r.optString(c.role, `${path}.role`) ?? 'user';
    const parts = r.optArray(c.parts, `${path}.parts`) ?? [];
    const msg = emptyMessage(role === 'model' ? 'assistant' : role === 'function' ? 'tool' : role);
    msg.text = partsText(parts);
    parts.forEach((p, j) => {
      const ppath = `${path}.parts[${j}]`;
      const part = r.object(p, ppath);
      if (part.functionCall !== undefined) {
        const fc = r.object(part.functionCall, `${ppath}.functionCall`);
        const id = r.optString(fc.id, `${ppath}.functionCall.id`);
        msg.toolCalls.push(toolCall(id, r.toolName(fc.name, `${ppath}.functionCall.name`), fc.args ?? {}));
      }
      if (part.functionResponse !== undefined) {
        const fr = r.object(part.functionResponse, `${ppath}.functionResponse`);
        const id = r.optString(fr.id, `${ppath}.functionResponse.id`);
        const name = r.optString(fr.name, `${ppath}.functionResponse.name`);
        const response = fr.response;
        const text = typeof response === 'string' ? response : JSON.stringify(response ?? {});
        let error: string | undefined;
        if (isJsonObject(response) && response.error !== undefined && response.error !== null) {
          const errText = flattenText(response.error) || JSON.stringify(response.error);
          error = retryPromptError(errText) ?? clip(errText.trim());
        } else {
          error = retryPromptError(flattenText(isJsonObject(response) ? Object.values(response) : response));
        }
        msg.toolResults.push(toolResult(id, name, text, error));
      }
    });
    messages.push(msg);
  });
  return { ...(model !== undefined ? { model } : {}), system, messages, notes: [] };
}

export function parseGeminiResponse(body: unknown, r: Reader): ParsedResponse {
  const res = r.object(body, '', 'a response body object');
  const usage = r.object(res.usageMetadata, 'usageMetadata', 'usageMetadata object');
  const prompt = r.count(usage.promptTokenCount, 'usageMetadata.promptTokenCount');
  const toolUsePrompt = r.optCount(usage.toolUsePromptTokenCount, 'usageMetadata.toolUsePromptTokenCount') ?? 0;
  // candidatesTokenCount is omitted when the model produced nothing (e.g. a blocked or empty answer).
  const candidatesTokens = r.optCount(usage.candidatesTokenCount, 'usageMetadata.candidatesTokenCount') ?? 0;
  const thoughts = r.optCount(usage.thoughtsTokenCount, 'usageMetadata.thoughtsTokenCount');
  const cached = r.optCount(usage.cachedContentTokenCount, 'usageMetadata.cachedContentTokenCount');

  const candidates = r.optArray(res.candidates, 'candidates') ?? [];
  const toolCalls: ParsedToolCall[] = [];
  let hasText = false;
  if (candidates.length > 0) {
    const cand = r.object(candidates[0], 'candidates[0]');
    const content = r.optObject(cand.content, 'candidates[0].content');
    const parts = r.optArray(content?.parts, 'candidates[0].content.parts') ?? [];
    hasText = partsText(parts).trim() !== '';
    parts.forEach((p, j) => {
      const ppath = `candidates[0].content.parts[${j}]`;
      const part = r.object(p, ppath);
      if (part.functionCall !== undefined) {
        const fc = r.object(part.functionCall, `${ppath}.functionCall`);
        const id = r.optString(fc.id, `${ppath}.functionCall.id`);
        toolCalls.push(toolCall(id, r.toolName(fc.name, `${ppath}.functionCall.name`), fc.args ?? {}));
      }
    });
  }
  const model = r.optString(res.modelVersion, 'modelVersion');
  const id = r.optString(res.responseId, 'responseId');
  return parsedResponse({
    usage: {
      inputTokens: prompt + toolUsePrompt,
      cachedInputTokens: cached ?? 0,
      outputTokens: candidatesTokens + (thoughts ?? 0),
      reasoningTokens: thoughts,
    },
    toolCalls,
    hasText,
    model,
    id,
  });
}
