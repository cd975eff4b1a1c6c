/**
 * A tree's timeout names what the stopped agent's last call shows, as a lone run's timeout does
 * (kernel/cutWords.ts timeoutWords) on the tree's time and timeout (tree/budget.ts): a tool call its deadline
 * cut, or one during which the tree's time passed the limit (it ran on past the deadline). Before, a tree named
 * only a failed model call: a recorded tree's replay said the brake's words alone where the live tree named
 * the cut tool, and neither named a tool that ran on past the deadline.
 *
 * The live tree: main (its calls take no time) delegates to `sub`; the agent under test (main after the
 * delegation, or sub) makes a 1 s call asking for `slow`, a 5 s tool that throws when its signal fired (cut),
 * or answers anyway (ran on); the tree's timeout is 3 s.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/agent/clock.js';
import { fileRecorder } from '../../src/agent/recorder.js';
import { runAgentLoop } from '../../src/agent/run.js';
import { defineSubagentTool } from '../../src/agent/subagent.js';
import type { AgentTool } from '../../src/agent/types.js';
import { NO_BRAKES } from '../../src/brakes/config.js';
import { FULL_HISTORY } from '../../src/context/strategy.js';
import { loadTraceFile } from '../../src/import/index.js';
import { replayTree } from '../../src/tree/replayTree.js';
import { MINI, MINI_TABLE } from '../helpers.js';

const FAST = { timeout: 5000 };
import { answer, ScriptedModel, toolTurn } from '../agent/scripted.js';

const dir = mkdtempSync(join(tmpdir(), 'loopcost-tree-timeout-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const words = (text: string) => text.split(/\s+/).filter(Boolean).length;
const usage = { inputTokens: 100, outputTokens: 10 };

const tool = (clock: VirtualClock, name: string, ranMs: number, throws: boolean): AgentTool => ({
  name,
  description: 'runs',
  parameters: { type: 'object' },
  run: async (_args, { signal }) => {
    clock.advance(ranMs);
    await Promise.resolve();
    if (throws && signal?.aborted) throw signal.reason;
    return 'ok';
  },
});

const BRAKES = { ...NO_BRAKES, timeoutMs: 3000 };
const CUT = '6.000 s elapsed, limit 3 s; the tool call slow in flight was cut off at the deadline';
const RAN_ON = '6.000 s elapsed, limit 3 s; the tool call slow ran on past the deadline (it was not cut)';
const BRAKE_ALONE = '6.000 s elapsed, limit 3 s';

/** The live tree with `slow` in `where`'s call (`throws`: cut), its recordings, and each agent's stop live and replayed under `brakes`. */
async function liveTree(name: string, where: 'main' | 'sub', throws: boolean) {
  const clock = new VirtualClock();
  const files = [join(dir, `${name}-main.jsonl`)];
  const slow = tool(clock, 'slow', 5000, throws);
  const step = () => (clock.advance(1000), toolTurn('slow', {}, usage));
  const delegate = defineSubagentTool<{ task: string }>({
    name: 'delegate',
    description: 'hands a task to a sub-agent',
    parameters: { type: 'object' },
    agent: () => {
      files.push(join(dir, `${name}-sub.jsonl`));
      const script = where === 'sub' ? [step, answer('sub done', usage)] : [answer('sub done', usage)];
      return { agentId: 'sub', model: new ScriptedModel(script), tools: [slow], context: { system: 'You research.', goal: 'a' }, recorder: fileRecorder(files.at(-1)!) };
    },
  });
  const mainScript = where === 'main' ? [toolTurn('delegate', { task: 'a' }, usage), step, answer('done', usage)] : [toolTurn('delegate', { task: 'a' }, usage), answer('done', usage)];
  const run = await runAgentLoop({ model: new ScriptedModel(mainScript), tools: [delegate, slow], brakes: BRAKES, unbounded: true, context: { system: 's', goal: 'g', countTokens: words }, pricing: MINI, clock, recorder: fileRecorder(files[0]!) });
  const runs = (await Promise.all(files.map((file) => loadTraceFile(file)))).flat();
  const replayed = (timeoutMs: number) => replayTree(runs, { brakes: { ...NO_BRAKES, timeoutMs }, strategy: FULL_HISTORY, prices: MINI_TABLE }).agents.map((a) => [a.agentId, a.stop?.reason, a.stop?.detail]);
  return { live: run.tree!.agents.map((a) => [a.agentId, a.stop.reason, a.stop.detail]), replayed };
}

describe("a tree's timeout names the tool call just before it, live and replayed alike", () => {
  it('the main agent\'s tool call cut at the deadline: named in the replay as the live tree named it', FAST, async () => {
    const { live, replayed } = await liveTree('main-cut', 'main', true);
    expect(live).toEqual([['main', 'timeout', CUT], ['sub', 'completed', 'final answer after 1 step']]);
    expect(replayed(3000)).toEqual(live);
  });

  it('a sub-agent\'s tool call cut at the deadline: its stop names it; the main agent, stopped after, names nothing of its own', FAST, async () => {
    const { live, replayed } = await liveTree('sub-cut', 'sub', true);
    expect(live).toEqual([['main', 'timeout', BRAKE_ALONE], ['sub', 'timeout', CUT]]);
    expect(replayed(3000)).toEqual(live);
  });

  it('a tool that ran on past the deadline, in either agent: named as a lone run names it, live and replayed', FAST, async () => {
    const main = await liveTree('main-ran', 'main', false);
    expect(main.live).toEqual([['main', 'timeout', RAN_ON], ['sub', 'completed', 'final answer after 1 step']]);
    expect(main.replayed(3000)).toEqual(main.live);
    const sub = await liveTree('sub-ran', 'sub', false);
    expect(sub.live).toEqual([['main', 'timeout', BRAKE_ALONE], ['sub', 'timeout', RAN_ON]]);
    expect(sub.replayed(3000)).toEqual(sub.live);
  });

  it('under another timeout, on the tree\'s time: named only where that time crossed the limit during the tool call', FAST, async () => {
    const { replayed } = await liveTree('sub-other', 'sub', false);
    // The tree's time: 1 s at the end of sub's call (past 0.5 s before the tool ran), 6 s after the tool.
    expect(replayed(500)[1]).toEqual(['sub', 'timeout', '6.000 s elapsed, limit 0.5 s']);
    expect(replayed(5999)[1]).toEqual(['sub', 'timeout', '6.000 s elapsed, limit 5.999 s; the tool call slow ran on past the deadline (it was not cut)']);
  });
});
