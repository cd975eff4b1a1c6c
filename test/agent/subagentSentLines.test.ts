/**
 * A real-loop tree's recordings write each model call as sent before it is made, as a single run's do
 * (treeRecording.ts forwards `sent`): a run killed during a sub-agent's call, or during the root's call in a
 * tree, leaves that call on disk (a sent line, billed at the loop's prompt estimate), stating the start
 * (`startMs`) its complete record states once it answers. Before, the tree's recorder dropped the sent
 * lines: a tree killed mid-call lost the call the provider may bill.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/agent/clock.js';
import { fileRecorder } from '../../src/agent/recorder.js';
import { runAgentLoop } from '../../src/agent/run.js';
import { defineSubagentTool } from '../../src/agent/subagent.js';
import { NO_BRAKES } from '../../src/brakes/config.js';
import { FULL_HISTORY } from '../../src/context/strategy.js';
import { loadTraceFile } from '../../src/import/index.js';
import { isSentCall } from '../../src/trace/liveRecording.js';
import { replayTree } from '../../src/tree/replayTree.js';
import { tempDir } from '../cli/run.js';
import { MINI, MINI_TABLE } from '../helpers.js';
import { answer, ScriptedModel, toolTurn, type Step } from './scripted.js';
import { echo, words } from './strategyRuns.js';

const usage = (outputTokens: number) => ({ inputTokens: 1000, outputTokens });

/** A step that first copies `from` to `to` (the file as a run killed during this call leaves it), then answers `turn`. */
const killedDuring = (from: () => string, to: string, turn: ReturnType<typeof answer>): Step => () => {
  writeFileSync(to, readFileSync(from(), 'utf8'));
  return turn;
};

describe('a live tree’s recordings write each call as sent before it is made', () => {
  it('killed during a sub-agent’s call, or the root’s: that call is on disk, sent, at the start its complete record states; the tree replays to the run', async () => {
    const dir = tempDir();
    const files = { main: join(dir, 'main.jsonl'), sub: join(dir, 'sub.jsonl') };
    const killed = { main: join(dir, 'main-killed.jsonl'), sub: join(dir, 'sub-killed.jsonl') };
    const clock = new VirtualClock();
    const delegate = defineSubagentTool<{ task: string }>({
      name: 'delegate',
      description: 'hands a task to a sub-agent',
      parameters: { type: 'object', properties: { task: { type: 'string' } } },
      agent: ({ task }) => {
        const model = new ScriptedModel([toolTurn('echo', { text: `${task} 1` }, usage(100)), killedDuring(() => files.sub, killed.sub, answer(`${task} done`, usage(20)))]);
        return { agentId: 'sub', model, tools: [echo], context: { system: 'You research.', goal: task }, recorder: fileRecorder(files.sub) };
      },
    });
    const main = new ScriptedModel([toolTurn('delegate', { task: 'a' }, usage(50)), killedDuring(() => files.main, killed.main, answer('done', usage(50)))]);
    const run = await runAgentLoop({ model: main, tools: [delegate], brakes: NO_BRAKES, unbounded: true, context: { system: 's', goal: 'g', countTokens: words }, pricing: MINI, clock, recorder: fileRecorder(files.main) });
    expect(run.stop.reason).toBe('completed');

    for (const agent of ['sub', 'main'] as const) {
      const [cut] = await loadTraceFile(killed[agent]);
      const [done] = await loadTraceFile(files[agent]);
      expect(cut!.calls, agent).toHaveLength(2);
      expect(isSentCall(cut!.calls[1]), agent).toBe(true);
      expect(cut!.calls[1]!.startMs, agent).toBe(done!.calls[1]!.startMs);
      expect(cut!.calls[0], agent).toEqual(done!.calls[0]);
    }
    const runs = [(await loadTraceFile(files.main))[0]!, (await loadTraceFile(files.sub))[0]!];
    const tree = replayTree(runs, { brakes: NO_BRAKES, strategy: FULL_HISTORY, prices: MINI_TABLE });
    expect([tree.totals.steps, tree.totals.costPico]).toEqual([run.tree!.totals.steps, run.tree!.totals.costPico]);
  });
});
