/**
 * A live tree (runAgentLoop with a sub-agent tool) whose agents ran under a summary (or hybrid) strategy states it in
 * each recording's header (`context`), and `replay --tree` of the recordings replays each session as its loop ran it
 * (replay/recordedStrategy.ts, as a lone recording replays): the session under its stated strategy, its compaction
 * calls the strategy's summary calls, each call billed as recorded. Before, the tree engine replayed every such
 * session as full history (a summary call bounded as an ordinary call, the next prompt estimated unsummarised), and
 * the replay stopped apart from the live tree.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, tempDir } from '../cli/run.js';
import { VirtualClock } from '../../src/agent/clock.js';
import { fileRecorder } from '../../src/agent/recorder.js';
import { runAgentLoop } from '../../src/agent/run.js';
import { defineSubagentTool } from '../../src/agent/subagent.js';
import type { AgentRunResult, ModelRequest, ModelTurn } from '../../src/agent/types.js';
import { NO_BRAKES, type BrakeConfig } from '../../src/brakes/config.js';
import { contextSpecOf, FULL_HISTORY, type ContextStrategy } from '../../src/context/strategy.js';
import { loadTraceFile } from '../../src/import/index.js';
import type { Trace } from '../../src/trace/types.js';
import type { SubagentLimits } from '../../src/tree/budget.js';
import { replayTree } from '../../src/tree/replayTree.js';
import { handPriced, handTable } from '../helpers.js';
import { echo, lcg, words } from '../agent/strategyRuns.js';
import { ScriptedModel } from '../agent/scripted.js';

/** gpt-4o-mini as the bundled table prices it, so the CLI prices the recordings as the live tree paid them. */
const PRICED = handPriced('gpt-4o-mini', { input: 0.15, output: 0.6, cached: 0.075 }, 128_000);

/** The prompt as a provider counts it: every word sent, plus `framing` tokens. */
const billed = (request: ModelRequest, framing: number) => request.messages.reduce((n, m) => n + words(typeof m.content === 'string' ? m.content : ''), 0) + framing;

interface TreeCase {
  main: ContextStrategy;
  sub: ContextStrategy;
  brakes: BrakeConfig;
  subagentLimits?: SubagentLimits;
  /** The main agent's steps, and at which of them it delegates. */
  mainSteps: number;
  delegateAt: Set<number>;
  subSteps: number;
  seed: number;
}

function summaryOf(r: (n: number) => number, hybrid: boolean): ContextStrategy {
  const summary = { triggerTokens: 80 + r(120), keepSteps: 1 + r(3), summaryTokens: 10 + r(50) };
  return hybrid ? { kind: 'hybrid', maskSteps: 1 + r(2), summary } : { kind: 'summary', summary };
}

function treeCase(seed: number): TreeCase {
  const r = lcg(seed);
  const main = summaryOf(r, r(3) === 0);
  const sub = summaryOf(r, r(3) === 0);
  const mainSteps = 5 + r(8);
  const delegateAt = new Set([1 + r(mainSteps - 2), 1 + r(mainSteps - 2)]);
  const brakes: BrakeConfig = { ...NO_BRAKES, maxCostPico: 400_000_000 + r(3_000_000_000), budgetMode: r(2) === 0 ? 'predict' : 'check', maxOutputTokens: 60 + r(200) };
  return { main, sub, brakes, ...(r(3) === 0 ? { subagentLimits: { maxSteps: 2 + r(5) } } : {}), mainSteps, delegateAt, subSteps: 3 + r(8), seed };
}

/** A scripted agent: `steps` tool steps (a delegation where `delegateAt` says), then an answer; summary calls answered with fewer words than S. */
function script(r: (n: number) => number, shape: { steps: number; delegateAt: Set<number>; summaryTokens: number; framing: number }) {
  let step = 0;
  return (request: ModelRequest): ModelTurn => {
    if (request.purpose === 'summary') {
      const out = 3 + r(shape.summaryTokens - 2);
      return { text: Array.from({ length: out }, (_, i) => `s${i}`).join(' '), toolCalls: [], usage: { inputTokens: billed(request, shape.framing), outputTokens: out } };
    }
    step += 1;
    const usage = { inputTokens: billed(request, shape.framing), outputTokens: 20 + r(60) };
    if (step > shape.steps) return { text: 'done', toolCalls: [], usage };
    const delegate = shape.delegateAt.has(step);
    const text = Array.from({ length: 3 + r(30) }, (_, i) => `w${step}x${i}`).join(' ');
    return { text: null, toolCalls: [{ id: `c${step}`, name: delegate ? 'delegate' : 'echo', arguments: JSON.stringify(delegate ? { task: `task ${step}` } : { text }) }], usage };
  };
}

const summaryTokensOf = (strategy: ContextStrategy) => ('summary' in strategy && strategy.summary ? strategy.summary.summaryTokens : 20);

/** The live tree of `c`, every agent recorded to its own file in `dir`. */
async function liveTree(c: TreeCase, dir: string): Promise<{ run: AgentRunResult; files: string[] }> {
  const r = lcg(c.seed * 7919);
  const files = [join(dir, `${c.seed}-main.jsonl`)];
  const delegate = defineSubagentTool<{ task: string }>({
    name: 'delegate',
    description: 'hands a task to a sub-agent',
    parameters: { type: 'object', properties: { task: { type: 'string' } } },
    agent: ({ task }) => {
      files.push(join(dir, `${c.seed}-sub-${files.length}.jsonl`));
      const turn = script(r, { steps: c.subSteps, delegateAt: new Set(), summaryTokens: summaryTokensOf(c.sub), framing: 7 });
      const model = new ScriptedModel(Array.from({ length: 80 }, () => turn), PRICED.model);
      return { agentId: 'researcher', model, tools: [echo], context: { system: 'You research.', goal: task, strategy: c.sub }, recorder: fileRecorder(files.at(-1)!) };
    },
  });
  const turn = script(r, { steps: c.mainSteps, delegateAt: c.delegateAt, summaryTokens: summaryTokensOf(c.main), framing: 11 });
  const model = new ScriptedModel(Array.from({ length: 80 }, () => turn), PRICED.model);
  const run = await runAgentLoop({
    model,
    tools: [delegate, echo],
    brakes: c.brakes,
    ...(c.subagentLimits ? { subagentLimits: c.subagentLimits } : {}),
    context: { system: 'be careful', goal: 'say it all back', strategy: c.main, countTokens: (t) => words(t) },
    pricing: PRICED,
    clock: new VirtualClock(),
    recorder: fileRecorder(files[0]!),
  });
  return { run, files };
}

const agentFigures = (agents: readonly { agentId: string; steps: number; costPico: number; stop?: { reason: string } | undefined }[]) => agents.map((a) => [a.agentId, a.steps, a.costPico, a.stop?.reason]);

function replayed(runs: readonly Trace[], c: TreeCase) {
  return replayTree(runs, { brakes: c.brakes, ...(c.subagentLimits ? { subagentLimits: c.subagentLimits } : {}), strategy: FULL_HISTORY, prices: handTable(PRICED) });
}

describe('a live tree under summary strategies and replay --tree of its recordings', () => {
  it('60 seeded trees (summary and hybrid, main and sub-agent each its own; predict and check budgets; per-agent step limits in some): the same stop, steps and picodollars, agent by agent', async () => {
    const dir = tempDir();
    let summarised = 0;
    const stops = new Set<string>();
    for (let seed = 1; seed <= 60; seed++) {
      const c = treeCase(seed);
      const { run, files } = await liveTree(c, dir);
      const runs = (await Promise.all(files.map((file) => loadTraceFile(file)))).flat();
      expect(runs[0]!.header.context?.spec).toBe(contextSpecOf(c.main));
      const tree = replayed(runs, c);
      const live = run.tree!;
      expect(agentFigures(tree.agents), `seed ${seed}`).toEqual(agentFigures(live.agents));
      expect([tree.stopReason, tree.totals.steps, tree.totals.costPico], `seed ${seed}`).toEqual([run.stop.reason, live.totals.steps, live.totals.costPico]);
      if ((tree.totals.summaryCalls ?? 0) > 0) summarised += 1;
      for (const agent of tree.agents) stops.add(agent.stop?.reason ?? '');
    }
    // Trees that summarised, and stops by the budget as well as completions.
    expect(summarised).toBeGreaterThan(20);
    expect([...stops].sort()).toEqual(expect.arrayContaining(['budget', 'completed']));
  });

  it('replay --tree --preset recorded of the recording files (each tree under the limits its recordings state): the live tree’s stop, steps and picodollars, and a warning that the sessions replayed under the strategies their recordings state', async () => {
    const dir = tempDir();
    const seen = new Set<string>();
    for (const seed of [5, 6, 9, 14]) {
      const c = treeCase(seed);
      const { run, files } = await liveTree(c, dir);
      const live = run.tree!;
      if (files.length > 1) expect(readFileSync(files[1]!, 'utf8')).toContain(`"context":{"spec":"${contextSpecOf(c.sub)}"}`);
      const { code, stdout, stderr } = await cli('replay', '--tree', ...files, '--preset', 'recorded', '--format', 'json');
      expect(stderr, `seed ${seed}`).toBe('');
      expect(code).toBe(0);
      const report = JSON.parse(stdout);
      const tree = report.trees[0];
      expect([tree.stopReason, tree.totals.steps, Math.round(tree.totals.costUsd * 1e12)], `seed ${seed}`).toEqual([run.stop.reason, live.totals.steps, live.totals.costPico]);
      expect(tree.agents.map((a: { agent: string; steps: number; stopReason: string }) => [a.agent, a.steps, a.stopReason]), `seed ${seed}`).toEqual(live.agents.map((a) => [a.agentId, a.steps, a.stop.reason]));
      for (const agent of live.agents) seen.add(agent.stop.reason);
      expect(report.settings.spec.brakes).toBe('preset=recorded');
      expect(report.settings.subagent).toBe('as recorded');
      const said = (report.warnings as { code: string; message: string }[]).filter((w) => w.code === 'recorded_strategy');
      expect(said).toHaveLength(1);
      expect(said[0]!.message).toContain(contextSpecOf(c.main));
    }
    // Stops by the tree's recorded budget and by the sub-agents' recorded step limit among them.
    expect([...seen]).toEqual(expect.arrayContaining(['budget', 'max_steps']));
  });
});
