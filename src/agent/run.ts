/**
 * runAgentLoop: the real loop (loop.ts, pure) with the shell's defaults filled in — the wall clock,
 * the model family's tokenizer and the retry policy the README states.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { brakeConfig } from '../brakes/config.js';
import { countTokens } from '../import/tokenCount.js';
import { agentLoop } from './loop.js';
import { validateAgentOptions } from './validate.js';
import type { AgentLoopOptions, AgentRunResult, Clock, RetryPolicy } from './types.js';

/** The wall clock (performance.now: monotonic). */
export const systemClock: Clock = {
  now: () => performance.now(),
  sleep: (ms, signal) => sleep(ms, undefined, signal === undefined ? {} : { signal }),
};

/** 3 retries after 1 s, 2 s and 4 s (doubling, at most 30 s). */
export const DEFAULT_RETRY: RetryPolicy = {
  maxRetries: 3,
  backoffMs: (attempt) => Math.min(30_000, 1000 * 2 ** (attempt - 1)),
};

/** Runs an agent to its stop: see AgentLoopOptions and README ("The real loop"). */
export async function runAgentLoop(options: AgentLoopOptions): Promise<AgentRunResult> {
  validateAgentOptions(options);
  const model = options.model.name;
  return agentLoop({
    ...options,
    brakes: brakeConfig(options.brakes),
    clock: options.clock ?? systemClock,
    retry: { ...DEFAULT_RETRY, ...options.retry },
    countTokens: options.context.countTokens ?? ((text: string) => countTokens(text, model)),
  });
}
