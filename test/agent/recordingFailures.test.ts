/**
 * The recording never loses a paid call (review R2: F6, F7, F8). Each model call is written as sent before
 * it is made (header `liveLines: "sent-pending-complete"`), so a run killed with SIGKILL during a model call
 * leaves that call on disk, read as a failed call billed at the loop's prompt estimate, the end's status
 * saying so; before, the call was missing (3 of 14 kills disagreed with the provider's bill by exactly it).
 * A write that fails (a file size limit, a full disk) is a UserError naming the path with the run's figures
 * as `partialRun` (before: a raw `Error: EFBIG`, no figures), and the line it left written in part is dropped
 * by the reader, with a note (before: the file was refused, all its calls lost). Two runs of one process
 * recording to one path are refused (before: their lines interleaved, the file unreadable).
 */
import { spawnSync, spawn } from 'node:child_process';
import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/agent/clock.js';
import { fileRecorder, memoryRecorder } from '../../src/agent/recorder.js';
import { runAgentLoop } from '../../src/agent/run.js';
import type { Model } from '../../src/agent/types.js';
import { NO_BRAKES } from '../../src/brakes/config.js';
import { UserError } from '../../src/errors.js';
import { loadTraceFile } from '../../src/import/index.js';
import { parseNativeTraces } from '../../src/trace/parseNative.js';
import { replayTrace } from '../../src/replay/replay.js';
import { MINI, MINI_TABLE } from '../helpers.js';
import { tempDir } from '../cli/run.js';
import { answer, ScriptedModel, toolTurn } from './scripted.js';

const entry = join(process.cwd(), 'dist/index.js');
const paid = (input: number, output: number) => input * MINI.base.input + output * MINI.base.output;
const echo = { name: 'echo', description: '', parameters: { type: 'object' }, run: ({ text }: { text: string }) => text };

describe('a run killed with SIGKILL during a model call', () => {
  it('leaves the call sent on disk: read as a failed call billed at the prompt estimate, the end saying so; the replay bills it', async () => {
    expect(existsSync(entry), 'npm run build first (npm test does)').toBe(true);
    const path = join(tempDir(), 'killed-in-call.jsonl');
    // Calls 1 and 2 answer at once; call 3 never does: the process is killed inside it.
    const script = `
      import { runAgentLoop, fileRecorder } from ${JSON.stringify(entry)};
      let n = 0;
      const model = { name: 'mini', async call() {
        n++;
        if (n === 3) return new Promise(() => setInterval(() => {}, 1000));
        return { text: null, toolCalls: [{ id: 'c' + n, name: 'work', arguments: '{}' }], usage: { inputTokens: 1000 * n, outputTokens: 40 } };
      } };
      const work = { name: 'work', description: '', parameters: { type: 'object' }, run: () => 'ok' };
      await runAgentLoop({ model, tools: [work], brakes: { maxSteps: 10 }, context: { system: 's', goal: 'g', countTokens: () => 3 }, pricing: ${JSON.stringify(MINI)}, recorder: fileRecorder(${JSON.stringify(path)}) });
    `;
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: 'ignore' });
    const written = () => (existsSync(path) ? readFileSync(path, 'utf8') : '');
    // header; calls 1 and 2 each sent, pending, complete; call 3 sent.
    for (let waited = 0; written().split('\n').length - 1 < 8 && waited < 10_000; waited += 10) await new Promise((r) => setTimeout(r, 10));
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));
    const [trace] = await loadTraceFile(path);
    expect(trace!.calls).toHaveLength(3);
    // The prompt estimate: the second call's prompt (2,000 as billed) and what it added (its output and tool result).
    const lost = trace!.calls[2]!;
    expect(lost).toMatchObject({ outputTokens: 0, failed: { estimated: true } });
    expect(lost.inputTokens).toBeGreaterThan(2000);
    expect(trace!.end.status).toBe(`live recording cut off before its end record: its last model call was sent and never answered, billed at the loop's prompt estimate (${lost.inputTokens} tokens)`);
    const replayed = replayTrace(trace!, { brakes: NO_BRAKES, strategy: { kind: 'full' }, prices: MINI_TABLE });
    expect([replayed.stopReason, replayed.modelCalls, replayed.costPico]).toEqual(['trace_end', 3, paid(1000, 40) + paid(2000, 40) + paid(lost.inputTokens!, 0)]);
  });

  it('a run that throws inside a model call (a Model’s bug): the call sent is dropped at the end, as the run counted it (not at all), file and memory alike', async () => {
    const path = join(tempDir(), 'thrown.jsonl');
    let n = 0;
    const model: Model = { name: 'mini', async call() {
      if (++n === 2) throw new TypeError('bug in the model');
      return { text: null, toolCalls: [{ id: 'c1', name: 'echo', arguments: '{"text":"a"}' }], usage: { inputTokens: 100, outputTokens: 10 } };
    } };
    const memory = memoryRecorder();
    const options = { model, tools: [echo], brakes: { ...NO_BRAKES, maxSteps: 5 }, context: { system: 's', goal: 'g', countTokens: () => 3 }, pricing: MINI, clock: new VirtualClock() };
    const thrown = (await runAgentLoop({ ...options, recorder: fileRecorder(path) }).then(
      () => undefined,
      (error: unknown) => error,
    )) as Error & { partialRun: { costPico: number; calls: number } };
    n = 0;
    await runAgentLoop({ ...options, recorder: memory }).catch(() => undefined);
    const [trace] = await loadTraceFile(path);
    expect([trace!.calls.length, thrown.partialRun.calls, memory.trace().calls.length]).toEqual([1, 1, 1]);
    expect(replayTrace(trace!, { brakes: NO_BRAKES, strategy: { kind: 'full' }, prices: MINI_TABLE }).costPico).toBe(thrown.partialRun.costPico);
  });
});

describe('a recording whose write fails', () => {
  it('past a file size limit (ulimit -f): a UserError naming the path, the figures so far attached; the file reads, its torn last line dropped', () => {
    expect(existsSync(entry), 'npm run build first (npm test does)').toBe(true);
    const path = join(tempDir(), 'limited.jsonl');
    const script = `
      import { runAgentLoop, fileRecorder } from ${JSON.stringify(entry)};
      const model = { name: 'mini', async call() { return { text: 'x'.repeat(50), toolCalls: [{ id: 'c', name: 'work', arguments: JSON.stringify({ pad: 'p'.repeat(300) }) }], usage: { inputTokens: 1000, outputTokens: 40 } }; } };
      const work = { name: 'work', description: '', parameters: { type: 'object' }, run: () => 'ok' };
      try {
        await runAgentLoop({ model, tools: [work], brakes: { maxSteps: 40, repeatMode: 'total', maxRepeat: 1000 }, context: { system: 's', goal: 'g', countTokens: () => 3 }, pricing: ${JSON.stringify(MINI)}, recorder: fileRecorder(${JSON.stringify(path)}) });
        console.log(JSON.stringify({ finished: true }));
      } catch (error) {
        console.log(JSON.stringify({ name: error.constructor.name, message: error.message, calls: error.partialRun?.calls, costPico: error.partialRun?.costPico }));
      }
    `;
    const ran = spawnSync('bash', ['-c', `ulimit -f 4; exec "${process.execPath}" --input-type=module -e "$0"`, script], { encoding: 'utf8' });
    const said = JSON.parse(ran.stdout.trim().split('\n').at(-1)!) as { name: string; message: string; calls?: number; costPico?: number };
    expect(said.name).toBe('UserError');
    expect(said.message).toContain(JSON.stringify(path));
    expect(said.message).toContain('file size limit');
    expect(said.calls).toBeGreaterThan(1);
    const text = readFileSync(path, 'utf8');
    expect(text.endsWith('\n')).toBe(false); // Its last line written in part.
    const [trace] = parseNativeTraces(text, path);
    expect(trace!.end.status).toMatch(/^live recording cut off before its end record: .*its last line \(line \d+\) was written in part and is dropped$/);
    expect(trace!.calls.length).toBeGreaterThan(1);
  });

  it('the reader drops only a live recording’s last line that is no JSON: one inside the file, or in a recording not live, is still refused', async () => {
    const path = join(tempDir(), 'live.jsonl');
    await runAgentLoop({ model: new ScriptedModel([toolTurn('echo', { text: 'a' }), answer('done')]), tools: [echo], brakes: { ...NO_BRAKES, maxSteps: 5 }, context: { system: 's', goal: 'g', countTokens: () => 3 }, pricing: MINI, clock: new VirtualClock(), recorder: fileRecorder(path) });
    const lines = readFileSync(path, 'utf8').trim().split('\n').slice(0, -2); // Cut off before its last call's answer and its end.
    const torn = lines.join('\n') + '\n' + '{"type":"call","inputTok';
    const [trace] = parseNativeTraces(torn, path);
    expect(trace!.end.status).toContain(`its last line (line ${lines.length + 1}) was written in part and is dropped`);
    expect(() => parseNativeTraces([...lines.slice(0, 2), '{"type":"call","inputTok', ...lines.slice(2)].join('\n'), path)).toThrow(UserError);
    const notLive = [lines[0]!.replace('"live":true,', ''), ...lines.slice(1)].join('\n') + '\n{"type":"call","inputTok';
    expect(() => parseNativeTraces(notLive, path)).toThrow(/line \d+.*not valid JSON/);
    writeFileSync(path, torn);
    appendFileSync(path, '\n');
    expect((await loadTraceFile(path))[0]!.calls).toEqual(trace!.calls);
  });
});

describe('two runs recording to one path in one process', () => {
  it('the second is refused (a UserError naming the path) while the first records; once it ended, the path may be recorded to again', async () => {
    const path = join(tempDir(), 'shared.jsonl');
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const slow: Model = { name: 'mini', async call() {
      await held;
      return { text: 'done', toolCalls: [], usage: { inputTokens: 10, outputTokens: 1 } };
    } };
    const options = { tools: [], brakes: { ...NO_BRAKES, maxSteps: 5 }, context: { system: 's', goal: 'g', countTokens: () => 3 }, pricing: MINI, clock: new VirtualClock() };
    const first = runAgentLoop({ ...options, model: slow, recorder: fileRecorder(path) });
    const second = await runAgentLoop({ ...options, model: new ScriptedModel([answer('other')]), recorder: fileRecorder(path) }).catch((error: unknown) => error);
    expect(second).toBeInstanceOf(UserError);
    expect((second as UserError).issues[0]).toMatchObject({ field: 'path', code: 'recording_in_use' });
    expect((second as UserError).message).toContain(JSON.stringify(path));
    release();
    expect((await first).stop.reason).toBe('completed');
    expect((await loadTraceFile(path))[0]!.calls).toHaveLength(1);
    await runAgentLoop({ ...options, model: new ScriptedModel([answer('again')]), recorder: fileRecorder(path) });
    expect((await loadTraceFile(path))[0]!.calls).toHaveLength(1);
  });
});
