/**
 * A real-loop tree recorded with fileRecorder (one file per agent) replays with replayTree — the library
 * side of `replay --tree` — as the tree the run was: same totals, each agent's steps, cost and stop.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/agent/clock.js';
import { fileRecorder } from '../../src/agent/recorder.js';
import { runAgentLoop } from '../../src/agent/run.js';
import { defineSubagentTool } from '../../src/agent/subagent.js';
import { defineTool } from '../../src/agent/tools.js';
import { NO_BRAKES, type BrakeConfig } from '../../src/brakes/config.js';
import { FULL_HISTORY } from '../../src/context/strategy.js';
import { loadTraceFile } from '../../src/import/index.js';
import type { SubagentLimits } from '../../src/tree/budget.js';
import { replayTree } from '../../src/tree/replayTree.js';
import { MINI, MINI_TABLE } from '../helpers.js';
import { answer, ScriptedModel, toolTurn } from './scripted.js';

const dir = mkdtempSync(join(tmpdir(), 'loopcost-tree-rec-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const words = (text: string) => text.split(/\s+/).filter(Boolean).length;
const echo = defineTool<{ text: string }>({ name: 'echo', description: 'says it back', parameters: { type: 'object' }, run: ({ text }) => text });
const usage = (outputTokens: number) => ({ inputTokens: 1000, outputTokens });

/** main delegates to `a`, then `b` (each six echo steps and an answer), then answers; every agent recorded to its own file. */
async function liveTree(name: string, brakes: BrakeConfig, subagentLimits?: SubagentLimits) {
  const clock = new VirtualClock();
  const files = [join(dir, `${name}-main.jsonl`)];
  const delegate = defineSubagentTool<{ task: string }>({
    name: 'delegate',
    description: 'hands a task to a sub-agent',
    parameters: { type: 'object', properties: { task: { type: 'string' } } },
    agent: ({ task }) => {
      const steps = Array.from({ length: 6 }, (_, i) => (() => (clock.advance(700), toolTurn('echo', { text: `${task} ${i}` }, usage(100)))) as () => ReturnType<typeof answer>);
      files.push(join(dir, `${name}-${task}.jsonl`));
      return { agentId: `sub-${task}`, model: new ScriptedModel([...steps, answer(`${task} done`, usage(100))]), tools: [echo], context: { system: 'You research.', goal: task }, recorder: fileRecorder(files.at(-1)!) };
    },
  });
  const main = new ScriptedModel([toolTurn('delegate', { task: 'a' }, usage(50)), toolTurn('delegate', { task: 'b' }, usage(50)), answer('done', usage(50))]);
  const run = await runAgentLoop({ model: main, tools: [delegate], brakes, unbounded: true, ...(subagentLimits ? { subagentLimits } : {}), context: { system: 's', goal: 'g', countTokens: words }, pricing: MINI, clock, recorder: fileRecorder(files[0]!) });
  const runs = (await Promise.all(files.map((file) => loadTraceFile(file)))).flat();
  return { run, runs };
}

function replayed(runs: Parameters<typeof replayTree>[0], brakes: BrakeConfig, subagent?: SubagentLimits) {
  return replayTree(runs, { brakes, ...(subagent ? { subagent } : {}), strategy: FULL_HISTORY, prices: MINI_TABLE });
}

const figures = (agents: { agentId: string; steps: number; costPico: number; stop?: { reason: string } }[]) => agents.map((a) => [a.agentId, a.steps, a.costPico, a.stop?.reason]);

describe('a live tree’s recordings replay with --tree as the tree it was', () => {
  it('per-agent step limits: each sub-agent stops at its limit in the replay too, the tree totals to the picodollar', async () => {
    const limits = { maxSteps: 3 };
    const { run, runs } = await liveTree('steps', NO_BRAKES, limits);
    // The tree's session: `live-<n>` (a VirtualClock without an epoch dates no recording; a dated one is
    // `live-<recordedAt>-<n>`), n numbering this process's live trees (unique in the same millisecond too).
    const sessionId = runs[0]!.header.agent!.sessionId;
    expect(runs[0]!.header.recordedAt).toBeUndefined();
    expect(sessionId).toMatch(/^live-\d+$/);
    expect(runs.map((r) => r.header.agent)).toEqual([
      { sessionId, agentId: 'main', kind: 'main' },
      { sessionId, agentId: 'sub-a', kind: 'subagent', parentAgentId: 'main', parentToolCallId: runs[0]!.calls[0]!.toolCalls![0]!.id },
      { sessionId, agentId: 'sub-b', kind: 'subagent', parentAgentId: 'main', parentToolCallId: runs[0]!.calls[1]!.toolCalls![0]!.id },
    ]);
    expect(runs[0]!.calls.map((c) => c.toolCalls?.[0]?.startedAgentId)).toEqual(['sub-a', 'sub-b', undefined]);
    // Each sub-agent's header states the brakes it ran under: the per-agent step limit.
    expect(runs.map((r) => r.header.recordedSettings?.maxSteps)).toEqual([undefined, 3, 3]);
    const tree = replayed(runs, NO_BRAKES, limits);
    expect(run.tree!.agents.map((a) => [a.agentId, a.steps, a.costPico, a.stop.reason])).toEqual([
      ['main', 3, expect.any(Number), 'completed'],
      ['sub-a', 3, expect.any(Number), 'max_steps'],
      ['sub-b', 3, expect.any(Number), 'max_steps'],
    ]);
    expect(figures(tree.agents)).toEqual(figures(run.tree!.agents));
    expect([tree.totals.steps, tree.totals.costPico]).toEqual([run.tree!.totals.steps, run.tree!.totals.costPico]);
    expect(tree.stopped.map((s) => [s.agentId, s.reason])).toEqual(run.tree!.stopped.map((s) => [s.agentId, s.reason]));
  });

  it.each([
    ['the second sub-agent mid-run', 0.7, [['sub-b', 'budget', 'tree'], ['main', 'budget', 'tree']], 2],
    ['the first sub-agent: the parent never starts the second', 0.3, [['sub-a', 'budget', 'tree'], ['main', 'budget', 'tree']], 1],
  ] as const)('a tree budget that stops %s: the replay stops the same agents after the same steps, to the picodollar', async (name, fraction, stopped, mainSteps) => {
    const full = (await liveTree(`full-${fraction}`, NO_BRAKES)).run.tree!.totals.costPico;
    const brakes = { ...NO_BRAKES, maxCostPico: Math.floor(full * fraction) };
    const { run, runs } = await liveTree(`budget-${fraction}`, brakes);
    expect(run.tree!.stopped.map((s) => [s.agentId, s.reason, s.by])).toEqual(stopped);
    expect(run.steps).toBe(mainSteps);
    const tree = replayed(runs, brakes);
    expect(figures(tree.agents)).toEqual(figures(run.tree!.agents));
    expect([tree.totals.steps, tree.totals.costPico]).toEqual([run.tree!.totals.steps, run.tree!.totals.costPico]);
    // Both list the stops in the order they came: the sub-agent's first.
    expect(tree.stopped.map((s) => [s.agentId, s.reason, s.by])).toEqual(stopped);
  });
});
