/**
 * The text of the semconv message attributes of a chat span (`gen_ai.system_instructions`,
 * `gen_ai.input.messages`): a JSON list of messages / parts, or plain text.
 */
import { jsonTextProblem } from '../../io/jsonText.js';
import { flattenText } from '../common/contentText.js';
import { isJsonObject } from '../common/jsonValue.js';

/** The attribute parsed as JSON, or the plain text when it is not JSON (or nests past every reader's limit). */
function messagesJson(raw: string | undefined): unknown {
  if (raw === undefined) return undefined;
  try {
    const value = JSON.parse(raw) as unknown;
    return jsonTextProblem(raw, { duplicates: false }) === undefined ? value : raw;
  } catch {
    return raw;
  }
}

/** Text of messages / parts: a string, the `content` string or `parts` of a message, else its flattened text. */
function partsText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.map(partsText).filter((s) => s !== '').join('\n');
  if (isJsonObject(value)) {
    if (typeof value.content === 'string') return value.content;
    if (Array.isArray(value.parts)) return partsText(value.parts);
    return flattenText(value);
  }
  return '';
}

/** All the text of `gen_ai.system_instructions` ('' when absent). */
export function instructionsText(raw: string | undefined): string {
  return partsText(messagesJson(raw));
}

/** The text of the first user message of `gen_ai.input.messages` (plain text as is; '' when none). */
export function firstUserText(raw: string | undefined): string {
  const parsed = messagesJson(raw);
  if (!Array.isArray(parsed)) return typeof parsed === 'string' ? parsed : '';
  const first = parsed.find((m) => isJsonObject(m) && m.role === 'user');
  return first === undefined ? '' : partsText(first);
}
