/**
 * A Chat Completions request as `loopcost serve` reads it: the fields it uses are checked (zod), every
 * other field a client sends is accepted and ignored. A bad field is a 400 naming it (`messages[2].role`).
 */
import { z } from 'zod';
import { invalidRequest } from './apiError.js';

const textPart = z.looseObject({ type: z.string(), text: z.string().optional() });
const content = z.union([z.string(), z.null(), z.array(textPart)]).optional();

const toolCall = z.looseObject({
  id: z.string(),
  type: z.string().optional(),
  function: z.looseObject({ name: z.string(), arguments: z.string() }),
});

const message = z.looseObject({
  role: z.enum(['system', 'developer', 'user', 'assistant', 'tool', 'function']),
  content,
  name: z.string().optional(),
  tool_calls: z.array(toolCall).optional(),
  tool_call_id: z.string().optional(),
});

const chatRequest = z.looseObject({
  model: z.string().min(1),
  messages: z.array(message).min(1),
  stream: z.boolean().nullable().optional(),
  stream_options: z.looseObject({ include_usage: z.boolean().optional() }).nullable().optional(),
  max_completion_tokens: z.number().int().positive().nullable().optional(),
  max_tokens: z.number().int().positive().nullable().optional(),
});

export type ChatMessage = z.infer<typeof message>;
export type ChatRequest = z.infer<typeof chatRequest>;

/** `messages[2].role` from a zod path. */
function paramOf(path: readonly PropertyKey[]): string {
  return path.map((key, i) => (typeof key === 'number' ? `[${key}]` : i === 0 ? String(key) : `.${String(key)}`)).join('');
}

/** The request body parsed and checked, or a 400 naming what is wrong. */
export function parseChatRequest(body: string): ChatRequest {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch (error) {
    throw invalidRequest(`the request body is not valid JSON (${(error as Error).message})`, null, 'invalid_json');
  }
  const parsed = chatRequest.safeParse(json);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const param = paramOf(issue.path);
  throw invalidRequest(`${param === '' ? 'the request body' : param}: ${issue.message}`, param === '' ? null : param, 'invalid_value');
}

/** A message's text: its content (text parts joined), and for an assistant its tool calls' names and arguments. */
export function messageText(m: ChatMessage): string {
  const parts: string[] = [];
  if (typeof m.content === 'string') parts.push(m.content);
  else if (Array.isArray(m.content)) for (const part of m.content) if (typeof part.text === 'string') parts.push(part.text);
  for (const call of m.tool_calls ?? []) parts.push(call.function.name, call.function.arguments);
  return parts.join('\n');
}
