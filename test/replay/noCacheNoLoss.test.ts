/**
 * `replay run.jsonl --preset recorded` of a window:8 run recorded against `loopcost serve` with the cache off said
 * `cache hits lost to strategy 1,849 prompt tokens`: under the cache as recorded every engine counted the hits a
 * sliding window loses whatever the recording held, though a run none of whose calls records a cache read or write
 * had no hit to lose (and the meter bills it none). Now (kernel/cacheLost.ts) such a recording says none lost, in
 * every engine — the readable loop (a recording replayed as it ran, or under a window), the compiled replay and its
 * run tables — while a recording that records a cache, or the cache on, still counts them, the engines agreeing.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { NO_BRAKES } from '../../src/brakes/config.js';
import { parseContextSpec, type CacheMode } from '../../src/context/strategy.js';
import { compileTrace } from '../../src/fast/compile.js';
import { flattenPrices, replayFast } from '../../src/fast/replayFast.js';
import { ReplaySource } from '../../src/loop/replaySource.js';
import { runLoop } from '../../src/loop/run.js';
import type { CallRecord } from '../../src/trace/types.js';
import { cli, tempDir } from '../cli/run.js';
import { call, distinctSteps, figuresOf, MINI, trace } from '../helpers.js';

/** A live recording under window:2 of six steps (output 20, a tool result of 100 each) and an answer; `cachedAt`: a call that records a cached read. */
function windowRecording(cachedAt?: number): string {
  const header = { type: 'header', schema: 'loopcost.trace/1', model: 'gpt-4o-mini', systemTokens: 100, goalTokens: 10, origin: 'recorded', recordedSettings: { maxSteps: 12 }, context: { spec: 'window:2' } };
  const lines: object[] = [header];
  for (let i = 0; i < 7; i++) {
    const inputTokens = 110 + Math.min(i, 2) * 120; // what window:2 sent: system + goal + the last two steps
    const step = i < 6 ? { outputTokens: 20, toolCalls: [{ name: 'lookup', arguments: { i }, resultTokens: 100 }] } : { outputTokens: 20, final: true };
    lines.push({ type: 'call', inputTokens, ...step, ...(i === cachedAt ? { cachedInputTokens: 110 } : {}) });
  }
  lines.push({ type: 'end', outcome: 'completed' });
  const path = join(tempDir(), 'run.jsonl');
  writeFileSync(path, lines.map((line) => JSON.stringify(line)).join('\n') + '\n');
  return path;
}

async function replayed(path: string, ...flags: string[]) {
  const r = await cli('replay', path, '--preset', 'recorded', ...flags);
  expect(r.code, r.stderr).toBe(0);
  return r.stdout;
}

describe('a recording with no cache loses no cache hit to its strategy', () => {
  it('replay --preset recorded of a window run recorded with no cache: none lost, in text and JSON', async () => {
    const path = windowRecording();
    expect(await replayed(path)).not.toMatch(/cache hits lost/);
    const json = JSON.parse(await replayed(path, '--format', 'json'));
    expect(json.runs[0].strategyCacheLostTokens).toBeUndefined();
    expect(JSON.stringify(json)).not.toMatch(/strategyCacheLostTokens/);
  });

  it('the same run with a cache (recorded, or --cache on) still says what the window lost', async () => {
    const cached = JSON.parse(await replayed(windowRecording(3), '--format', 'json'));
    expect(cached.runs[0].strategyCacheLostTokens).toBeGreaterThan(0);
    const on = JSON.parse(await replayed(windowRecording(), '--cache', 'on', '--format', 'json'));
    expect(on.runs[0].strategyCacheLostTokens).toBe(cached.runs[0].strategyCacheLostTokens);
    expect(await replayed(windowRecording(3))).toMatch(/cache hits lost to strategy +\d/);
  });

  it('every engine: the readable loop and the compiled replay agree, none lost without a recorded cache', () => {
    const steps = (cachedAt?: number): CallRecord[] => [...distinctSteps(6, 20, 100), call(20)].map((c, i) => ({ ...c, inputTokens: 100 + i * 120, ...(i === cachedAt ? { cachedInputTokens: 100 } : {}) }));
    const lost = (calls: CallRecord[], cache: CacheMode) => {
      const t = trace(calls, { system: 100, origin: 'recorded' });
      const strategy = parseContextSpec('window:2');
      const slow = runLoop(new ReplaySource(t), { brakes: NO_BRAKES, strategy, cache, pricing: MINI, systemTokens: 100, goalTokens: 0 });
      expect(replayFast(compileTrace(t), NO_BRAKES, strategy, cache, flattenPrices(MINI))).toEqual(figuresOf(slow));
      return slow.strategyCacheLostTokens ?? 0;
    };
    expect(lost(steps(), 'recorded')).toBe(0);
    expect(lost(steps(2), 'recorded')).toBeGreaterThan(0);
    expect(lost(steps(), 'on')).toBe(lost(steps(2), 'recorded'));
    expect(lost(steps(), 'off')).toBe(0);
  });
});
