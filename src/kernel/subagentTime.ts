/**
 * Time a tool call that ran sub-agents counts, written once for the real loop (agent/loop.ts runTools)
 * and the replay of recorded session trees (tree/waitedTime.ts): the sub-agents' calls count their own
 * time on the tree's clock, so the tool call counts only its time beyond theirs — never the same time
 * twice. Pure: plain numbers.
 */

/**
 * A tool call's own time: `toolMs` (what the clock read from its start to its return) less `subagentsMs`
 * (the time of the sub-agents it ran or waited for, counted as theirs), never below 0.
 */
export function toolOwnMs(toolMs: number, subagentsMs: number): number {
  return Math.max(0, toolMs - subagentsMs);
}
