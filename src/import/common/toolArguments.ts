/** Tool-call arguments as recorded: a JSON string (OpenAI style) or an object. */

/** Parsed JSON when a string holds valid JSON, else the raw string; a blank string is `{}`; objects as given. */
export function parseToolArguments(raw: unknown): unknown {
  if (typeof raw !== 'string') return raw ?? {};
  if (raw.trim() === '') return {};
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return raw;
  }
}
