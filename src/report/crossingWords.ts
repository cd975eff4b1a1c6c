/**
 * How `project`'s report line and its past-window warning name a threshold prompts pass: a price tier by
 * its tokens; the context window as the window less the max_tokens sent, as a provider counts it (OpenAI
 * and Anthropic refuse prompt + max_tokens past the window; curve's mark says the same).
 */
const tokens = (n: number): string => n.toLocaleString('en-US');

export interface CrossedThreshold {
  kind: string;
  aboveInputTokens: number;
  contextWindowTokens?: number;
  maxOutputTokens?: number;
}

/**
 * `(128,000 − 4,096 = 123,904 tokens)`: the window, the max_tokens sent, and the largest prompt they
 * leave; `(128,000 − 200,000: no room for a prompt)` when max_tokens fills the window.
 */
export function windowLessMaxTokens(c: CrossedThreshold): string {
  const left = `${tokens(c.aboveInputTokens)} tokens`;
  if (c.contextWindowTokens === undefined || c.maxOutputTokens === undefined) return `(${left})`;
  const sum = `${tokens(c.contextWindowTokens)} − ${tokens(c.maxOutputTokens)}`;
  return c.contextWindowTokens <= c.maxOutputTokens ? `(${sum}: no room for a prompt)` : `(${sum} = ${left})`;
}

/** `price tier of 200,000 tokens`, `context window less max_tokens (128,000 − 4,096 = 123,904 tokens)`. */
export function thresholdWords(c: CrossedThreshold): string {
  return c.kind === 'context_window' ? `context window less max_tokens ${windowLessMaxTokens(c)}` : `price tier of ${tokens(c.aboveInputTokens)} tokens`;
}
