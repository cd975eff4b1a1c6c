/**
 * The numeric fields of a LiteLLM price entry checked (litellm.ts reads the file): a price in USD per
 * token, and `max_input_tokens`, the model's context window. Each gives the number, or the issue that
 * refuses the file naming the field, so no bad value is ignored or read as something else.
 */
import type { InputIssue } from '../errors.js';
import { shownName } from '../shownName.js';

/** The field of a price entry that holds the model's context window. */
export const CONTEXT_WINDOW_KEY = 'max_input_tokens';

/** A value as a message shows it: a number as JavaScript reads it (1e400 is Infinity), anything else as JSON, cut when long. */
function shownValue(raw: unknown): string {
  return typeof raw === 'number' ? String(raw) : shownName(JSON.stringify(raw) ?? String(raw));
}

/** A price in USD per token: a finite number, 0 or more. */
export function checkPrice(raw: unknown, file: string, field: string): number | InputIssue {
  if (typeof raw !== 'number' || !Number.isFinite(raw)) {
    return {
      file,
      field,
      code: 'invalid_number',
      message: `price must be a finite number of USD per token, got ${shownValue(raw)}`,
      hint: 'write prices as JSON numbers, e.g. 2.5e-6 for $2.50 per million tokens',
    };
  }
  if (raw < 0) {
    return {
      file,
      field,
      code: 'negative_number',
      message: `price must not be negative, got ${raw}`,
      hint: 'fix the price in the file (USD per token, e.g. 2.5e-6 for $2.50 per million tokens)',
    };
  }
  return raw;
}

const CONTEXT_WINDOW_HINT = `write ${CONTEXT_WINDOW_KEY} as a JSON whole number of tokens, e.g. 128000, or leave it out when the window is not known`;

/**
 * `max_input_tokens`: a whole number of tokens, or undefined for none given (absent, null, or 0, as
 * LiteLLM-style tables write an unknown window). A string, a fraction, a negative number or one past
 * 2^53 − 1 (1e400 reads as Infinity) is refused.
 */
export function checkContextWindow(raw: unknown, file: string, field: string): number | undefined | InputIssue {
  if (raw === undefined || raw === null || raw === 0) return undefined;
  if (typeof raw !== 'number' || !Number.isSafeInteger(raw)) {
    return { file, field, code: 'invalid_number', message: `the context window must be a whole number of tokens, got ${shownValue(raw)}`, hint: CONTEXT_WINDOW_HINT };
  }
  if (raw < 0) return { file, field, code: 'negative_number', message: `the context window must not be negative, got ${raw}`, hint: CONTEXT_WINDOW_HINT };
  return raw;
}
