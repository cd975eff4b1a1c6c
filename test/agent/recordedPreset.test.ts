/**
 * A live recording carries what its replay needs: its header states every brake the run had (read back by
 * `--preset recorded` and what-if's baseline, exactly), its end record's status is what a replay of a run
 * that ended without completing says, and a response naming a tool `""` is recorded readable (unparseable).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/agent/clock.js';
import { fileRecorder } from '../../src/agent/recorder.js';
import { runAgentLoop } from '../../src/agent/run.js';
import { ModelCallError, type Model, type ModelTurn } from '../../src/agent/types.js';
import { NO_BRAKES, type BrakeConfig } from '../../src/brakes/config.js';
import { loadTraceFile } from '../../src/import/index.js';
import { replayTrace } from '../../src/replay/replay.js';
import { recordedBrakes } from '../../src/replay/whatif.js';
import { parseNativeTraces } from '../../src/trace/parseNative.js';
import type { Trace } from '../../src/trace/types.js';
import { cli, tempDir } from '../cli/run.js';
import { handPriced, handTable } from '../helpers.js';

const PRICING = handPriced('gpt-4o-mini', { input: 0.15, output: 0.6 }, 128_000);

/** Answers each call with `turns(i)` (a thrown ModelCallError: a failed call), 100 ms each. */
function model(turns: (i: number) => ModelTurn, clock: VirtualClock): Model {
  let i = 0;
  return { name: 'gpt-4o-mini', call: async () => (clock.advance(100), turns(i++)) };
}

async function record(path: string, brakes: BrakeConfig, turns: (i: number) => ModelTurn, extra: { signal?: AbortSignal } = {}) {
  const clock = new VirtualClock();
  return runAgentLoop({
    model: model(turns, clock),
    tools: [{ name: 'read', description: 'reads', parameters: { type: 'object' }, run: () => 'ok' }],
    brakes,
    unbounded: true,
    context: { system: 'system', goal: 'goal', countTokens: (text: string) => text.length },
    pricing: PRICING,
    clock,
    retry: { maxRetries: 2, backoffMs: () => 0 },
    recorder: fileRecorder(path),
    ...extra,
  });
}

const sameRead = (): ModelTurn => ({ text: null, toolCalls: [{ id: 'c', name: 'read', arguments: '{}' }], usage: { inputTokens: 100, outputTokens: 10 } });

const header = (settings: object): Trace => parseNativeTraces(
  [{ type: 'header', schema: 'loopcost.trace/1', model: 'gpt-4o-mini', systemTokens: 1, goalTokens: 1, recordedSettings: settings }, { type: 'call', outputTokens: 1 }, { type: 'end', outcome: 'unknown' }].map((r) => JSON.stringify(r)).join('\n'),
  'h.jsonl',
)[0]!;

describe('--preset recorded replays a live recording under every brake the run had', () => {
  it('a run the repeat brake stopped replays (--preset recorded, and as what-if baseline) as repeat, after as many steps', async () => {
    const path = join(tempDir(), 'rec.jsonl');
    const brakes: BrakeConfig = { ...NO_BRAKES, maxSteps: 12, maxRepeat: 2, repeatMode: 'consecutive', maxOutputTokens: 1000, budgetMode: 'predict', maxCostPico: 500_000_000_000 };
    const real = await record(path, brakes, sameRead);
    expect([real.stop.reason, real.steps]).toEqual(['repeat', 3]);
    const replayed = await cli('replay', path, '--preset', 'recorded', '--format', 'json');
    expect(replayed.code).toBe(0);
    expect(replayed.stdout).toMatch(/"stopReason": "repeat"/);
    const whatif = await cli('whatif', path, '--try', 'max-steps=3');
    expect(whatif.stdout).toMatch(/baseline \(recorded limits\).*repeat 1/);
  });

  it('reads a budget of 0 as 0, a budget in picodollars and a fractional timeout exactly, and an importer\'s USD as its decimal', () => {
    expect(recordedBrakes(header({ maxCostUsd: 0 })).maxCostPico).toBe(0);
    expect(recordedBrakes(header({ maxCostPico: Number.MAX_SAFE_INTEGER - 2 })).maxCostPico).toBe(Number.MAX_SAFE_INTEGER - 2);
    expect(recordedBrakes(header({ maxCostUsd: 4221.986939033563 })).maxCostPico).toBe(4_221_986_939_033_563);
    expect(recordedBrakes(header({ timeoutMs: 2.5 })).timeoutMs).toBe(2.5);
    expect(recordedBrakes(header({ timeoutSeconds: 0.0015 })).timeoutMs).toBe(1.5);
    expect(recordedBrakes(header({ maxRepeat: 3, repeatMode: 'cycle', repeatAction: 'skip', maxSkips: 0, contextWindow: 'model' }))).toEqual({ ...NO_BRAKES, maxRepeat: 3, repeatMode: 'cycle', repeatAction: 'skip', maxSkips: 0, contextWindow: 'model' });
  });

  it('refuses a header that gives the budget twice, or a recorded count past 2^53 − 1', async () => {
    const dir = tempDir();
    const path = join(dir, 'twice.jsonl');
    writeFileSync(path, [{ type: 'header', schema: 'loopcost.trace/1', model: 'gpt-4o-mini', systemTokens: 1, goalTokens: 1, recordedSettings: { maxCostUsd: 1, maxCostPico: 1 } }, { type: 'end', outcome: 'unknown' }].map((r) => JSON.stringify(r)).join('\n') + '\n');
    const out = await cli('replay', path);
    expect(out.code).toBe(2);
    expect(out.stderr).toMatch(/maxCostPico/);
    // A count no brake holds exactly is refused where it is read, naming the field.
    const big = join(dir, 'big.jsonl');
    writeFileSync(big, [{ type: 'header', schema: 'loopcost.trace/1', model: 'gpt-4o-mini', systemTokens: 1, goalTokens: 1, recordedSettings: { maxRepeat: 2 ** 60 } }, { type: 'end', outcome: 'unknown' }].map((r) => JSON.stringify(r)).join('\n') + '\n');
    const refused = await cli('replay', big);
    expect([refused.code, refused.stderr]).toEqual([2, expect.stringMatching(/recordedSettings\.maxRepeat/)]);
  });
});

describe('a replay of a run that ended without completing says what its end record says', () => {
  it('a model that gave up: the replay (both engines) names the failure as the run did', async () => {
    const path = join(tempDir(), 'gone.jsonl');
    const real = await record(path, NO_BRAKES, (i) => {
      if (i < 2) return sameRead();
      throw new ModelCallError('Connection error.', { retryable: true });
    });
    expect(real.stop.reason).toBe('trace_end');
    const [trace] = await loadTraceFile(path);
    for (const engine of ['compiled', 'readable'] as const) {
      const replayed = replayTrace(trace!, { brakes: NO_BRAKES, strategy: { kind: 'full' }, pricing: PRICING, prices: handTable(PRICING), engine });
      expect([replayed.stopReason, replayed.stopDetail]).toEqual(['trace_end', real.stop.detail]);
    }
    expect(real.stop.detail).toMatch(/model call failed: Connection error\.; gave up after 2 retries/);
  });

  it('an aborted run replays as trace_end naming the abort; an imported end its outcome', async () => {
    const path = join(tempDir(), 'abort.jsonl');
    const controller = new AbortController();
    await record(path, NO_BRAKES, (i) => (i === 1 && controller.abort(), sameRead()), { signal: controller.signal });
    const [trace] = await loadTraceFile(path);
    const replayed = replayTrace(trace!, { brakes: NO_BRAKES, strategy: { kind: 'full' }, pricing: PRICING, prices: handTable(PRICING) });
    expect([replayed.stopReason, replayed.stopDetail]).toEqual(['trace_end', 'stopped by its AbortSignal after 2 steps']);
    const imported = { ...trace!, end: { type: 'end' as const, outcome: 'limit' as const } };
    expect(replayTrace(imported, { brakes: NO_BRAKES, strategy: { kind: 'full' }, pricing: PRICING, prices: handTable(PRICING) }).stopDetail).toBe('recorded trace ended without completing (outcome limit)');
  });
});

describe('a tool named "" from the model', () => {
  it('is an unparseable response: never run, recorded readable, and the recording replays as the run went', async () => {
    const path = join(tempDir(), 'nameless.jsonl');
    let ran = 0;
    const clock = new VirtualClock();
    const real = await runAgentLoop({
      model: model((i) => (i === 0 ? { text: null, toolCalls: [{ id: 'c', name: '', arguments: '{}' }, { id: 'd', name: 'read', arguments: '{}' }], usage: { inputTokens: 50, outputTokens: 5 } } : { text: 'done', toolCalls: [], usage: { inputTokens: 60, outputTokens: 5 } }), clock),
      tools: [{ name: 'read', description: 'reads', parameters: { type: 'object' }, run: () => (ran++, 'ok') }],
      brakes: NO_BRAKES,
      unbounded: true,
      context: { system: 'system', goal: 'goal', countTokens: (text: string) => text.length },
      pricing: PRICING,
      clock,
      retry: { maxRetries: 0, backoffMs: () => 0 },
      recorder: fileRecorder(path),
    });
    expect(ran).toBe(0);
    // Line 2 is the call as sent (trace/liveRecording.ts sentCall), line 3 its response.
    expect(JSON.parse(readFileSync(path, 'utf8').split('\n')[2]!)).toMatchObject({ type: 'call', unparseable: true });
    const [trace] = await loadTraceFile(path);
    const replayed = replayTrace(trace!, { brakes: NO_BRAKES, strategy: { kind: 'full' }, pricing: PRICING, prices: handTable(PRICING) });
    expect([replayed.stopReason, replayed.steps, replayed.costPico]).toEqual([real.stop.reason, real.steps, real.costPico]);
  });
});
