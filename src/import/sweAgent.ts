/**
 * Importer for SWE-agent `.traj` files (0.x and 1.x). They carry run totals only
 * (`info.model_stats.{tokens_sent, tokens_received, instance_cost, api_calls}`), so per-call tokens are
 * rebuilt from the text and then scaled to the recorded totals:
 *
 * - input of call k = the chat in `history` before its k-th assistant message (system prompt and
 *   demonstrations included: SWE-agent keeps them in `history`), counted with the model family's tokenizer
 *   and chat framing (`tokenCount.ts`). OpenAI: `countChatTokens` of the messages as they are. Claude: the
 *   request SWE-agent 0.x builds for the Messages API (`anthropic_history_to_messages` / `anthropic_query`
 *   in sweagent/agent/models.py): the system message(s) joined by "\n" as the `system` prompt, the other
 *   messages with consecutive same-role ones joined by "\n" into one turn, and (0.x) empty turns sent as
 *   "(No output)";
 * - output of call k = the text of the k-th assistant message (the step's `response` when history lacks it);
 *
 * Message text only, as the recorded totals count it: 0.x records the provider's usage, which the OpenAI
 * cookbook count of history reproduces exactly for GPT-4; 1.x records litellm.token_counter over the
 * message contents (function-call arguments and tool schemas are not in its count).
 * 0.x sends nothing else: it has no function calling (the `parse_function` of its configs parses the
 * DISCUSSION + fenced command of free text), its commands reach the model only as the `command_docs` of
 * the system prompt, which is history[0], and its API calls pass no tool definitions. So no per-call tool
 * text is added. For Claude 3+ the public tokenizer is an approximation: on the three commit0 Claude 3.5
 * Sonnet runs the rebuilt input is 4.9-6.0% short of tokens_sent, and the output, which has no framing or
 * hidden part, is 2.9-7.9% short of tokens_received: the tokenizer, not missing text.
 * - both are apportioned to `tokens_sent` / `tokens_received` by largest remainder, so the totals are exact.
 *
 * One call per `trajectory` step; the tool call is the step's `action` (name = its first word).
 *
 * The work is split by job under sweAgent/: readTrajectory.ts validates the document (runSettings.ts and
 * modelName.ts find the model and limits; recordedTotals.ts refuses run totals above zero with no step to
 * carry them, as damaged), tokenRebuild.ts rebuilds and apportions the tokens
 * (promptTokens.ts: the prompt framing; common/apportion.ts: largest remainder), and buildTrace.ts builds
 * the Trace (outcome.ts: exit status and observation errors).
 */
import type { Trace } from '../trace/types.js';
import { buildSweAgentTrace } from './sweAgent/buildTrace.js';
import { readSweAgentTrajectory, type SweAgentImportOptions } from './sweAgent/readTrajectory.js';
import { rebuildSweAgentTokens, type SweAgentRebuild } from './sweAgent/tokenRebuild.js';

export { apportion } from './common/apportion.js';
export { SWE_AGENT_FORMAT } from './sweAgent/buildTrace.js';
export {
  SWE_AGENT_MODEL_SHORTCUTS,
  resolveSweAgentModel,
  sweAgentModelFromFileName,
} from './sweAgent/modelName.js';
export { sweAgentObservationError, sweAgentOutcome } from './sweAgent/outcome.js';
export type { SweAgentImportOptions } from './sweAgent/readTrajectory.js';
export type { SweAgentRebuild } from './sweAgent/tokenRebuild.js';

export { looksLikeSweAgent } from './formats.js';

export function importSweAgent(content: string, path: string, opts: SweAgentImportOptions = {}): Trace[] {
  return importSweAgentDetailed(content, path, opts).traces;
}

/** `importSweAgent`, plus what the token rebuild found before scaling. */
export function importSweAgentDetailed(
  content: string,
  path: string,
  opts: SweAgentImportOptions = {},
): { traces: Trace[]; rebuild: SweAgentRebuild } {
  const run = readSweAgentTrajectory(content, path, opts);
  const tokens = rebuildSweAgentTokens(run);
  return { traces: [buildSweAgentTrace(run, tokens, path)], rebuild: tokens.rebuild };
}
