/**
 * A provider's window rule, written once: OpenAI and Anthropic refuse a request whose prompt + max_tokens
 * passes the model's context window (OpenAI, with no max_tokens, one whose prompt alone passes it), a 400
 * `context_length_exceeded`. The simulated provider refuses by it: a synthetic agent's calls
 * (src/synthetic/agent.ts), `serve`'s summary answers (src/serve/session.ts) and every summary call a
 * replay makes (summaryCallStop) — so simulation, serve and a real loop's provider refuse the same calls.
 *
 * A summary call (context `summary`, `hybrid`) is such a request: the prompt it replaces (as a live loop
 * estimates it: kernel/cost.ts promptEstimate) with its S tokens asked for, sent to the summary model, so
 * its window is that model's. Pure.
 */
import { promptTooLarge } from './brakes.js';
import type { SummaryCallSize } from './cost.js';
import { promptAllowedTokens, windowCountsOutput, type BrakeLimits } from './limits.js';
import { StopCode } from './stopCodes.js';
import type { WindowRefusal } from '../loop/types.js';

/** What names the summary call in a stop's detail (describeStop's label), in both kernels. */
export const SUMMARY_CALL = 'summary call';

/**
 * What names a call its provider refused for its length in the stop's detail, in every engine: a call
 * marked compaction (a summary call, as the real loop records one) is the summary call, any other the call
 * (describeStop's default label). One rule, so a replay of a recording says what the run said.
 */
export function refusedCallLabel(compaction: boolean): string {
  return compaction ? SUMMARY_CALL : '';
}

/** Whether a provider refuses a prompt of `promptTokens` sent with `maxOutputTokens` (none: the prompt alone) to a model of `windowTokens`. */
export function providerRefuses(windowTokens: number, promptTokens: number, maxOutputTokens = 0): boolean {
  return promptTokens + maxOutputTokens > windowTokens;
}

/** The provider's refusal of that request, in its numbers (WindowRefusal); undefined when it is answered. */
export function windowRefusal(windowTokens: number | undefined, promptTokens: number, maxOutputTokens?: number): WindowRefusal | undefined {
  if (windowTokens === undefined || !providerRefuses(windowTokens, promptTokens, maxOutputTokens)) return undefined;
  return { promptTokens, contextWindowTokens: windowTokens, ...(maxOutputTokens === undefined ? {} : { maxOutputTokens }) };
}

/**
 * What ends a run at a summary call the step, time, budget and token brakes let through (summaryMayRun),
 * StopCode.None when it is made:
 * - under `--context-window model`, the context-window brake before it (ContextOverflow): its prompt
 *   estimate + S passes the summary model's window (less S, as the brake counts any call). A live loop knows
 *   all three before the call, and such a call cannot be answered: a provider refuses it, and skipping the
 *   summary would send a still larger prompt next;
 * - `simulated` (a replay or a synthetic run: nothing else answers it), the provider's refusal as it is made
 *   (ProviderRefused), by the rule above. A real loop hears that from its provider instead.
 * An explicit `--context-window N` is the agent's prompt limit, which a summary exists to bring the prompt
 * back under (its trigger is at most N): it does not stop a summary call.
 */
export function summaryCallStop(limits: BrakeLimits, call: SummaryCallSize, simulated: boolean): StopCode {
  const window = call.prices.contextWindow;
  if (windowCountsOutput(limits) && promptTooLarge(call.promptEstimate, promptAllowedTokens(window, call.summaryTokens))) return StopCode.ContextOverflow;
  return simulated && providerRefuses(window, call.promptEstimate, call.summaryTokens) ? StopCode.ProviderRefused : StopCode.None;
}
