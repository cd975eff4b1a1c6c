/** Tool-call arguments as recorded: a JSON string (OpenAI style) or an object. */
import { jsonTextProblem } from '../../io/jsonText.js';
import { MAX_ARGUMENTS_DEPTH } from '../../io/limits.js';
import { UserError } from '../../errors.js';
import { inputError, type IssueLocation } from './issues.js';

/**
 * Parsed JSON when a string holds valid JSON, else the raw string; a blank string is `{}`; objects as
 * given. JSON nested past MAX_ARGUMENTS_DEPTH is refused (a UserError at `at`): nothing downstream could
 * walk it. (A model's arguments may repeat a key: that is the model's output, kept as parsed.)
 */
export function parseToolArguments(raw: unknown, at?: IssueLocation): unknown {
  if (typeof raw !== 'string') return raw ?? {};
  if (raw.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(raw) as unknown;
  } catch {
    return raw;
  }
  const deep = jsonTextProblem(raw, { duplicates: false, maxDepth: MAX_ARGUMENTS_DEPTH });
  if (deep) {
    const message = `tool arguments ${deep.message}`;
    const hint = 'the arguments look corrupted: check the file';
    // Without a location the reader of the whole file names the file (see streamTraceFile).
    throw at ? inputError(at, deep.code, message, hint) : new UserError({ code: deep.code, message, hint });
  }
  return value;
}
