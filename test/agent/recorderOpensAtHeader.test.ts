/**
 * fileRecorder creates its file when the run writes its header, not when it is built: a run whose options
 * are refused (a UserError before anything runs) leaves no file. Before, it left an empty file, which
 * made `replay DIR` refuse the whole folder.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/agent/clock.js';
import { fileRecorder } from '../../src/agent/recorder.js';
import { runAgentLoop } from '../../src/agent/run.js';
import type { AgentLoopOptions } from '../../src/agent/types.js';
import { UserError } from '../../src/errors.js';
import { MINI } from '../helpers.js';
import { answer, ScriptedModel } from './scripted.js';

const dir = mkdtempSync(join(tmpdir(), 'loopcost-recorder-open-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const options = (path: string, brakes: Record<string, unknown>) =>
  ({ model: new ScriptedModel([answer('done')]), tools: [], brakes, unbounded: true, context: { system: 's', goal: 'g', countTokens: (t: string) => t.length }, pricing: MINI, clock: new VirtualClock(), recorder: fileRecorder(path) }) as AgentLoopOptions;

describe('fileRecorder opens its file at the header', () => {
  it('a run whose options are refused leaves no file', async () => {
    const path = join(dir, 'refused.jsonl');
    const error = await runAgentLoop(options(path, { maxStep: 5 })).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(UserError);
    expect(existsSync(path)).toBe(false);
  });

  it('a run that starts writes its header, calls and end to the file', async () => {
    const path = join(dir, 'ran.jsonl');
    const recorder = fileRecorder(path);
    expect(existsSync(path)).toBe(false);
    const run = await runAgentLoop({ ...options(path, {}), recorder });
    expect(run.stop.reason).toBe('completed');
    expect(readFileSync(path, 'utf8').trim().split('\n').map((line) => JSON.parse(line).type)).toEqual(['header', 'call', 'call', 'end']); // The call as sent, then answered (trace/liveRecording.ts).
    expect(() => recorder.call({ type: 'call', outputTokens: 1 })).toThrow(/has ended/);
  });
});
