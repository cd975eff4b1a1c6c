/**
 * Which tree and which agent a real-loop recording belongs to: every live tree gets a session id of its
 * own (two trees started in the same millisecond, or recorded by a recorder that does not date them),
 * every start of a sub-agent is an agent of its own (the same agent id started twice), and the replay
 * of the recordings reads them so — also recordings made before ids were unique — with the live run's
 * figures, its stops in the order they happened.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { VirtualClock } from '../../src/agent/clock.js';
import { fileRecorder } from '../../src/agent/recorder.js';
import { runAgentLoop } from '../../src/agent/run.js';
import { defineSubagentTool } from '../../src/agent/subagent.js';
import { defineTool } from '../../src/agent/tools.js';
import type { AgentRunResult, AgentTool, TraceRecorder } from '../../src/agent/types.js';
import { NO_BRAKES, type BrakeConfig } from '../../src/brakes/config.js';
import { FULL_HISTORY } from '../../src/context/strategy.js';
import { loadTraceFile } from '../../src/import/index.js';
import type { Trace } from '../../src/trace/types.js';
import type { SubagentLimits } from '../../src/tree/budget.js';
import { replayTrees } from '../../src/tree/replayTree.js';
import { MINI, MINI_TABLE, userErrorOf } from '../helpers.js';
import { answer, ScriptedModel, toolTurn, type Step } from './scripted.js';

const dir = mkdtempSync(join(tmpdir(), 'loopcost-tree-ids-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(() => vi.useRealTimers());

const words = (text: string) => text.split(/\s+/).filter(Boolean).length;
const echo = defineTool<{ text: string }>({ name: 'echo', description: 'says it back', parameters: { type: 'object' }, run: ({ text }) => text });
const usage = (outputTokens: number) => ({ inputTokens: 1000, outputTokens });

/** Where a tree's agents record: a file each (fileRecorder), or one list for all by a recorder that does not date. */
type Sink = { files: string[] } | { list: Trace[] };

/** Records to one shared list, a trace per header, without dating (a custom recorder). */
function listRecorder(list: Trace[], source: string): TraceRecorder {
  let trace: Trace | undefined;
  return {
    header: (header) => void list.push((trace = { source, header: structuredClone(header), calls: [], end: { type: 'end', outcome: 'unknown' } })),
    call: (call) => void (trace!.calls = [...trace!.calls, structuredClone(call)]),
    end: (end) => void (trace!.end = end),
  };
}

function recorderIn(sink: Sink, label: string): TraceRecorder {
  if ('list' in sink) return listRecorder(sink.list, label);
  sink.files.push(join(dir, `${label}.jsonl`));
  return fileRecorder(sink.files.at(-1)!);
}

interface Plan {
  name: string;
  /** The agent id each of main's delegate calls starts. */
  ids: string[];
  /** Echo steps of each sub-agent before it answers. */
  subSteps?: number;
  /** Each sub-agent first delegates to a `helper` (one echo step, an answer). */
  nested?: boolean;
  limits?: SubagentLimits;
  brakes?: BrakeConfig;
  sink?: Sink;
}

/** A live tree (main delegates once per id, then answers), every agent recorded. */
async function liveTree(plan: Plan): Promise<{ run: AgentRunResult; runs: Trace[] }> {
  const clock = new VirtualClock();
  const sink: Sink = plan.sink ?? { files: [] };
  let started = 0;
  /** A sub-agent: `first` (if any), `steps` echo steps, an answer; recorded in the sink. */
  const subagent = (agentId: string, task: string, steps: number, tools: AgentTool<never>[], first: Step[] = []) => {
    const script: Step[] = Array.from({ length: steps }, (_, i) => () => (clock.advance(700), toolTurn('echo', { text: `${task} ${i}` }, usage(100))));
    const recorder = recorderIn(sink, `${plan.name}-${++started}-${agentId}`);
    return { agentId, model: new ScriptedModel([...first, ...script, answer(`${task} done`, usage(100))]), tools, context: { system: 'You research.', goal: task }, recorder };
  };
  const helper = defineSubagentTool<{ task: string }>({ name: 'helper', description: 'asks a helper', parameters: { type: 'object' }, agent: ({ task }) => subagent('helper', task, 1, [echo]) });
  const delegate = defineSubagentTool<{ task: string; id: string }>({
    name: 'delegate',
    description: 'hands a task to a sub-agent',
    parameters: { type: 'object' },
    agent: ({ task, id }) => (plan.nested ? subagent(id, task, plan.subSteps ?? 6, [echo, helper], [toolTurn('helper', { task: `${task}/help` }, usage(100))]) : subagent(id, task, plan.subSteps ?? 6, [echo])),
  });
  const main = new ScriptedModel([...plan.ids.map((id, i) => toolTurn('delegate', { task: `t${i}`, id }, usage(50))), answer('done', usage(50))]);
  const rootRecorder = recorderIn(sink, `${plan.name}-0-main`);
  const run = await runAgentLoop({ model: main, tools: [delegate], brakes: plan.brakes ?? NO_BRAKES, unbounded: true, ...(plan.limits ? { subagentLimits: plan.limits } : {}), context: { system: 's', goal: 'g', countTokens: words }, pricing: MINI, clock, recorder: rootRecorder });
  const runs = 'list' in sink ? sink.list : (await Promise.all(sink.files.map((file) => loadTraceFile(file)))).flat();
  return { run, runs };
}

const replay = (runs: Trace[], plan: Pick<Plan, 'limits' | 'brakes'> = {}) => replayTrees(runs, { brakes: plan.brakes ?? NO_BRAKES, ...(plan.limits ? { subagent: plan.limits } : {}), strategy: FULL_HISTORY, prices: MINI_TABLE }).trees;
const figures = (agents: { agentId: string; parentAgentId?: string; steps: number; costPico: number; stop?: { reason: string } }[]) => agents.map((a) => [a.agentId, a.parentAgentId, a.steps, a.costPico, a.stop?.reason]);
const liveFigures = (run: AgentRunResult) => ({ agents: figures(run.tree!.agents), steps: run.tree!.totals.steps, costPico: run.tree!.totals.costPico, stopped: run.tree!.stopped.map((s) => [s.agentId, s.reason, s.by]) });
const replayFigures = (tree: ReturnType<typeof replay>[number]) => ({ agents: figures(tree.agents), steps: tree.totals.steps, costPico: tree.totals.costPico, stopped: tree.stopped.map((s) => [s.agentId, s.reason, s.by]) });
const sessionOf = (run: Trace) => run.header.agent!.sessionId;
/** Recordings as two processes (or a recorder before ids were unique) would have written them: `from`'s session named `to`. */
const renamedSession = (runs: Trace[], to: string) => runs.map((run) => ({ ...run, header: { ...run.header, agent: { ...run.header.agent!, sessionId: to } } }));

describe('two live trees recorded at once are two trees', () => {
  it('started in the same millisecond (fileRecorder): distinct session ids, each tree replayed on its own to its live figures', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2025-06-01T12:00:00.000Z'));
    const first = await liveTree({ name: 'ms-a', ids: ['sub-a', 'sub-b'] });
    const second = await liveTree({ name: 'ms-b', ids: ['sub-a'], subSteps: 3 });
    expect(second.runs[0]!.header.recordedAt).toBe(first.runs[0]!.header.recordedAt);
    for (const { runs } of [first, second]) expect(new Set(runs.map(sessionOf))).toEqual(new Set([sessionOf(runs[0]!)]));
    expect(sessionOf(first.runs[0]!)).not.toBe(sessionOf(second.runs[0]!));
    expect(sessionOf(first.runs[0]!)).toMatch(/^live-\d+$/); // Undated: a VirtualClock without an epoch tells no date (never the real date set above).
    const trees = replay([...first.runs, ...second.runs]);
    expect(trees.map(replayFigures)).toEqual([liveFigures(first.run), liveFigures(second.run)]);
  });

  it('a recorder that neither dates nor numbers its trees: ids read from the root header (alike here), the replay still two trees', async () => {
    const list: Trace[] = [];
    const first = await liveTree({ name: 'undated-a', ids: ['sub-a', 'sub-b'], sink: { list } });
    const firstRuns = [...first.runs];
    const second = await liveTree({ name: 'undated-b', ids: ['sub-a'], subSteps: 3, sink: { list } });
    const secondRuns = list.slice(firstRuns.length);
    expect(sessionOf(firstRuns[0]!)).toMatch(/^live-\d+$/);
    // Two roots alike (same header) share an id: no count of the process's trees tells them apart (treeRecording.ts).
    expect(new Set(list.map(sessionOf)).size).toBe(1);
    const trees = replay(list);
    expect(trees.map(replayFigures)).toEqual([liveFigures(first.run), liveFigures(second.run)]);
    expect(trees.map((tree) => tree.sessionId)).toEqual([sessionOf(firstRuns[0]!), `${sessionOf(firstRuns[0]!)}#2`]);
    expect(secondRuns.every((run) => sessionOf(run) === sessionOf(secondRuns[0]!))).toBe(true);
  });

  it('recordings whose trees share a session id all the same (two processes, older recordings) replay as two trees, with a note', async () => {
    const first = await liveTree({ name: 'shared-a', ids: ['sub-a', 'sub-b'] });
    const second = await liveTree({ name: 'shared-b', ids: ['sub-a'], subSteps: 3 });
    const shared = sessionOf(first.runs[0]!);
    const trees = replay([...first.runs, ...renamedSession(second.runs, shared)]);
    expect(trees.map(replayFigures)).toEqual([liveFigures(first.run), liveFigures(second.run)]);
    expect(trees.map((tree) => tree.sessionId)).toEqual([shared, `${shared}#2`]);
    expect(trees[1]!.notes.join('\n')).toMatch(/recorded live under one session id/);
  });

  it('one tree’s recordings given twice: a clear error, not a tree of twice the agents', async () => {
    const { runs } = await liveTree({ name: 'twice', ids: ['sub-a'] });
    const error = userErrorOf(() => replay([...runs, ...runs]));
    expect(error.issues[0]).toMatchObject({ code: 'ambiguous_live_tree', file: runs[1]!.source });
    expect(error.message).toMatch(/sub-a.*given twice/);
  });
});

describe('the same sub-agent id started twice in one tree', () => {
  const plan: Plan = { name: 'reused', ids: ['researcher', 'researcher'], nested: true, subSteps: 4, limits: { maxSteps: 3 } };

  it('each start is an agent of its own (`researcher`, `researcher#2`), under its own per-agent limit; the replay agrees', async () => {
    const { run, runs } = await liveTree(plan);
    expect(run.tree!.agents.map((a) => [a.agentId, a.parentAgentId, a.steps, a.stop.reason])).toEqual([
      ['main', undefined, 3, 'completed'],
      ['researcher', 'main', 3, 'max_steps'],
      ['helper', 'researcher', 2, 'completed'],
      ['researcher#2', 'main', 3, 'max_steps'],
      ['helper#2', 'researcher#2', 2, 'completed'],
    ]);
    expect(runs.map((r) => [r.header.agent!.agentId, r.header.agent!.parentAgentId])).toEqual(run.tree!.agents.map((a) => [a.agentId, a.parentAgentId]));
    expect(runs[0]!.calls.map((c) => c.toolCalls?.[0]?.startedAgentId)).toEqual(['researcher', 'researcher#2', undefined]);
    const [tree] = replay(runs, plan);
    expect(replayFigures(tree!)).toEqual(liveFigures(run));
  });

  it('recordings that name both starts `researcher` (made before ids were unique) replay the same: each start linked by its tool call', async () => {
    const { run, runs } = await liveTree({ ...plan, name: 'reused-old' });
    const old = (id: string | undefined) => id?.replace(/#2$/, '');
    const before = runs.map((r) => ({
      ...r,
      header: { ...r.header, agent: { ...r.header.agent!, agentId: old(r.header.agent!.agentId)!, ...(r.header.agent!.parentAgentId ? { parentAgentId: old(r.header.agent!.parentAgentId)! } : {}) } },
      calls: r.calls.map((c) => (c.toolCalls ? { ...c, toolCalls: c.toolCalls.map((t) => (t.startedAgentId ? { ...t, startedAgentId: old(t.startedAgentId)! } : t)) } : c)),
    }));
    expect(new Set(before.map((r) => r.header.agent!.agentId))).toEqual(new Set(['main', 'researcher', 'helper']));
    const [tree] = replay(before, plan);
    expect(replayFigures(tree!)).toEqual(liveFigures(run));
  });
});

describe('stops are listed in the order they happened, live and in the replay', () => {
  it('a tree budget that stops the second sub-agent, then main', async () => {
    const full = (await liveTree({ name: 'order-full', ids: ['sub-a', 'sub-b'] })).run.tree!.totals.costPico;
    const brakes = { ...NO_BRAKES, maxCostPico: Math.floor(full * 0.7) };
    const { run, runs } = await liveTree({ name: 'order', ids: ['sub-a', 'sub-b'], brakes });
    expect(run.tree!.stopped.map((s) => [s.agentId, s.reason, s.by])).toEqual([
      ['sub-b', 'budget', 'tree'],
      ['main', 'budget', 'tree'],
    ]);
    expect(replay(runs, { brakes }).map(replayFigures)).toEqual([liveFigures(run)]);
  });
});
