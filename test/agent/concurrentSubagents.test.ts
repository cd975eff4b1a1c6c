/**
 * Concurrent ToolContext.runSubagent calls (a tool that fans out with Promise.all) run one at a time, in
 * the order asked (TreeMember.inTurn): each worker is checked against the budget the ones before it left,
 * and `replay --tree` of the recordings (replayTree) gives the live tree's figures. Before, three workers
 * at once under a $0.002 budget spent $0.002532 live, while the replay of their recordings spent $0.00216
 * with the third worker stopped.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/agent/clock.js';
import { fileRecorder } from '../../src/agent/recorder.js';
import { runAgentLoop } from '../../src/agent/run.js';
import { defineTool } from '../../src/agent/tools.js';
import type { AgentRunResult, AgentTool } from '../../src/agent/types.js';
import { NO_BRAKES } from '../../src/brakes/config.js';
import { FULL_HISTORY } from '../../src/context/strategy.js';
import { loadTraceFile } from '../../src/import/index.js';
import { replayTree } from '../../src/tree/replayTree.js';
import { MINI, MINI_TABLE } from '../helpers.js';
import { answer, ScriptedModel, toolTurn } from './scripted.js';

const dir = mkdtempSync(join(tmpdir(), 'loopcost-concurrent-subagents-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const words = (text: string) => text.split(/\s+/).filter(Boolean).length;
const echo = defineTool<{ i: number }>({ name: 'echo', description: 'echo', parameters: { type: 'object' }, run: ({ i }) => `echo ${i}` });

/** A worker whose calls take real time (so three at once would interleave): 4 echo steps, then its answer. */
function worker(k: number): ScriptedModel {
  const steps = Array.from({ length: 4 }, (_, i) => async () => (await sleep(2 + ((k + i) % 3) * 3), toolTurn('echo', { i })));
  return new ScriptedModel([...steps, async () => (await sleep(1), answer(`w${k} done`))]);
}

async function fanOut(maxCostPico: number): Promise<{ run: AgentRunResult; files: string[]; order: string[] }> {
  const files = [join(dir, `main-${maxCostPico}.jsonl`)];
  const order: string[] = [];
  const fan: AgentTool = {
    name: 'fan',
    description: 'three workers at once',
    parameters: { type: 'object' },
    subagent: true,
    run: async (_args, context) => {
      const runs = await Promise.all(
        [0, 1, 2].map((k) => {
          files.push(join(dir, `w${k}-${maxCostPico}.jsonl`));
          return context.runSubagent!({ agentId: 'w', model: worker(k), tools: [echo], context: { system: 's', goal: `goal ${k}` }, recorder: fileRecorder(files.at(-1)!) }).then((r) => (order.push(`${k}:${r.agentId}`), r));
        }),
      );
      return runs.map((r) => `${r.agentId}:${r.stop.reason}`).join(', ');
    },
  };
  const main = new ScriptedModel([toolTurn('fan', {}), answer('ok')]);
  const run = await runAgentLoop({ model: main, tools: [fan], brakes: { ...NO_BRAKES, maxCostPico }, context: { system: 's', goal: 'g', countTokens: words }, pricing: MINI, clock: new VirtualClock(), recorder: fileRecorder(files[0]!) });
  return { run, files, order };
}

const liveFigures = (run: AgentRunResult) => ({
  agents: run.tree!.agents.map((a) => [a.agentId, a.steps, a.costPico, a.stop.reason]),
  totals: [run.tree!.totals.steps, run.tree!.totals.costPico],
  stopped: run.tree!.stopped.map((s) => [s.agentId, s.reason, s.by]),
});

describe('concurrent sub-agents of one tool call run one at a time', () => {
  it.each([
    ['under a $0.002 tree budget (a worker stopped)', 2_000_000_000],
    ['with room for all three', 100_000_000_000],
  ])('%s: in the order asked, within the budget, and replay --tree gives the live figures', async (_, maxCostPico) => {
    const { run, files, order } = await fanOut(maxCostPico);
    expect(order).toEqual(['0:w', '1:w#2', '2:w#3']);
    const runs = (await Promise.all(files.map((file) => loadTraceFile(file)))).flat();
    const tree = replayTree(runs, { brakes: { ...NO_BRAKES, maxCostPico }, strategy: FULL_HISTORY, prices: MINI_TABLE });
    expect({
      agents: tree.agents.map((a) => [a.agentId, a.steps, a.costPico, a.stop?.reason]),
      totals: [tree.totals.steps, tree.totals.costPico],
      stopped: tree.stopped.map((s) => [s.agentId, s.reason, s.by]),
    }).toEqual(liveFigures(run));
    // The overshoot past the budget is one call's at most (the check before each call sees every spend before it).
    expect(run.tree!.totals.costPico).toBeLessThan(maxCostPico + 200_000_000);
  });
});
