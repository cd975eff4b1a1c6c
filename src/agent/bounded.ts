/**
 * A run that something ends: runAgentLoop refuses a run with no brake on its totals — no step cap, budget,
 * timeout or token cap — and no AbortSignal, unless its caller says `unbounded: true`. Such a run goes on as
 * long as its model calls tools (a model stuck in a loop: for ever, at its price per call), keeping every
 * step of its conversation in memory.
 */
import type { Issue } from '../options/rules.js';
import { isObject, shown } from '../options/rules.js';
import type { AgentLoopOptions } from './types.js';

/** The brakes that bound a run's totals (each ends it once reached). */
export const BOUNDING_BRAKES = ['maxSteps', 'maxCostPico', 'timeoutMs', 'maxTokens'] as const;

const HINT =
  'set brakes.maxSteps (e.g. { maxSteps: 12 }), brakes.maxCostPico (usdToPico(0.5)), brakes.timeoutMs or brakes.maxTokens, or pass a signal (an AbortController’s) that you abort; or say unbounded: true to run it without a bound';

/** The issue of a run nothing ends (see above); `unbounded` when given must be a boolean. Bad brake settings are brakeIssues'. */
export function unboundedIssues(issue: Issue, options: AgentLoopOptions): void {
  const { unbounded, brakes, signal } = options;
  if (unbounded !== undefined && typeof unbounded !== 'boolean') {
    return issue('unbounded', 'invalid_value', `${shown(unbounded)} is not true or false`, 'unbounded: true runs a loop with no step, cost, time or token brake and no signal; leave it out otherwise');
  }
  if (unbounded === true || !isObject(brakes) || signal !== undefined) return;
  if (BOUNDING_BRAKES.some((key) => brakes[key] !== undefined)) return;
  issue('brakes', 'unbounded_run', 'sets no step, cost, time or token brake, and no signal is given: nothing would end the run while the model calls tools, and it keeps every step', HINT);
}
