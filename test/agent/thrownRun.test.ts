/**
 * A run that throws an error that is no model failure (here a Model's TypeError after 2 calls; in a tree,
 * a sub-agent's Model's) still ends its recording: the call it was inside and an `error` end are written
 * (the file recorder closes its file), the recording replays to the calls' cost, and the error the caller
 * gets carries the run's figures so far as `partialRun`. Before, no end record was written, the file was
 * left open and the error carried nothing: a sub-agent's spent calls were invisible in the root recording.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/agent/clock.js';
import { fileRecorder } from '../../src/agent/recorder.js';
import { runAgentLoop } from '../../src/agent/run.js';
import { defineSubagentTool } from '../../src/agent/subagent.js';
import { defineTool } from '../../src/agent/tools.js';
import type { ErrorWithPartialRun } from '../../src/agent/thrownRun.js';
import { NO_BRAKES } from '../../src/brakes/config.js';
import { FULL_HISTORY } from '../../src/context/strategy.js';
import { loadTraceFile } from '../../src/import/index.js';
import { replayTrace } from '../../src/replay/replay.js';
import { replayTree } from '../../src/tree/replayTree.js';
import { MINI, MINI_TABLE } from '../helpers.js';
import { answer, ScriptedModel, toolTurn } from './scripted.js';

const dir = mkdtempSync(join(tmpdir(), 'loopcost-thrown-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const echo = defineTool<{ i: number }>({ name: 'echo', description: 'echo', parameters: { type: 'object' }, run: ({ i }) => `echo ${i}` });
const words = (text: string) => text.split(/\s+/).filter(Boolean).length;
const bug = () => {
  throw new TypeError("Cannot read properties of undefined (reading 'choices')");
};

async function thrown(run: Promise<unknown>): Promise<ErrorWithPartialRun> {
  return run.then(
    () => {
      throw new Error('the run completed');
    },
    (error: unknown) => error as ErrorWithPartialRun,
  );
}

describe('a run that throws still records its end and says what it spent', () => {
  it('a thrown object is worded as a tool error is (thrownWords.ts): its JSON, not [object Object]; a plain Error its message', async () => {
    const status = async (throwIt: () => never) => {
      const error = await thrown(runAgentLoop({ model: new ScriptedModel([toolTurn('echo', { i: 1 }), throwIt]), tools: [echo], brakes: NO_BRAKES, unbounded: true, context: { system: 's', goal: 'g', countTokens: words }, pricing: MINI, clock: new VirtualClock() }));
      return (error as unknown as { partialRun: { stop: { detail: string } } }).partialRun.stop.detail;
    };
    expect(await status(() => { throw { code: 'E42' }; })).toBe('the run threw {"code":"E42"}');
    expect(await status(() => { throw new Error('quota file unreadable'); })).toBe('the run threw quota file unreadable');
  });

  it("a Model's TypeError after 2 calls: the recording replays to the 2 calls' cost; the error carries the figures", async () => {
    const file = join(dir, 'flat.jsonl');
    const model = new ScriptedModel([toolTurn('echo', { i: 1 }), toolTurn('echo', { i: 2 }), bug]);
    const error = await thrown(runAgentLoop({ model, tools: [echo], brakes: NO_BRAKES, unbounded: true, context: { system: 's', goal: 'g', countTokens: words }, pricing: MINI, clock: new VirtualClock(), recorder: fileRecorder(file) }));
    expect(error).toBeInstanceOf(TypeError);
    const lines = readFileSync(file, 'utf8').trim().split('\n').map((line) => JSON.parse(line));
    expect(lines.at(-1)).toEqual({ type: 'end', outcome: 'error', status: "the run threw TypeError: Cannot read properties of undefined (reading 'choices')", recordedCostUsd: expect.any(Number) });
    const [trace] = await loadTraceFile(file);
    const replayed = replayTrace(trace!, { brakes: NO_BRAKES, strategy: FULL_HISTORY, prices: MINI_TABLE, pricing: MINI });
    expect(replayed.modelCalls).toBe(2);
    expect(replayed.costPico).toBeGreaterThan(0);
    const partial = error.partialRun;
    expect(partial).toMatchObject({ calls: 2, steps: 2, costPico: replayed.costPico, stop: { reason: 'trace_end', detail: lines.at(-1).status } });
    expect(replayed.stopReason).toBe('trace_end');
  });

  it("a sub-agent's Model's TypeError: both recordings end `error`, the tree replays to the live spend, the root's figures on the error", async () => {
    const files = [join(dir, 'main.jsonl'), join(dir, 'sub.jsonl')];
    const delegate = defineSubagentTool<{ task: string }>({
      name: 'delegate',
      description: 'hands a task to a sub-agent',
      parameters: { type: 'object' },
      agent: ({ task }) => ({ agentId: 'sub', model: new ScriptedModel([toolTurn('echo', { i: 1 }), toolTurn('echo', { i: 2 }), bug]), tools: [echo], context: { system: 'You research.', goal: task }, recorder: fileRecorder(files[1]!) }),
    });
    const main = new ScriptedModel([toolTurn('delegate', { task: 'research' }), answer('never')]);
    const error = await thrown(runAgentLoop({ model: main, tools: [delegate], brakes: NO_BRAKES, unbounded: true, context: { system: 's', goal: 'g', countTokens: words }, pricing: MINI, clock: new VirtualClock(), recorder: fileRecorder(files[0]!) }));
    expect(error).toBeInstanceOf(TypeError);
    const runs = (await Promise.all(files.map((file) => loadTraceFile(file)))).flat();
    expect(runs.map((r) => [r.header.agent!.agentId, r.calls.length, r.end.outcome])).toEqual([
      ['main', 1, 'error'],
      ['sub', 2, 'error'],
    ]);
    const tree = error.partialRun.tree!;
    expect(tree.agents.map((a) => [a.agentId, a.steps])).toEqual([
      ['main', 1],
      ['sub', 2],
    ]);
    const replayed = replayTree(runs, { brakes: NO_BRAKES, strategy: FULL_HISTORY, prices: MINI_TABLE });
    expect(replayed.totals.costPico).toBe(tree.totals.costPico);
    expect(error.partialRun.costPico).toBeLessThan(tree.totals.costPico);
  });
});
