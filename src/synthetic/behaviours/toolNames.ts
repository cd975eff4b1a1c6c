/**
 * The tools each behaviour calls, by name: its own tool (the one its failure or work is about, which a
 * population entry's `tool` renames) and the others it calls under fixed names. The behaviours take their
 * names from here, and `serve --check` and docs/scenarios.md list them from here: an agent served a scenario
 * sees these names, and its own brakes (a repeat limit) count them.
 */
import type { BehaviourKind } from '../agent.js';

/** The ordinary steps before a repeater's cycle or a retrier's attempts (`leadSteps`). */
export const LEAD_TOOL = 'work';
/** The perfectionist's judge of the sources found so far. */
export const JUDGE_TOOL = 'judge_sources';
/** The forgetful agent's work steps. */
export const WRITE_TOOL = 'write_section';

interface BehaviourTools {
  /** The tool an entry's `tool` renames. */
  readonly own: string;
  /** Tools it also calls after its first own call, under these names whatever `tool` says. */
  readonly others: readonly string[];
  /** It calls LEAD_TOOL before its own tool: always (the asker's work), or with `leadSteps` (repeater, retrier). */
  readonly lead?: 'always' | 'leadSteps';
}

export const BEHAVIOUR_TOOLS: Readonly<Record<BehaviourKind, BehaviourTools>> = {
  healthy: { own: 'run', others: [] },
  perfectionist: { own: 'web_search', others: [JUDGE_TOOL] },
  repeater: { own: 'act', others: [], lead: 'leadSteps' },
  retrier: { own: 'lookup', others: [], lead: 'leadSteps' },
  forgetful: { own: 'read_log', others: [WRITE_TOOL] },
  asker: { own: 'send_message', others: [], lead: 'always' },
  backtracker: { own: 'search', others: [] },
  sloppy: { own: 'run', others: [] },
};

/** The name a behaviour's own tool goes by: the entry's `tool`, else the behaviour's default. */
export function ownTool(behaviour: BehaviourKind, tool: string | undefined): string {
  return tool ?? BEHAVIOUR_TOOLS[behaviour].own;
}

/** What toolsCalled reads of a population entry. */
export interface ToolsOf {
  behaviour: BehaviourKind;
  tool?: string | undefined;
  leadSteps?: unknown;
}

/** The tools an entry's agent may call, in the order it first calls them: a lead's, its own, the others. */
export function toolsCalled(entry: ToolsOf): string[] {
  const { lead, others } = BEHAVIOUR_TOOLS[entry.behaviour];
  const leads = lead === 'always' || (lead === 'leadSteps' && entry.leadSteps !== undefined) ? [LEAD_TOOL] : [];
  return [...new Set([...leads, ownTool(entry.behaviour, entry.tool), ...others])];
}
