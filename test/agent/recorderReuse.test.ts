/**
 * A recorder records one run (review s24 r5): a memoryRecorder given to a second run merged the two (the
 * second's header over both runs' calls, its end claiming their cost; a replay gave the first's figures), and
 * a fileRecorder given to a second run threw a plain Error part-way. Both are now a UserError naming the
 * option, before the second run makes any model call, and the first run's recording stays as it was.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/agent/clock.js';
import { fileRecorder, memoryRecorder } from '../../src/agent/recorder.js';
import { runAgentLoop } from '../../src/agent/run.js';
import type { AgentLoopOptions, TraceRecorder } from '../../src/agent/types.js';
import { UserError } from '../../src/errors.js';
import { MINI } from '../helpers.js';
import { tempDir } from '../cli/run.js';
import { answer, ScriptedModel, toolTurn } from './scripted.js';

const echo = { name: 'echo', description: '', parameters: { type: 'object' }, run: () => 'ok' };

function options(model: ScriptedModel, recorder: TraceRecorder): AgentLoopOptions {
  return { model, tools: [echo], brakes: { maxSteps: 10 }, context: { system: 's', goal: 'g', countTokens: () => 3 }, pricing: MINI, clock: new VirtualClock(0), recorder };
}

/** The second run's refusal, and how many calls its model got. */
async function secondRun(recorder: TraceRecorder): Promise<{ error: unknown; modelCalls: number }> {
  const model = new ScriptedModel([answer('B')]);
  const error = await runAgentLoop({ ...options(model, recorder), task: 'B' }).catch((thrown: unknown) => thrown);
  return { error, modelCalls: model.requests.length };
}

describe('a recorder given to a second run', () => {
  it('memoryRecorder: refused before any model call, naming the option; its trace is still the first run', async () => {
    const recorder = memoryRecorder();
    const first = await runAgentLoop({ ...options(new ScriptedModel([toolTurn('echo', {}), answer('A')]), recorder), task: 'A' });
    const { error, modelCalls } = await secondRun(recorder);
    expect(modelCalls).toBe(0);
    expect(error).toBeInstanceOf(UserError);
    expect((error as UserError).issues).toEqual([expect.objectContaining({ file: '<runAgentLoop arguments>', field: 'recorder', code: 'recorder_reused' })]);
    expect((error as UserError).message).toMatch(/memoryRecorder\(\) has recorded a run already: a recorder records one run/);
    expect((error as UserError).issues[0]!.hint).toMatch(/a recorder of its own, e\.g\. memoryRecorder\(\)/);
    const trace = recorder.trace();
    expect([trace.header.task, trace.calls.length, trace.end.recordedCostUsd]).toEqual(['A', first.calls, expect.any(Number)]);
  });

  it('fileRecorder: refused before any model call, naming the option; its file is still the first run', async () => {
    const path = join(tempDir(), 'reuse.jsonl');
    const recorder = fileRecorder(path);
    await runAgentLoop({ ...options(new ScriptedModel([answer('A')]), recorder), task: 'A' });
    const written = readFileSync(path, 'utf8');
    const { error, modelCalls } = await secondRun(recorder);
    expect(modelCalls).toBe(0);
    expect(error).toBeInstanceOf(UserError);
    expect((error as UserError).issues).toEqual([expect.objectContaining({ file: '<runAgentLoop arguments>', field: 'recorder', code: 'recorder_reused' })]);
    expect((error as UserError).message).toContain(`fileRecorder(${JSON.stringify(path)}) has recorded a run already: a recorder records one run`);
    expect(readFileSync(path, 'utf8')).toBe(written);
  });
});
