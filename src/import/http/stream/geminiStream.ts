/**
 * Gemini `streamGenerateContent` (SSE with `alt=sse`, or a JSON array of chunks without it; also Vertex
 * AI): each chunk is a GenerateContentResponse holding the next parts of candidates[0]; text parts are
 * pieces of one text (thought text kept apart), function calls come whole. Each chunk repeats
 * `usageMetadata` so far; the last one is the call's usage. The stream is finished when a candidate
 * carries a `finishReason`.
 */
import { isJsonObject } from '../../common/jsonValue.js';
import type { Reader } from '../bodyReader.js';
import { cutOff, finishedWithoutUsage, streamError, type Assembled } from './assembled.js';
import type { StreamEvents } from './events.js';

function appendPart(parts: Record<string, unknown>[], part: Record<string, unknown>): void {
  const last = parts[parts.length - 1];
  const isText = typeof part.text === 'string' && Object.keys(part).every((k) => k === 'text' || k === 'thought' || k === 'thoughtSignature');
  if (isText && last !== undefined && typeof last.text === 'string' && (last.thought === true) === (part.thought === true) && last.functionCall === undefined) {
    last.text = `${last.text}${part.text as string}`;
    if (part.thoughtSignature !== undefined) last.thoughtSignature = part.thoughtSignature;
    return;
  }
  parts.push({ ...part });
}

export function assembleGeminiStream(stream: StreamEvents, r: Reader): Assembled {
  const parts: Record<string, unknown>[] = [];
  const top: Record<string, unknown> = {};
  let usage: unknown;
  let finishReason: string | undefined;
  for (const { data } of stream.events) {
    if (!isJsonObject(data)) continue;
    if (data.error !== undefined && data.error !== null) return streamError(data.error);
    for (const key of ['modelVersion', 'responseId', 'createTime']) if (typeof data[key] === 'string') top[key] ??= data[key];
    if (isJsonObject(data.usageMetadata)) usage = data.usageMetadata;
    const candidate = Array.isArray(data.candidates) && isJsonObject(data.candidates[0]) ? data.candidates[0] : undefined;
    if (candidate === undefined) continue;
    const content = isJsonObject(candidate.content) ? candidate.content : {};
    for (const part of Array.isArray(content.parts) ? content.parts : []) if (isJsonObject(part)) appendPart(parts, part);
    if (typeof candidate.finishReason === 'string') finishReason = candidate.finishReason;
  }
  if (finishReason === undefined) return cutOff(stream.events.length, 'a finishReason');
  if (usage === undefined) finishedWithoutUsage(r, 'usageMetadata', 'every Gemini stream chunk carries usageMetadata; was the body cut?');
  return {
    body: { candidates: [{ content: { role: 'model', parts }, finishReason }], usageMetadata: usage, ...top },
    notes: [],
  };
}
