/**
 * A sub-agent's own per-call brakes (runAgentLoop's SubagentSpec.brakes: repeat, same error, context window, …)
 * are stated in its recording's header (agent/treeRecording.ts), and `replay --tree --preset recorded` replays
 * each run under them (TreeEngineOptions.runBrakesOf, cli/actions/treeRecorded.ts), as `whatif --tree`'s
 * recorded-limits baseline does. Before, every run of the tree took the main agent's per-call brakes: a
 * sub-agent that ran free of the main agent's repeat brake was stopped by it in the replay.
 *
 * The live tree: main (max-repeat 2, which its own two calls never meet) delegates to `sub` (its own brakes:
 * none), which echoes the same text four times and answers; main then answers.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, tempDir } from '../cli/run.js';
import { VirtualClock } from '../../src/agent/clock.js';
import { fileRecorder } from '../../src/agent/recorder.js';
import { runAgentLoop } from '../../src/agent/run.js';
import { defineSubagentTool } from '../../src/agent/subagent.js';
import { defineTool } from '../../src/agent/tools.js';
import type { BrakeSettings } from '../../src/brakes/config.js';
import { NO_BRAKES } from '../../src/brakes/config.js';
import { FULL_HISTORY } from '../../src/context/strategy.js';
import { loadTraceFile } from '../../src/import/index.js';
import { recordedBrakes } from '../../src/replay/whatif.js';
import { sessionTrees } from '../../src/tree/group.js';
import { treeReplayer } from '../../src/tree/replayTree.js';
import { handPriced, handTable, userErrorOf } from '../helpers.js';
import { answer, ScriptedModel, toolTurn } from '../agent/scripted.js';

/** gpt-4o-mini as the bundled table prices it, so the CLI prices the recordings as the live tree paid them. */
const PRICED = handPriced('gpt-4o-mini', { input: 0.15, output: 0.6, cached: 0.075 }, 128_000);
const words = (text: string) => text.split(/\s+/).filter(Boolean).length;
const echo = defineTool<{ text: string }>({ name: 'echo', description: 'says it back', parameters: { type: 'object' }, run: ({ text }) => text });
const usage = { inputTokens: 100, outputTokens: 10 };

const MAIN_BRAKES = { ...NO_BRAKES, maxRepeat: 2 };

/** The live tree (`subBrakes`: the sub-agent's own), its recording files and result. */
async function liveTree(subBrakes: BrakeSettings) {
  const dir = tempDir();
  const files = [join(dir, 'main.jsonl')];
  const delegate = defineSubagentTool<{ task: string }>({
    name: 'delegate',
    description: 'hands a task to a sub-agent',
    parameters: { type: 'object' },
    agent: () => {
      files.push(join(dir, 'sub.jsonl'));
      const same = () => toolTurn('echo', { text: 'again' }, usage);
      return { agentId: 'sub', model: new ScriptedModel([same, same, same, same, answer('sub done', usage)], 'gpt-4o-mini'), tools: [echo], brakes: subBrakes, context: { system: 'You research.', goal: 'a' }, recorder: fileRecorder(files.at(-1)!) };
    },
  });
  const main = new ScriptedModel([toolTurn('delegate', { task: 'a' }, usage), answer('done', usage)], 'gpt-4o-mini');
  const run = await runAgentLoop({ model: main, tools: [delegate], brakes: MAIN_BRAKES, unbounded: true, context: { system: 's', goal: 'g', countTokens: words }, pricing: PRICED, clock: new VirtualClock(), recorder: fileRecorder(files[0]!) });
  return { run, files };
}

type ReportAgent = { agent: string; steps: number; stopReason: string };
const agentsOf = (tree: { agents: ReportAgent[] }) => tree.agents.map((a) => [a.agent, a.steps, a.stopReason]);
const LIVE = [['main', 2, 'completed'], ['sub', 5, 'completed']];
/** What the main agent's max-repeat 2 makes of the sub-agent: its third echo refused. */
const UNDER_MAINS = [['main', 2, 'completed'], ['sub', 3, 'repeat']];

describe("a sub-agent's own per-call brakes replay under --preset recorded", () => {
  it("live, the sub-agent runs free of the main agent's repeat brake; replay --tree --preset recorded too, to the picodollar", async () => {
    const { run, files } = await liveTree({});
    expect(run.tree!.agents.map((a) => [a.agentId, a.steps, a.stop.reason])).toEqual(LIVE);
    const r = await cli('replay', '--tree', ...files, '--preset', 'recorded', '--format', 'json');
    expect(r.code, r.stderr).toBe(0);
    const tree = JSON.parse(r.stdout).trees[0];
    expect(agentsOf(tree)).toEqual(LIVE);
    expect([tree.totals.steps, Math.round(tree.totals.costUsd * 1e12)]).toEqual([run.tree!.totals.steps, run.tree!.totals.costPico]);
    // Flags on top replace what they name in every run, the sub-agent's too: its fourth echo refused.
    const onTop = await cli('replay', '--tree', ...files, '--preset', 'recorded', '--max-repeat', '3', '--format', 'json');
    expect(agentsOf(JSON.parse(onTop.stdout).trees[0])).toEqual([['main', 2, 'completed'], ['sub', 4, 'repeat']]);
  });

  it("the library: treeReplayer's runBrakesOf gives each run its own brakes; without it, every run the tree's", async () => {
    const { run, files } = await liveTree({});
    const runs = (await Promise.all(files.map((file) => loadTraceFile(file)))).flat();
    const tree = sessionTrees(runs).trees[0]!;
    const options = { strategy: FULL_HISTORY, prices: handTable(PRICED) };
    const figures = (result: ReturnType<ReturnType<typeof treeReplayer>>) => result.agents.map((a) => [a.agentId, a.steps, a.stop?.reason]);
    const own = treeReplayer(tree, options, { runBrakesOf: recordedBrakes })(MAIN_BRAKES);
    expect(figures(own)).toEqual(LIVE);
    expect(own.totals.costPico).toBe(run.tree!.totals.costPico);
    expect(figures(treeReplayer(tree, options)(MAIN_BRAKES))).toEqual(UNDER_MAINS);
    // A runBrakesOf that is no function is refused before any replay, naming it.
    const refused = userErrorOf(() => treeReplayer(tree, options, { runBrakesOf: 5 } as never));
    expect(refused.issues[0]).toMatchObject({ file: '<treeReplayer own>', field: 'runBrakesOf', code: 'invalid_input' });
  });

  it("whatif --tree: the baseline (recorded limits) is the live tree, and a try on top keeps each run's own brakes", async () => {
    const { run, files } = await liveTree({});
    const r = await cli('whatif', '--tree', ...files, '--try', 'max-cost=1', '--format', 'json');
    expect(r.code, r.stderr).toBe(0);
    const row = JSON.parse(r.stdout).runs[0];
    const live = [run.tree!.totals.steps, run.tree!.totals.costPico];
    expect(live[0]).toBe(7);
    expect([row.baselineSteps, Math.round(row.baselineCostUsd * 1e12)]).toEqual(live);
    expect([row.steps, Math.round(row.costUsd * 1e12)]).toEqual(live);
  });
});
