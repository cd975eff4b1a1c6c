/**
 * runAgentLoop: the real loop (loop.ts, pure) with the shell's defaults filled in — the wall clock,
 * the model family's tokenizer and the retry policy the README states. Its prices' provider cache rule is
 * taken where the kernel flattens them (kernel/prices.ts flattenPrices), as a replay of its recording takes it.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { filledBrakeConfig } from '../brakes/config.js';
import { countTokens } from '../import/tokenCount.js';
import { agentLoop } from './loop.js';
import { checkSummaryTrigger, strategyPlaceOf, validateAgentOptions } from './validate.js';
import { withPartialRun, type ErrorWithPartialRun } from './thrownRun.js';
import { UserError } from '../errors.js';
import type { AgentLoopOptions, AgentRunResult, Clock, RetryPolicy } from './types.js';

/** The wall clock (performance.now: monotonic). */
export const systemClock: Readonly<Clock> = Object.freeze<Clock>({
  now: () => performance.now(),
  sleep: (ms, signal) => sleep(ms, undefined, signal === undefined ? {} : { signal }),
  timer: (ms, signal) => sleep(ms, undefined, { signal }),
});

/** 3 retries after 1 s, 2 s and 4 s (doubling, at most 30 s). */
export const DEFAULT_RETRY: Readonly<RetryPolicy> = Object.freeze<RetryPolicy>({
  maxRetries: 3,
  backoffMs: (attempt) => Math.min(30_000, 1000 * 2 ** (attempt - 1)),
});

/** Runs an agent to its stop: see AgentLoopOptions and README ("The real loop"). */
export async function runAgentLoop(options: AgentLoopOptions): Promise<AgentRunResult> {
  validateAgentOptions(options);
  const model = options.model.name;
  const brakes = filledBrakeConfig(options.brakes);
  checkSummaryTrigger({ ...options, brakes }, strategyPlaceOf());
  return agentLoop({
    ...options,
    brakes,
    // Left out, the loop's reasoning does not re-enter its prompts (a Model sends it back only when it says so).
    reasoningInPrompt: options.reasoningInPrompt === true,
    clock: options.clock ?? systemClock,
    retry: { ...DEFAULT_RETRY, ...options.retry },
    countTokens: options.context.countTokens ?? ((text: string) => countTokens(text, model)),
  }).catch((error: unknown) => {
    throw inLibraryWords(error);
  });
}

const CLI_BOUNDS = '--max-steps, --max-cost or --context-window';
const OPTION_BOUNDS = "brakes.maxSteps, brakes.maxCostPico or brakes.contextWindow in runAgentLoop's options";

/**
 * The engine's refusal of a run's (or a tree's) spend past $9,007 (kernel/cost.ts costOutOfRange) names the
 * CLI's flags; from the library its hint names runAgentLoop's own options instead (the figures so far,
 * `partialRun`, kept). Any other error as it was.
 */
function inLibraryWords(error: unknown): unknown {
  if (!(error instanceof UserError) || !error.issues.some((issue) => issue.code === 'cost_out_of_range')) return error;
  const said = new UserError(error.issues.map((issue) => (issue.code === 'cost_out_of_range' ? { ...issue, hint: (issue.hint ?? '').replace(CLI_BOUNDS, OPTION_BOUNDS) } : issue)));
  const { partialRun } = error as Partial<ErrorWithPartialRun>;
  return partialRun === undefined ? said : withPartialRun(said, partialRun);
}
