/**
 * An agent's parts by the numbers its runs say (`header.agent.part`), the one rule of grouping (group.ts
 * sorts an agent's runs by it), refusal (treeIssues.ts: one part in two runs), words (result.ts: `main,
 * part 3 of 3` however many of its parts were given) and the parts no input holds (below its last: a file
 * not given, warned of as an unrecorded agent is — its calls and cost are not in the tree's totals).
 */
import { maxOf } from '../metrics/extremes.js';
import type { Trace } from '../trace/types.js';
import type { SessionTree, UnrecordedAgent } from './group.js';

/** The part a run of an agent says it is: `agent.part`; a run without one is part 1. */
export function partNumber(run: Pick<Trace, 'header'>): number {
  return run.header.agent?.part ?? 1;
}

/**
 * Where an agent's run `index` (0-based, in its runs' order) is, in words: the part its run says it is,
 * of the last part its runs say (`part 3 of 3` when part 2 was not given; an agent of no runs — a live
 * tree's — is one part).
 */
export function partPlace(runs: readonly Pick<Trace, 'header'>[], index: number): { part: number; parts: number } {
  const numbers = runs.map(partNumber);
  return { part: numbers[index] ?? index + 1, parts: maxOf(numbers, 1) };
}

/** The part numbers below an agent's last that none of its runs says, in order (`[2]` of parts 1 and 3; `[1, 2]` of a lone part 3). */
export function missingParts(runs: readonly Pick<Trace, 'header'>[]): number[] {
  const numbers = runs.map(partNumber);
  const said = new Set(numbers);
  const last = maxOf(numbers, 0);
  const missing: number[] = [];
  for (let part = 1; part < last; part++) if (!said.has(part)) missing.push(part);
  return missing;
}

/** Each agent of the tree whose runs leave parts out, as an unrecorded agent of those parts (`startedBy` itself: its earlier part ran on into them). */
export function unrecordedParts(tree: Pick<SessionTree, 'agents'>): UnrecordedAgent[] {
  return tree.agents.flatMap((agent) => {
    const parts = missingParts(agent.runs);
    return parts.length === 0 ? [] : [{ agentId: agent.agentId, startedBy: agent.agentId, live: agent.runs.some((run) => run.header.live === true), parts }];
  });
}
