/**
 * A live tree recorded with the root's recorder only (sub-agent recording is opt-in per spec): its root's
 * tool calls name the agents they started (`startedAgentId`), so `replay --tree` (and replayTree, and
 * sessionTrees) say which started agents have no recording and that the tree's totals leave them out,
 * once per tree; the same tree recorded whole says nothing of the kind.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/agent/clock.js';
import { fileRecorder } from '../../src/agent/recorder.js';
import { runAgentLoop } from '../../src/agent/run.js';
import { defineSubagentTool } from '../../src/agent/subagent.js';
import { NO_BRAKES } from '../../src/brakes/config.js';
import { FULL_HISTORY } from '../../src/context/strategy.js';
import { loadTraceFile } from '../../src/import/index.js';
import { loadPriceTable } from '../../src/pricing/index.js';
import { sessionTrees } from '../../src/tree/group.js';
import { replayTree } from '../../src/tree/replayTree.js';
import { cli } from '../cli/run.js';
import { answer, ScriptedModel, toolTurn } from '../agent/scripted.js';
import { echo, usage } from './liveTreeParts.js';

const dir = mkdtempSync(join(tmpdir(), 'loopcost-unrecorded-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const prices = loadPriceTable();

/** main delegates three times to `researcher` (two echo steps and an answer each), then answers; sub-agents recorded only when `whole`. */
async function liveTree(name: string, whole: boolean): Promise<{ files: string[]; liveCostPico: number }> {
  const clock = new VirtualClock();
  const files = [join(dir, `${name}-main.jsonl`)];
  const delegate = defineSubagentTool<{ q: number }>({
    name: 'delegate',
    description: 'hands a task to a sub-agent',
    parameters: { type: 'object' },
    agent: ({ q }) => {
      const steps = [0, 1].map((i) => () => (clock.advance(700), toolTurn('echo', { i }, usage)));
      const file = join(dir, `${name}-sub-${q}.jsonl`);
      if (whole) files.push(file);
      return { agentId: 'researcher', model: new ScriptedModel([...steps, answer('found', usage)], 'gpt-4o-mini'), tools: [echo], context: { system: 'You research.', goal: `q${q}` }, ...(whole ? { recorder: fileRecorder(file) } : {}) };
    },
  });
  const main = new ScriptedModel([1, 2, 3].map((q) => toolTurn('delegate', { q }, usage)).concat(answer('done', usage)), 'gpt-4o-mini');
  const run = await runAgentLoop({ model: main, tools: [delegate], brakes: {}, unbounded: true, context: { system: 's', goal: 'g' }, pricing: prices.resolve('gpt-4o-mini'), clock, recorder: fileRecorder(files[0]!) });
  return { files, liveCostPico: run.tree!.totals.costPico };
}

async function runsOf(files: readonly string[]) {
  return (await Promise.all(files.map((file) => loadTraceFile(file)))).flat();
}

describe('a live tree missing its sub-agents’ recordings', () => {
  it('recorded with the root’s recorder only: the report warns once, naming every started agent, that the totals leave them out and how to record them', async () => {
    const { files, liveCostPico } = await liveTree('root-only', false);
    const runs = await runsOf(files);
    const [tree] = sessionTrees(runs).trees;
    expect(tree!.unrecorded?.map((agent) => [agent.agentId, agent.startedBy, agent.live])).toEqual([
      ['researcher', 'main', true],
      ['researcher#2', 'main', true],
      ['researcher#3', 'main', true],
    ]);
    const replayed = replayTree(runs, { brakes: NO_BRAKES, strategy: FULL_HISTORY, prices });
    // The replay prices the root alone: well under what the live tree spent.
    expect(replayed.totals.costPico).toBeLessThan(liveCostPico);
    expect(replayed.unrecorded?.map((agent) => agent.agentId)).toEqual(['researcher', 'researcher#2', 'researcher#3']);

    const { code, stdout } = await cli('replay', '--tree', ...files, '--format', 'json');
    expect(code).toBe(0);
    const warnings = (JSON.parse(stdout) as { warnings: { code: string; message: string }[] }).warnings.filter((w) => w.code === 'unrecorded_subagents');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.message).toContain(`session ${tree!.sessionId}: main started 3 agents with no recording among the inputs (researcher, researcher#2 and researcher#3)`);
    expect(warnings[0]!.message).toContain("the tree's totals leave their calls and cost out");
    expect(warnings[0]!.message).toContain('recorder: fileRecorder');

    // A table says it as a warning line; a CSV on stderr.
    const table = await cli('replay', '--tree', ...files);
    expect(table.stdout.replace(/\s+/g, ' ')).toContain('warning: session live-');
    expect(table.stdout.replace(/\s+/g, ' ')).toContain('main started 3 agents with no recording among the inputs');
    const csv = await cli('replay', '--tree', ...files, '--format', 'csv');
    expect(csv.stderr.replace(/\s+/g, ' ')).toContain('main started 3 agents with no recording among the inputs');
    // whatif --tree replays the same trees: it says so too.
    const whatif = await cli('whatif', '--tree', ...files, '--try', 'max-steps=2', '--format', 'json');
    expect(whatif.code).toBe(0);
    const whatifWarnings = (JSON.parse(whatif.stdout) as { warnings: { code: string; message: string }[] }).warnings.filter((w) => w.code === 'unrecorded_subagents');
    expect(whatifWarnings.map((w) => w.message)).toEqual(warnings.map((w) => w.message));
  });

  it('recorded whole: no such warning, and the replay gives the live tree’s cost', async () => {
    const { files, liveCostPico } = await liveTree('whole', true);
    const runs = await runsOf(files);
    expect(sessionTrees(runs).trees[0]!.unrecorded).toBeUndefined();
    const replayed = replayTree(runs, { brakes: NO_BRAKES, strategy: FULL_HISTORY, prices });
    expect(replayed.totals.costPico).toBe(liveCostPico);
    expect(replayed.unrecorded).toBeUndefined();
    const { code, stdout } = await cli('replay', '--tree', ...files, '--format', 'json');
    expect(code).toBe(0);
    const report = JSON.parse(stdout) as { warnings: { code: string }[]; summary: { agents: number } };
    expect(report.summary.agents).toBe(4);
    expect(report.warnings.map((w) => w.code)).not.toContain('unrecorded_subagents');
    const whatif = JSON.parse((await cli('whatif', '--tree', ...files, '--try', 'max-steps=2', '--format', 'json')).stdout) as { warnings: { code: string }[] };
    expect(whatif.warnings.map((w) => w.code)).not.toContain('unrecorded_subagents');
  });
});
