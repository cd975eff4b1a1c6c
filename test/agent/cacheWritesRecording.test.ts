/**
 * A real-loop recording states how long its cache writes last (header `cacheWrites`: the loop's own
 * `cacheWrites` option), and every replay of it bounds a prompt token's write at that lifetime's price, as
 * the live run's predictive budget did (kernel/cacheWrites.ts cacheWritesOf): the readable loop, the compiled
 * replay (a warm compiled-trace cache too), replayTrace's readable engine, the session-tree replay, the real
 * loop driven by the recording (traceModel) and the `replay`/`whatif` commands. Before, a recording's writes
 * were bounded at an hour's price whatever its loop asked for, so its replay stopped a call before the run.
 *
 * The run: claude-sonnet-4 (bundled prices: $3/M in, $3.75/M and $6/M a write for five minutes and an hour,
 * $15/M out), max_tokens 100, each call a 10,000-token prompt (no cache usage: $0.0315 a call), a predictive
 * budget of $0.11. From the second call on the bound is ~10,000 × the write price + $0.0015: $0.039 at five
 * minutes' (the third call: $0.063 + $0.039 = $0.102 ≤ $0.11; the fourth: $0.1335, stopped), $0.0615 at an
 * hour's (the third: $0.1245, stopped). So the run with five-minute writes makes 3 calls ($0.0945), and its
 * recording bounded at an hour's price 2 ($0.063).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/agent/clock.js';
import { fileRecorder } from '../../src/agent/recorder.js';
import { runAgentLoop } from '../../src/agent/run.js';
import { traceModel } from '../../src/agent/traceModel.js';
import { defineSubagentTool } from '../../src/agent/subagent.js';
import type { AgentCacheWrites, AgentRunResult, SubagentSpec } from '../../src/agent/types.js';
import { NO_BRAKES, type BrakeConfig } from '../../src/brakes/config.js';
import { compileTrace } from '../../src/fast/compile.js';
import { replayFast } from '../../src/fast/replayFast.js';
import { CacheWrites, cacheWritesOf } from '../../src/kernel/cacheWrites.js';
import { flattenPrices } from '../../src/kernel/prices.js';
import { loadTraceFile } from '../../src/import/index.js';
import { ReplaySource } from '../../src/loop/replaySource.js';
import { runLoop } from '../../src/loop/run.js';
import { loadPriceTable } from '../../src/pricing/index.js';
import { replayTrace } from '../../src/replay/replay.js';
import { recordedBrakes } from '../../src/replay/whatif.js';
import { replayTree } from '../../src/tree/replayTree.js';
import { usdToPico } from '../../src/money.js';
import { cli, tempDir } from '../cli/run.js';
import { answer, ScriptedModel, toolTurn } from './scripted.js';
import { figures, replayFigures, runTraceDriven } from './traceDriven.js';

const MODEL = 'claude-sonnet-4';
const prices = loadPriceTable();
const pricing = prices.resolve(MODEL);
const BRAKES: BrakeConfig = { ...NO_BRAKES, budgetMode: 'predict', maxCostPico: usdToPico(0.11), maxOutputTokens: 100 };
const USAGE = { inputTokens: 10_000, outputTokens: 100 };

/** The live run with `cacheWrites`, recorded to `path`: five tool calls, then an answer. */
async function liveRun(path: string, cacheWrites: AgentCacheWrites | undefined): Promise<AgentRunResult> {
  const model = new ScriptedModel([...Array.from({ length: 5 }, (_, i) => toolTurn('read', { i }, USAGE)), answer('done', USAGE)], MODEL);
  return runAgentLoop({
    model,
    tools: [{ name: 'read', description: 'reads', parameters: { type: 'object' }, run: () => 'ok' }],
    brakes: BRAKES,
    context: { system: 'system', goal: 'goal', countTokens: (text: string) => text.length },
    pricing,
    clock: new VirtualClock(),
    recorder: fileRecorder(path),
    ...(cacheWrites === undefined ? {} : { cacheWrites }),
  });
}

/** A live tree with `cacheWrites`, recorded in `dir` (main.jsonl, researcher.jsonl): main delegates to a researcher that reads five times, then answers. */
async function liveTree(dir: string, cacheWrites: AgentCacheWrites | undefined): Promise<AgentRunResult> {
  const read = { name: 'read', description: 'reads', parameters: { type: 'object' }, run: () => 'ok' };
  const researcher = new ScriptedModel([...Array.from({ length: 5 }, (_, i) => toolTurn('read', { i }, USAGE)), answer('found', USAGE)], MODEL);
  const delegate = defineSubagentTool<{ task: string }>({
    name: 'delegate',
    description: 'hands a task to a researcher',
    parameters: { type: 'object' },
    agent: ({ task }) => ({ agentId: 'researcher', model: researcher, tools: [read], context: { system: 'You research.', goal: task }, recorder: fileRecorder(join(dir, 'researcher.jsonl')) }) as SubagentSpec,
  });
  return runAgentLoop({
    model: new ScriptedModel([toolTurn('delegate', { task: 'find it' }, USAGE), answer('done', USAGE)], MODEL),
    tools: [delegate],
    brakes: BRAKES,
    context: { system: 'system', goal: 'goal', countTokens: (text: string) => text.length },
    pricing,
    clock: new VirtualClock(),
    recorder: fileRecorder(join(dir, 'main.jsonl')),
    ...(cacheWrites === undefined ? {} : { cacheWrites }),
  });
}

const ofRun = (run: AgentRunResult) => [run.stop.reason, run.calls, run.costPico];
type Replayed = { stopReason: string; steps: number; modelCalls?: number; costPico?: number; costUsd?: number };
const ofReplay = (r: Replayed) => [r.stopReason, r.modelCalls, r.costPico];

/** The recording at `path` with its header's `cacheWrites` left out (as the recorder wrote it before), at `to`. */
function unstated(path: string, to: string): string {
  writeFileSync(to, readFileSync(path, 'utf8').replace(/,"cacheWrites":"[a-z-]+"/g, ''));
  return to;
}

const json = async (...argv: string[]) => {
  const { code, stdout, stderr } = await cli(...argv, '--format', 'json');
  expect([code, stderr]).toEqual([0, '']);
  return JSON.parse(stdout);
};

describe('a real-loop recording states its cache writes’ lifetime, and its replay bounds them at it', () => {
  it('five-minute writes: the run makes 3 calls ($0.0945); its recording replayed under its brakes does too — bounded at an hour’s price, 2 ($0.063)', async () => {
    const dir = tempDir();
    const path = join(dir, 'five.jsonl');
    const live = await liveRun(path, 'five-minutes');
    expect(ofRun(live)).toEqual(['budget', 3, 94_500_000_000]);
    const [recording] = await loadTraceFile(path);
    expect(recording!.header.cacheWrites).toBe('five-minutes');
    expect(cacheWritesOf(recording!)).toBe(CacheWrites.FiveMinutes);
    const options = { brakes: recordedBrakes(recording!), strategy: { kind: 'full' as const }, pricing, prices };
    expect(ofReplay(replayTrace(recording!, options))).toEqual(ofRun(live));
    expect(ofReplay(replayTrace(recording!, { ...options, engine: 'readable' }))).toEqual(ofRun(live));
    // As an hour's (the recording without the statement: today's rule for a recording), a call earlier.
    const [hour] = await loadTraceFile(unstated(path, join(dir, 'hour.jsonl')));
    expect(ofReplay(replayTrace(hour!, options))).toEqual(['budget', 2, 63_000_000_000]);
  });

  it('the same in every engine: the readable loop, the compiled replay, the tree replay, the real loop driven by the recording', async () => {
    const path = join(tempDir(), 'five.jsonl');
    const live = await liveRun(path, 'five-minutes');
    const [recording] = await loadTraceFile(path);
    const brakes = recordedBrakes(recording!);
    const readable = runLoop(new ReplaySource(recording!), { brakes, strategy: { kind: 'full' }, cache: 'recorded', pricing, systemTokens: recording!.header.systemTokens, goalTokens: recording!.header.goalTokens });
    expect([readable.stop.reason, readable.costPico]).toEqual([live.stop.reason, live.costPico]);
    const fast = replayFast(compileTrace(recording!), brakes, { kind: 'full' }, 'recorded', flattenPrices(pricing));
    expect([fast.reason, fast.costPico]).toEqual([live.stop.reason, live.costPico]);
    const settings = { brakes, strategy: { kind: 'full' as const, cache: 'recorded' as const }, pricing };
    const driven = figures(await runTraceDriven(recording!, settings));
    expect([driven.stopReason, driven.calls, driven.costPico]).toEqual(ofRun(live));
    expect(driven).toEqual(replayFigures(recording!, settings));
  });

  it('a live tree: every agent’s recording states it, and `replay --tree` (and replayTree) stops the tree where the run stopped', async () => {
    const dir = tempDir();
    const live = await liveTree(dir, 'five-minutes');
    const agents = (tree: { agents: { agentId?: string; agent?: string; stop?: { reason: string }; stopReason?: string }[] }) => tree.agents.map((a) => [a.agentId ?? a.agent, a.stop?.reason ?? a.stopReason]);
    expect([live.tree!.totals.steps, live.tree!.totals.costPico, agents(live.tree!)]).toEqual([3, 94_500_000_000, [['main', 'budget'], ['researcher', 'budget']]]);
    const files = [join(dir, 'main.jsonl'), join(dir, 'researcher.jsonl')];
    const runs = (await Promise.all(files.map((file) => loadTraceFile(file)))).flat();
    expect(runs.map((run) => run.header.cacheWrites)).toEqual(['five-minutes', 'five-minutes']);
    const tree = replayTree(runs, { brakes: recordedBrakes(runs[0]!), strategy: { kind: 'full' }, prices });
    expect([tree.totals.steps, tree.totals.costPico, agents(tree)]).toEqual([3, 94_500_000_000, agents(live.tree!)]);
    // The root's brakes as flags, and as the recordings state them (--preset recorded).
    const cliTree = (await json('replay', '--tree', ...files, '--max-cost', '0.11', '--budget-mode', 'predict', '--max-output-tokens', '100')).trees[0];
    expect([cliTree.totals.steps, cliTree.totals.costUsd, agents(cliTree)]).toEqual([3, 0.0945, agents(live.tree!)]);
    const presetTree = (await json('replay', '--tree', ...files, '--preset', 'recorded')).trees[0];
    expect([presetTree.totals.steps, presetTree.totals.costUsd, agents(presetTree)]).toEqual([3, 0.0945, agents(live.tree!)]);
    // As an hour's (the statement left out), a call earlier.
    const hourRuns = (await Promise.all(files.map((file, i) => loadTraceFile(unstated(file, join(dir, `hour${i}.jsonl`)))))).flat();
    const hour = replayTree(hourRuns, { brakes: recordedBrakes(runs[0]!), strategy: { kind: 'full' }, prices });
    expect([hour.totals.steps, hour.totals.costPico]).toEqual([2, 63_000_000_000]);
  });

  it('`replay --preset recorded` (compiled, --per-step readable, a warm compiled cache) and whatif’s baseline stop where the run did', async () => {
    const dir = tempDir();
    const path = join(dir, 'five.jsonl');
    const live = await liveRun(path, 'five-minutes');
    const want = [[live.stop.reason, live.steps, 0.0945]];
    const runs = (report: { runs: Replayed[] }) => report.runs.map((run) => [run.stopReason, run.steps, run.costUsd]);
    expect(runs(await json('replay', path, '--preset', 'recorded'))).toEqual(want);
    expect(runs(await json('replay', path, '--preset', 'recorded', '--per-step'))).toEqual(want);
    const cacheDir = join(dir, 'cache');
    expect(runs(await json('replay', path, '--preset', 'recorded', '--cache-dir', cacheDir))).toEqual(want);
    expect(runs(await json('replay', path, '--preset', 'recorded', '--cache-dir', cacheDir))).toEqual(want);
    expect(runs(await json('replay', unstated(path, join(dir, 'hour.jsonl')), '--preset', 'recorded'))).toEqual([['budget', 2, 0.063]]);
    const whatif = await json('whatif', path, '--try', 'max-steps=9');
    expect(whatif.runs.map((run: { baselineStopReason: string; baselineSteps: number }) => [run.baselineStopReason, run.baselineSteps])).toEqual([['budget', 3]]);
  });

  it('writes asked for no writes (none) and the default (an hour, unstated) replay as the run did; with the cache on, none is bounded at the meter’s five-minute writes (its traceModel says five-minutes)', async () => {
    const dir = tempDir();
    for (const [cacheWrites, calls] of [['none', 3], ['may-last-an-hour', 2], [undefined, 2]] as const) {
      const path = join(dir, `${cacheWrites ?? 'default'}.jsonl`);
      const live = await liveRun(path, cacheWrites);
      expect(live.calls).toBe(calls);
      const [recording] = await loadTraceFile(path);
      expect(recording!.header.cacheWrites).toBe(cacheWrites);
      expect(ofReplay(replayTrace(recording!, { brakes: recordedBrakes(recording!), strategy: { kind: 'full' }, pricing, prices }))).toEqual(ofRun(live));
    }
    // Replayed with the cache on, the meter writes (for five minutes): a run that asked for none is bounded as one that asked for five minutes.
    const [none] = await loadTraceFile(join(dir, 'none.jsonl'));
    const asFive = { ...none!, header: { ...none!.header, cacheWrites: 'five-minutes' as const } };
    const cacheOn = { brakes: recordedBrakes(none!), strategy: { kind: 'full' as const, cache: 'on' as const }, pricing, prices };
    for (const engine of ['compiled', 'readable'] as const) expect(replayTrace(none!, { ...cacheOn, engine })).toEqual(replayTrace(asFive, { ...cacheOn, engine }));
    expect([traceModel(none!, new VirtualClock(), { cache: 'on' }).cacheWrites, traceModel(none!, new VirtualClock(), { cache: 'recorded' }).cacheWrites]).toEqual(['five-minutes', 'none']);
  });

  it('a header whose cacheWrites is no lifetime: exit 2, naming the file, line 1 and the field, with the values it takes', async () => {
    const path = join(tempDir(), 'bad.jsonl');
    const header = { type: 'header', schema: 'loopcost.trace/1', model: MODEL, systemTokens: 1, goalTokens: 1, cacheWrites: 'ten-minutes' };
    writeFileSync(path, [header, { type: 'call', inputTokens: 10, outputTokens: 1 }, { type: 'end', outcome: 'completed' }].map((r) => JSON.stringify(r)).join('\n') + '\n');
    const out = await cli('replay', path);
    expect(out.code).toBe(2);
    expect(out.stderr).toContain(`${path}:line 1 field 'cacheWrites'`);
    expect(out.stderr).toMatch(/"ten-minutes" is not a cache write lifetime: five-minutes, may-last-an-hour or none/);
    expect(out.stderr).not.toMatch(/\n\s+at /);
  });
});
