/**
 * A live tree whose agent's model gave up (a failed call not retried) or that was aborted (its AbortSignal,
 * fired from a tool) asked for no call after that: no brake was checked after it, whatever was due. Its
 * recordings, replayed with replayTree (`replay --tree`), end each such agent there too — in trace_end,
 * the tree's and the agent's brakes due right after unchecked — and every agent's stop, steps and cost
 * are the live run's (kernel/gaveUp.ts through the StepSource the tree engine builds for each agent).
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
import { ModelCallError, type AgentRunResult } from '../../src/agent/types.js';
import { NO_BRAKES, type BrakeConfig } from '../../src/brakes/config.js';
import { FULL_HISTORY } from '../../src/context/strategy.js';
import { loadTraceFile } from '../../src/import/index.js';
import type { Trace } from '../../src/trace/types.js';
import type { SubagentLimits } from '../../src/tree/budget.js';
import { replayTree } from '../../src/tree/replayTree.js';
import type { TreeResult } from '../../src/tree/result.js';
import { MINI, MINI_TABLE } from '../helpers.js';
import { answer, ScriptedModel, toolTurn, type Step } from './scripted.js';

const dir = mkdtempSync(join(tmpdir(), 'loopcost-tree-gave-up-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const words = (text: string) => text.split(/\s+/).filter(Boolean).length;
const usage = (outputTokens: number) => ({ inputTokens: 1000, outputTokens });
const GIVE_UP = 'GIVE_UP';
type Ending = 'answer' | typeof GIVE_UP;

interface Plan {
  name: string;
  /** How the sub-agent ends after its echo steps, and main after the delegate call. */
  sub: Ending;
  main: Ending;
  /** Echo steps of the sub-agent (its last one aborts the tree when `abortAt` says so). */
  subSteps: number;
  /** The sub-agent's echo call (1-based) whose tool fires the tree's AbortSignal. */
  abortAt?: number;
  brakes?: BrakeConfig;
  limits?: SubagentLimits;
}

const ending = (how: Ending, what: string): Step => (how === GIVE_UP ? new ModelCallError('overloaded', { status: 500, retryable: false }) : answer(`${what} done`, usage(40)));

/** main delegates once, then ends as `plan.main` says; the sub-agent takes `subSteps` echo steps and ends as `plan.sub` says; every agent recorded to a file of its own. */
async function liveTree(plan: Plan): Promise<{ run: AgentRunResult; runs: Trace[] }> {
  const clock = new VirtualClock();
  const controller = new AbortController();
  let echoes = 0;
  const echo = defineTool<{ text: string }>({
    name: 'echo',
    description: 'says it back',
    parameters: { type: 'object' },
    run: ({ text }) => {
      if (++echoes === plan.abortAt) controller.abort();
      return text;
    },
  });
  const files = [join(dir, `${plan.name}-main.jsonl`)];
  const delegate = defineSubagentTool<{ task: string }>({
    name: 'delegate',
    description: 'hands a task to a sub-agent',
    parameters: { type: 'object' },
    agent: ({ task }) => {
      const steps: Step[] = Array.from({ length: plan.subSteps }, (_, i) => () => (clock.advance(700), toolTurn('echo', { text: `${task} ${i}` }, usage(100))));
      files.push(join(dir, `${plan.name}-sub.jsonl`));
      return { agentId: 'sub', model: new ScriptedModel([...steps, ending(plan.sub, task)]), tools: [echo], context: { system: 'You research.', goal: task }, recorder: fileRecorder(files.at(-1)!) };
    },
  });
  const main = new ScriptedModel([toolTurn('delegate', { task: 'research' }, usage(50)), ending(plan.main, 'main')]);
  const run = await runAgentLoop({
    model: main,
    tools: [delegate],
    brakes: plan.brakes ?? NO_BRAKES,
    unbounded: true,
    ...(plan.limits ? { subagentLimits: plan.limits } : {}),
    context: { system: 's', goal: 'g', countTokens: words },
    pricing: MINI,
    clock,
    signal: controller.signal,
    retry: { maxRetries: 3, backoffMs: () => 0 },
    recorder: fileRecorder(files[0]!),
  });
  const runs = (await Promise.all(files.map((file) => loadTraceFile(file)))).flat();
  return { run, runs };
}

/** An abort is no stop a replay can name (never in a replay): the recording ends there, in trace_end, as it says. */
const asReplayed = (reason: string) => (reason === 'aborted' ? 'trace_end' : reason);
const liveFigures = (run: AgentRunResult) => ({
  agents: run.tree!.agents.map((a) => [a.agentId, a.steps, a.costPico, asReplayed(a.stop.reason), a.stop.detail]),
  totals: [run.tree!.totals.steps, run.tree!.totals.costPico],
  stopped: run.tree!.stopped.map((s) => [s.agentId, s.reason, s.by]),
});
const replayFigures = (tree: TreeResult) => ({
  agents: tree.agents.map((a) => [a.agentId, a.steps, a.costPico, a.stop?.reason, a.stop?.detail]),
  totals: [tree.totals.steps, tree.totals.costPico],
  stopped: tree.stopped.map((s) => [s.agentId, s.reason, s.by]),
});
const replayed = (runs: Trace[], plan: Plan) => replayTree(runs, { brakes: plan.brakes ?? NO_BRAKES, ...(plan.limits ? { subagent: plan.limits } : {}), strategy: FULL_HISTORY, prices: MINI_TABLE });

describe('a live tree whose agent’s model gave up replays to where it gave up', () => {
  it.each<[string, Omit<Plan, 'name'>, string[][]]>([
    // The sub-agent's third step failed and its model gave up: at 3 steps, its cap of 3 was due before a fourth call never asked for.
    ['a sub-agent, at its per-agent step cap', { sub: GIVE_UP, main: 'answer', subSteps: 2, limits: { maxSteps: 3 } }, [['main', 'completed'], ['sub', 'trace_end']]],
    // The tree's cap of 4 (main 1 + sub 3) was due after the sub-agent gave up: main's next call is the first it stops.
    ['a sub-agent, at the tree’s step cap', { sub: GIVE_UP, main: 'answer', subSteps: 2, brakes: { ...NO_BRAKES, maxSteps: 4 } }, [['main', 'max_steps'], ['sub', 'trace_end']]],
    // main's second call failed and its model gave up, the tree at its cap of 4 steps (main 2 + sub 2).
    ['the main agent, at the tree’s step cap', { sub: 'answer', main: GIVE_UP, subSteps: 1, brakes: { ...NO_BRAKES, maxSteps: 4 } }, [['main', 'trace_end'], ['sub', 'completed']]],
  ])('%s: every agent’s stop, steps and cost as live', async (name, plan, stops) => {
    const { run, runs } = await liveTree({ name: name.replace(/\W+/g, '-'), ...plan });
    expect(run.tree!.agents.map((a) => [a.agentId, a.stop.reason])).toEqual(stops);
    expect(runs.map((r) => [r.header.agent!.agentId, r.header.live, r.end.outcome])).toEqual(run.tree!.agents.map((a) => [a.agentId, true, a.stop.reason === 'completed' ? 'completed' : a.stop.reason === 'trace_end' ? 'error' : 'limit']));
    const tree = replayed(runs, { name, ...plan });
    // Before the fix the agent whose model gave up was stopped by the brake due after its failed call (max_steps).
    expect(replayFigures(tree)).toEqual(liveFigures(run));
    const gaveUp = tree.agents.find((a) => a.stop?.reason === 'trace_end')!;
    expect(run.tree!.agents.find((a) => a.agentId === gaveUp.agentId)!.stop.detail).toBe('model call failed: 500 overloaded; not retried');
  });

  it('the same recordings not written by a real loop (no `live`): the brakes due after the failed call still stop it', async () => {
    const plan: Plan = { name: 'not-live', sub: GIVE_UP, main: 'answer', subSteps: 2, limits: { maxSteps: 3 } };
    const { runs } = await liveTree(plan);
    const imported = runs.map(({ header: { live: _live, ...header }, ...run }) => ({ ...run, header }));
    expect(replayed(imported, plan).agents.map((a) => [a.agentId, a.stop?.reason, a.stop?.by])).toEqual([['main', 'completed', undefined], ['sub', 'max_steps', 'subagent']]);
  });
});

describe('a live tree aborted from a tool replays to where it was aborted', () => {
  it('the AbortSignal fired by the sub-agent’s last tool call: both agents end there, the step caps due then unchecked', async () => {
    // The sub-agent's second echo aborts: sub 2 steps (its cap of 2 due), the tree 3 steps (its cap of 3 due).
    const plan: Omit<Plan, 'name'> = { sub: 'answer', main: 'answer', subSteps: 4, abortAt: 2, brakes: { ...NO_BRAKES, maxSteps: 3 }, limits: { maxSteps: 2 } };
    const { run, runs } = await liveTree({ name: 'aborted', ...plan });
    expect(run.tree!.agents.map((a) => [a.agentId, a.steps, a.stop.reason, a.stop.detail])).toEqual([
      ['main', 1, 'aborted', 'stopped by its AbortSignal after 1 step'],
      ['sub', 2, 'aborted', 'stopped by its AbortSignal after 2 steps'],
    ]);
    expect(runs.map((r) => r.end)).toEqual([
      { type: 'end', outcome: 'unknown', status: 'stopped by its AbortSignal after 1 step', aborted: true, recordedCostUsd: expect.any(Number) },
      { type: 'end', outcome: 'unknown', status: 'stopped by its AbortSignal after 2 steps', aborted: true, recordedCostUsd: expect.any(Number) },
    ]);
    const tree = replayed(runs, { name: 'aborted', ...plan });
    expect(replayFigures(tree)).toEqual(liveFigures(run));
    expect(tree.stopDetail).toMatch(/^main: stopped by its AbortSignal after 1 step/);
    // A recording cut off there (its process killed: no end record) says nothing of what came next: the brakes due still stop it.
    const cutOff = runs.map((r) => ({ ...r, end: { type: 'end' as const, outcome: 'unknown' as const, status: 'live recording cut off before its end record' } }));
    expect(replayed(cutOff, { name: 'cut', ...plan }).agents.map((a) => [a.agentId, a.stop?.reason, a.stop?.by])).toEqual([['main', 'max_steps', 'tree'], ['sub', 'max_steps', 'tree']]);
  });
});
