/** A native file of session-tree runs for the tree-integrity tests (impossibleTrees, contradictoryAgents). */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AgentRef } from '../../src/trace/types.js';

/** `dir/name`: a native file of runs, each given by its `header.agent` (3 lines a run: header, call with a Task call `t1`, end). */
export function treeFile(dir: string, name: string, agents: AgentRef[]): string {
  const lines = agents.flatMap((agent) => [
    JSON.stringify({ type: 'header', schema: 'loopcost.trace/1', model: 'gpt-4o', systemTokens: 100, goalTokens: 10, agent }),
    JSON.stringify({ type: 'call', inputTokens: 200, outputTokens: 10, toolCalls: [{ name: 'Task', arguments: {}, resultTokens: 5, id: 't1' }] }),
    JSON.stringify({ type: 'end', outcome: 'completed' }),
  ]);
  const path = join(dir, name);
  writeFileSync(path, lines.join('\n') + '\n');
  return path;
}
