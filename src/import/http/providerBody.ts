/**
 * The steps the provider parsers (anthropic.ts, bedrock.ts, gemini.ts, openaiChat.ts, openaiResponses.ts)
 * take alike, written once: the body objects, each object of an array with its field path, the messages of a
 * `messages` array, a tool call's id, name and arguments, and a response's model and id. Which fields a
 * provider has, and what they mean, stay in the provider's own file (it passes their names here).
 */
import type { Reader } from './bodyReader.js';
import { toolCall, type NormMessage, type ParsedToolCall } from './parsedBodies.js';

type BodyObject = Record<string, unknown>;

/** A request body: an object. */
export function requestBody(body: unknown, r: Reader): BodyObject {
  return r.object(body, '', 'a request body object');
}

/** A response body (an object) and its usage object, which every provider's response must carry. */
export function responseBody(body: unknown, r: Reader, usageKey = 'usage'): { res: BodyObject; usage: BodyObject } {
  const res = r.object(body, '', 'a response body object');
  return { res, usage: r.object(res[usageKey], usageKey, `${usageKey} object`) };
}

/** Calls `visit` with each item of the array at `path` as an object, and its field path (`path[i]`). */
export function eachObject(r: Reader, items: readonly unknown[], path: string, visit: (item: BodyObject, itemPath: string) => void): void {
  items.forEach((raw, i) => {
    const itemPath = `${path}[${i}]`;
    visit(r.object(raw, itemPath), itemPath);
  });
}

/** The request's `messages` (Anthropic, Bedrock, Chat Completions): each message's object and role, read by `read`. */
export function roleMessages(req: BodyObject, r: Reader, read: (m: BodyObject, path: string, role: string) => NormMessage): NormMessage[] {
  const messages: NormMessage[] = [];
  eachObject(r, r.array(req.messages, 'messages'), 'messages', (m, path) => {
    messages.push(read(m, path, r.string(m.role, `${path}.role`)));
  });
  return messages;
}

/** How a provider names a tool call's fields, and whether its name must be non-empty (`r.toolName`). */
export interface ToolCallFields {
  id: string;
  name: string;
  args: string;
  /** The name must be a non-empty string (a response's tool call, which is replayed); else any string. */
  namedForReplay: boolean;
}

/** The tool call object `call` at `path`: id, then name, then arguments (`{}` when absent). */
export function readToolCall(r: Reader, call: BodyObject, path: string, fields: ToolCallFields): ParsedToolCall {
  const id = r.optString(call[fields.id], `${path}.${fields.id}`);
  const namePath = `${path}.${fields.name}`;
  const name = fields.namedForReplay ? r.toolName(call[fields.name], namePath) : r.string(call[fields.name], namePath);
  return toolCall(id, name, call[fields.args] ?? {});
}

/** A response's model and id, by the provider's names for them (read in that order). */
export function responseNames(res: BodyObject, r: Reader, modelKey = 'model', idKey = 'id'): { model: string | undefined; id: string | undefined } {
  const model = r.optString(res[modelKey], modelKey);
  return { model, id: r.optString(res[idKey], idKey) };
}
