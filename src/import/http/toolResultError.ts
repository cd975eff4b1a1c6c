/**
 * Error text of a tool result in a request's history: results the provider flags as errors, and the
 * retry prompts pydantic-ai sends back as tool results when a tool call failed validation.
 */
import { clip } from '../common/text.js';

/** The marker pydantic-ai appends to a retry prompt sent back as a tool result. */
export const RETRY_MARKER = 'Fix the errors and try again.';

/**
 * Error text when a tool result is a retry prompt (pydantic-ai `RetryPromptPart`: "…\n\nFix the errors and
 * try again." or a pydantic validation error list "N validation errors: …"), else undefined.
 */
export function retryPromptError(text: string): string | undefined {
  const trimmed = text.trim();
  const isRetry = trimmed.endsWith(RETRY_MARKER) || /^\d+ validation errors?( for [^:\n]+)?:/.test(trimmed);
  if (!isRetry) return undefined;
  const body = trimmed.endsWith(RETRY_MARKER) ? trimmed.slice(0, -RETRY_MARKER.length).trim() : trimmed;
  return clip(body === '' ? trimmed : body);
}

/**
 * Error text of a tool result the provider may flag as an error (Anthropic `is_error`, Bedrock status
 * `error`): a retry prompt's text, else for a flagged result its text (or `tool error` when empty).
 */
export function toolResultError(text: string, flagged: boolean): string | undefined {
  return flagged ? (retryPromptError(text) ?? clip(text.trim() || 'tool error')) : retryPromptError(text);
}
