/**
 * A sub-agent that starts its own sub-agent: the live tree's time counts the grandchild's time once. The
 * parent's tool call that ran the child counts only its time beyond the child's subtree (the child's calls
 * and tools and the grandchild's), as a recorded tree's replay reads it (kernel/subagentTime.ts toolOwnMs).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fileRecorder } from '../../src/agent/recorder.js';
import { FULL_HISTORY } from '../../src/context/strategy.js';
import { loadTraceFile } from '../../src/import/index.js';
import { replayTree } from '../../src/tree/replayTree.js';
import { VirtualClock } from '../../src/agent/clock.js';
import { runAgentLoop } from '../../src/agent/run.js';
import { defineSubagentTool } from '../../src/agent/subagent.js';
import type { AgentTool } from '../../src/agent/types.js';
import { NO_BRAKES } from '../../src/brakes/config.js';
import { MINI, MINI_TABLE } from '../helpers.js';
import { answer, ScriptedModel, toolTurn } from '../agent/scripted.js';

const dir = mkdtempSync(join(tmpdir(), 'loopcost-nested-time-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const recorder = (name: string) => fileRecorder(join(dir, `${name}.jsonl`));
const usage = { inputTokens: 100, outputTokens: 10 };
const words = (text: string) => text.split(/\s+/).filter(Boolean).length;

function slowTool(clock: VirtualClock, ms: number): AgentTool {
  return { name: 'slow', description: 'runs', parameters: { type: 'object' }, run: async () => (clock.advance(ms), 'ok') };
}

function delegate(name: string, agent: () => Parameters<typeof defineSubagentTool>[0]['agent'] extends (...a: never[]) => infer R ? R : never) {
  return defineSubagentTool<{ task: string }>({ name, description: 'hands a task to a sub-agent', parameters: { type: 'object' }, agent });
}

describe('nested sub-agents in the live loop', () => {
  it("count a grandchild's time once in the tree's time, and its recordings replay to the same time", async () => {
    const clock = new VirtualClock();
    const slow = slowTool(clock, 5000);
    const step = () => (clock.advance(1000), toolTurn('slow', {}, usage));
    const grand = delegate('grand', () => ({ agentId: 'grand', model: new ScriptedModel([step, answer('grand done', usage)]), tools: [slow], context: { system: 's', goal: 'g' }, recorder: recorder('grand') }));
    const sub = delegate('sub', () => ({ agentId: 'sub', model: new ScriptedModel([toolTurn('grand', { task: 'b' }, usage), answer('sub done', usage)]), tools: [grand], context: { system: 's', goal: 'g' }, recorder: recorder('sub') }));
    const run = await runAgentLoop({ model: new ScriptedModel([toolTurn('sub', { task: 'a' }, usage), answer('done', usage)]), tools: [sub], brakes: NO_BRAKES, unbounded: true, context: { system: 's', goal: 'g', countTokens: words }, pricing: MINI, clock, recorder: recorder('main') });
    expect(clock.now()).toBe(6000);
    expect(run.tree!.totals.elapsedMs).toBe(6000);
    const runs = (await Promise.all(['main', 'sub', 'grand'].map((name) => loadTraceFile(join(dir, `${name}.jsonl`))))).flat();
    const replayed = replayTree(runs, { brakes: NO_BRAKES, strategy: FULL_HISTORY, prices: MINI_TABLE });
    expect(replayed.totals.elapsedMs).toBe(6000);
  });
});
