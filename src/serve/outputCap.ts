/**
 * The output cap a request sets (`max_completion_tokens`, or the older `max_tokens`). An answer longer
 * than it is cut there as a provider cuts it: the one rule, src/synthetic/outputCap.ts `cutAtCap`.
 */
import type { ChatRequest } from './request.js';

export function outputCapOf(request: ChatRequest): number | undefined {
  return request.max_completion_tokens ?? request.max_tokens ?? undefined;
}
