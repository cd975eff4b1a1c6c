/** The recorder's file: a finished run's recording replays to its figures; a run killed mid-way leaves one that replays. */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/agent/clock.js';
import { fileRecorder } from '../../src/agent/recorder.js';
import { runAgentLoop } from '../../src/agent/run.js';
import { NO_BRAKES } from '../../src/brakes/config.js';
import { loadTraceFile } from '../../src/import/index.js';
import { replayTrace } from '../../src/replay/replay.js';
import { MINI, MINI_TABLE } from '../helpers.js';
import { tempDir } from '../cli/run.js';
import { answer, ScriptedModel, toolTurn } from './scripted.js';

const brakes = { ...NO_BRAKES, maxSteps: 10 };

describe('recorder', () => {
  it('writes a native trace that loads and replays to the run’s stop, steps, tokens, cost and time', async () => {
    const path = join(tempDir(), 'run.jsonl');
    const model = new ScriptedModel([toolTurn('echo', { text: 'a' }), toolTurn('echo', { text: 'b' }), answer('done')]);
    const echo = { name: 'echo', description: '', parameters: { type: 'object' }, run: ({ text }: { text: string }) => text };
    const clock = new VirtualClock();
    const run = await runAgentLoop({ model, tools: [echo], brakes, context: { system: 's', goal: 'g', countTokens: () => 7 }, pricing: MINI, clock, recorder: fileRecorder(path) });
    const lines = readFileSync(path, 'utf8').trim().split('\n');
    // Each call is written as sent before it is made; one whose tools run, as its response is paid (pending: its tool calls unreached) and again once they ran.
    expect(lines.map((line) => JSON.parse(line).type)).toEqual(['header', 'call', 'call', 'call', 'call', 'call', 'call', 'call', 'call', 'end']);
    expect(lines.map((line) => JSON.parse(line).failed?.estimated === true)).toEqual([false, true, false, false, true, false, false, true, false, false]);
    expect(lines.map((line) => JSON.parse(line).toolCalls?.[0]?.unreached === true)).toEqual([false, false, true, false, false, true, false, false, false, false]);
    const trace = await loadTraceFile(path);
    const replayed = replayTrace(trace[0]!, { brakes, strategy: { kind: 'full' }, prices: MINI_TABLE });
    expect([replayed.stopReason, replayed.steps, replayed.inputTokens, replayed.outputTokens, replayed.costPico]).toEqual([run.stop.reason, run.steps, run.inputTokens, run.outputTokens, run.costPico]);
  });

  it('a run killed with SIGKILL leaves a trace that replays without error, as trace_end', async () => {
    const entry = join(process.cwd(), 'dist/index.js');
    expect(existsSync(entry), 'npm run build first (npm test does)').toBe(true);
    const path = join(tempDir(), 'killed.jsonl');
    const script = `
      import { runAgentLoop, fileRecorder } from ${JSON.stringify(entry)};
      const pricing = ${JSON.stringify(MINI)};
      let n = 0;
      const model = { name: 'mini', async call() {
        await new Promise((r) => setTimeout(r, 5));
        n++;
        return { text: null, toolCalls: [{ id: 'c' + n, name: 'work', arguments: JSON.stringify({ n }) }], usage: { inputTokens: 1000 + n, outputTokens: 10 } };
      } };
      const work = { name: 'work', description: '', parameters: { type: 'object' }, run: ({ n }) => 'step ' + n };
      await runAgentLoop({ model, tools: [work], brakes: { repeatMode: 'total', sameErrorMode: 'consecutive', budgetMode: 'check' }, unbounded: true, context: { system: 's', goal: 'g', countTokens: () => 3 }, pricing, recorder: fileRecorder(${JSON.stringify(path)}) });
    `;
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: 'ignore' });
    const lineCount = () => (existsSync(path) ? readFileSync(path, 'utf8').split('\n').length - 1 : 0);
    for (let waited = 0; lineCount() < 17 && waited < 10_000; waited += 10) await new Promise((r) => setTimeout(r, 10));
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));
    const [trace] = await loadTraceFile(path);
    expect(trace!.calls.length).toBeGreaterThanOrEqual(5);
    const replayed = replayTrace(trace!, { brakes: NO_BRAKES, strategy: { kind: 'full' }, prices: MINI_TABLE });
    expect(replayed.stopReason).toBe('trace_end');
    expect(replayed.modelCalls).toBe(trace!.calls.length);
  });

  it('a run killed with SIGKILL while a tool runs: the call that asked for the tool was paid, and its file replays with that call’s cost, as an interrupted run', async () => {
    const entry = join(process.cwd(), 'dist/index.js');
    expect(existsSync(entry), 'npm run build first (npm test does)').toBe(true);
    const path = join(tempDir(), 'killed-in-tool.jsonl');
    // Call 1 asks for `read` (answered at once), call 2 for `slow`, which never returns: the process is killed inside it.
    const script = `
      import { runAgentLoop, fileRecorder } from ${JSON.stringify(entry)};
      const pricing = ${JSON.stringify(MINI)};
      let n = 0;
      const model = { name: 'mini', async call() {
        n++;
        return { text: null, toolCalls: [{ id: 'c' + n, name: n === 1 ? 'read' : 'slow', arguments: '{}' }], usage: { inputTokens: 1000 * n, outputTokens: 40 } };
      } };
      const read = { name: 'read', description: '', parameters: { type: 'object' }, run: () => 'ok' };
      const slow = { name: 'slow', description: '', parameters: { type: 'object' }, run: () => new Promise(() => setInterval(() => {}, 1000)) };
      await runAgentLoop({ model, tools: [read, slow], brakes: { maxSteps: 10 }, context: { system: 's', goal: 'g', countTokens: () => 3 }, pricing, recorder: fileRecorder(${JSON.stringify(path)}) });
    `;
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: 'ignore' });
    const written = () => (existsSync(path) ? readFileSync(path, 'utf8') : '');
    // header, call 1 sent, pending, complete, call 2 sent, pending: call 2's tool is running.
    for (let waited = 0; written().split('\n').length - 1 < 6 && waited < 10_000; waited += 10) await new Promise((r) => setTimeout(r, 10));
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));
    expect(written().trim().split('\n').map((line) => JSON.parse(line).type)).toEqual(['header', 'call', 'call', 'call', 'call', 'call']);
    const [trace] = await loadTraceFile(path);
    expect(trace!.calls.map((call) => call.toolCalls)).toEqual([
      [{ name: 'read', arguments: {}, resultTokens: 3, latencyMs: expect.any(Number), id: 'c1' }],
      [{ name: 'slow', arguments: {}, resultTokens: 0, id: 'c2', unreached: true }],
    ]);
    expect(trace!.end).toEqual({ type: 'end', outcome: 'unknown', status: 'live recording cut off before its end record' });
    const paid = (input: number, output: number) => input * MINI.base.input + output * MINI.base.output;
    const replayed = replayTrace(trace!, { brakes, strategy: { kind: 'full' }, prices: MINI_TABLE });
    expect([replayed.stopReason, replayed.stopDetail, replayed.modelCalls, replayed.steps, replayed.toolCalls]).toEqual(['trace_end', 'live recording cut off before its end record', 2, 2, 1]);
    expect(replayed.costPico).toBe(paid(1000, 40) + paid(2000, 40));
  });
});
