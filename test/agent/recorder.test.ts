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
    expect(lines.map((line) => JSON.parse(line).type)).toEqual(['header', 'call', 'call', 'call', 'end']);
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
    for (let waited = 0; lineCount() < 6 && waited < 10_000; waited += 10) await new Promise((r) => setTimeout(r, 10));
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));
    const [trace] = await loadTraceFile(path);
    expect(trace!.calls.length).toBeGreaterThanOrEqual(5);
    const replayed = replayTrace(trace!, { brakes: NO_BRAKES, strategy: { kind: 'full' }, prices: MINI_TABLE });
    expect(replayed.stopReason).toBe('trace_end');
    expect(replayed.modelCalls).toBe(trace!.calls.length);
  });
});
