/**
 * The options of the agent a sub-agent tool starts (defineSubagentTool → ToolContext.runSubagent), from
 * its SubagentSpec and the run that started it: checked first, by the rules every entry point's options
 * are checked by (validate.ts subagentSpecIssues: a misspelt brake or key, a model without call(), tools,
 * context, prices: its own, else its parent's when they price its model), so a sub-agent's model is never
 * called with settings it would silently ignore (nor billed at another model's prices); then
 * its brakes (the parent's unless it has its own), prices (metered with their cache rule, stated or their
 * provider's, as every engine's are: kernel/prices.ts flattenPrices), token counter, and its place in the
 * tree. The clock, retry policy, AbortSignal, cache writes and whether reasoning re-enters its prompts are the parent's.
 */
import { filledBrakeConfig } from '../brakes/config.js';
import type { ResolvedAgentOptions } from './loop.js';
import type { TreeMember } from './subagent.js';
import type { SubagentSpec } from './types.js';
import { checkSummaryTrigger, strategyPlaceOf, validateSubagentSpec } from './validate.js';

/** `spec`'s run options under `parent`; `join` makes its member of the tree (called once the spec is valid). */
export function subagentOptions(spec: SubagentSpec, parent: ResolvedAgentOptions, join: (agentId: string) => TreeMember): ResolvedAgentOptions {
  validateSubagentSpec(spec, parent.pricing);
  const brakes = spec.brakes === undefined ? parent.brakes : filledBrakeConfig(spec.brakes);
  const pricing = spec.pricing ?? parent.pricing;
  checkSummaryTrigger({ context: spec.context, brakes, pricing }, strategyPlaceOf(spec.agentId));
  return {
    model: spec.model,
    tools: spec.tools ?? [],
    brakes,
    context: spec.context,
    pricing,
    ...(spec.recorder === undefined ? {} : { recorder: spec.recorder }),
    ...(parent.signal === undefined ? {} : { signal: parent.signal }),
    ...(parent.cacheWrites === undefined ? {} : { cacheWrites: parent.cacheWrites }),
    reasoningInPrompt: parent.reasoningInPrompt,
    clock: parent.clock,
    retry: parent.retry,
    countTokens: spec.context.countTokens ?? parent.countTokens,
    member: join(spec.agentId),
  };
}
