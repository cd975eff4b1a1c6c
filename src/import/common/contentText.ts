/**
 * The text of a chat message's content, which is a string or a list of content parts
 * (`[{type: 'text', text: '…'}]`, OpenAI style). Two readers: `flattenText`, lenient, for provider
 * bodies and spans; `readContentText`, strict, for trajectories, reporting malformed content as issues.
 */
import { MAX_NESTING_DEPTH } from '../../io/limits.js';
import type { IssueCollector } from './issues.js';
import { isJsonObject } from './jsonValue.js';

/**
 * Text of a content value: a string, an array of parts (`{text}`, `{type:'text', text}`, nested content),
 * or JSON. Parts nested past MAX_NESTING_DEPTH hold no text it reads (nothing a reader accepts nests so).
 */
export function flattenText(content: unknown, depth = 0): string {
  if (content === undefined || content === null || depth > MAX_NESTING_DEPTH) return '';
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((part) => flattenText(part, depth + 1)).filter((s) => s !== '').join('\n');
  if (isJsonObject(content)) {
    if (typeof content.text === 'string') return content.text;
    if ('content' in content) return flattenText(content.content, depth + 1);
    if ('json' in content) return JSON.stringify(content.json);
    return '';
  }
  return String(content);
}

/** How an importer words the two content errors (its users know its own terms). */
export interface ContentTextWording {
  /** A list entry that is neither text, a `{text}` part nor a typed non-text part. */
  badPart(part: unknown): string;
  /** Content that is neither a string nor a list. */
  badContent(content: unknown): string;
}

/**
 * Message text: a string, or the `text` of its parts joined by "\n" (string parts kept, typed non-text
 * parts such as images skipped); absent is ''. Undefined (with the issue collected) when malformed.
 */
export function readContentText(
  issues: IssueCollector,
  value: unknown,
  field: string,
  wording: ContentTextWording,
): string | undefined {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) {
    const parts: string[] = [];
    for (const [k, part] of value.entries()) {
      if (typeof part === 'string') parts.push(part);
      else if (isJsonObject(part) && typeof part.text === 'string') parts.push(part.text);
      else if (!(isJsonObject(part) && typeof part.type === 'string')) {
        issues.add(`${field}[${k}]`, 'wrong_type', wording.badPart(part));
        return undefined;
      }
    }
    return parts.join('\n');
  }
  issues.add(field, 'wrong_type', wording.badContent(value));
  return undefined;
}
