/**
 * A run on a VirtualClock is dated by its clock (Clock.dateOf: the epoch given plus its reading at the run's
 * start; without an epoch, undated), never the real day: two identical virtual-clock runs give byte-identical
 * recordings, whenever they are made, and a replay of one reads dated prices at the clock's day (an undated one
 * at the table's current prices, as the run was most likely priced). The wall clock
 * (no clock given) tells no dates: its recordings are dated the real day, as before. A recorder that does not
 * date (a custom one) stays undated.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { VirtualClock } from '../../src/agent/clock.js';
import { fileRecorder, memoryRecorder } from '../../src/agent/recorder.js';
import { runAgentLoop } from '../../src/agent/run.js';
import type { AgentLoopOptions, Clock, TraceRecorder } from '../../src/agent/types.js';
import { LoopValueError } from '../../src/agent/valueCheck.js';
import { loadPriceTable } from '../../src/pricing/index.js';
import { resolveTracePricing } from '../../src/replay/replay.js';
import type { TraceHeader } from '../../src/trace/types.js';
import { tempDir } from '../cli/run.js';
import { asyncUserErrorOf, MINI } from '../helpers.js';
import { answer, ScriptedModel } from './scripted.js';

afterEach(() => vi.useRealTimers());

/** One step, an answer: the same run each time (fixed ids, counts and usage). */
const options = (recorder: TraceRecorder, clock?: Clock): AgentLoopOptions => ({
  model: new ScriptedModel([{ text: null, toolCalls: [{ id: 'c1', name: 'echo', arguments: '{}' }], usage: { inputTokens: 100, outputTokens: 10 } }, answer('done', { inputTokens: 120, outputTokens: 5 })]),
  tools: [{ name: 'echo', description: 'echoes', parameters: { type: 'object' }, run: () => 'echoed' }],
  brakes: { maxSteps: 5 },
  context: { system: 's', goal: 'g', countTokens: (text: string) => text.length },
  pricing: MINI,
  recorder,
  ...(clock === undefined ? {} : { clock }),
});

/** A run recorded into a file of `dir` on a fresh VirtualClock (`clock`), with the wall clock's date set to `realDate`. */
async function recordedAt(dir: string, name: string, realDate: string, clock = new VirtualClock()): Promise<string> {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date(realDate));
  const path = join(dir, `${name}.jsonl`);
  await runAgentLoop(options(fileRecorder(path), clock));
  vi.useRealTimers();
  return readFileSync(path, 'utf8');
}

describe('a recording of a run on a VirtualClock is dated by the clock', () => {
  it('two identical runs on a day apart: byte-identical recordings, undated when the clock has no epoch', async () => {
    const dir = tempDir();
    const first = await recordedAt(dir, 'a', '2026-03-01T10:00:00.000Z');
    const second = await recordedAt(dir, 'b', '2026-03-02T17:30:00.123Z');
    expect(second).toBe(first);
    expect(JSON.parse(first.split('\n')[0]!).recordedAt).toBeUndefined();
    const dated = [await recordedAt(dir, 'c', '2026-03-01T10:00:00.000Z', new VirtualClock(0, '2026-05-01')), await recordedAt(dir, 'd', '2026-03-02T17:30:00.123Z', new VirtualClock(0, '2026-05-01'))];
    expect(dated[1]).toBe(dated[0]);
    expect(JSON.parse(dated[0]!.split('\n')[0]!).recordedAt).toBe('2026-05-01T00:00:00.000Z');
  });

  it('memoryRecorder too; the date is the epoch given plus the reading the run starts at', async () => {
    const traces = [];
    for (let i = 0; i < 2; i++) {
      const recorder = memoryRecorder('m');
      await runAgentLoop(options(recorder, new VirtualClock(90_000, '2026-05-01')));
      traces.push(recorder.trace());
    }
    expect(traces[1]).toEqual(traces[0]);
    expect(traces[0]!.header.recordedAt).toBe('2026-05-01T00:01:30.000Z');
  });

  it("a replay of it reads dated prices at the clock's day, not the real one", async () => {
    const recorder = memoryRecorder();
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-08-01T12:00:00.000Z'));
    await runAgentLoop({ ...options(recorder, new VirtualClock(0, '2025-03-15T08:00:00Z')), model: new ScriptedModel([answer('done')], 'gpt-4o-mini'), pricing: { ...MINI, requested: 'gpt-4o-mini' } });
    vi.useRealTimers();
    const pricing = resolveTracePricing(recorder.trace(), { prices: loadPriceTable() });
    expect([pricing.source.dating, pricing.source.asOf]).toEqual(['recorded', '2025-03-15']);
  });

  it('the wall clock tells no dates: a run on it is dated the real day, as before', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-03-01T10:00:00.000Z'));
    const recorder = memoryRecorder();
    await runAgentLoop(options(recorder));
    expect(recorder.trace().header.recordedAt).toBe('2026-03-01T10:00:00.000Z');
  });

  it('a recorder that does not date its recordings is given the date and may leave it out', async () => {
    const seen: [TraceHeader, string | null | undefined][] = [];
    await runAgentLoop(options({ header: (header, clockDate) => void seen.push([header, clockDate]), call() {}, end() {} }, new VirtualClock(0, '2026-05-01')));
    expect(seen.map(([header, date]) => [header.recordedAt, date])).toEqual([[undefined, '2026-05-01T00:00:00.000Z']]);
  });

  it('a clock whose dateOf gives no date, or is no function, and an epoch that is no date, are refused, naming them', async () => {
    const clock = (dateOf: unknown) => Object.assign(new VirtualClock(), { dateOf });
    const thrown = await runAgentLoop(options(memoryRecorder(), clock(() => 'soon'))).catch((error: unknown) => error);
    expect(thrown).toBeInstanceOf(LoopValueError);
    expect(thrown).toMatchObject({ source: 'clock', field: 'clock.dateOf()', value: 'soon' });
    const refused = await asyncUserErrorOf(() => runAgentLoop(options(memoryRecorder(), clock(42))));
    expect(refused.issues.map((issue) => issue.field)).toEqual(['clock.dateOf']);
    expect(() => new VirtualClock(0, 'someday')).toThrow(/new VirtualClock\(0, "someday"\): the epoch is the date the clock reads 0 at/);
  });

  it('a dateOf that gives another form of a date is recorded as an ISO date, UTC', async () => {
    const recorder = memoryRecorder();
    await runAgentLoop(options(recorder, Object.assign(new VirtualClock(), { dateOf: () => '2026-05-01T09:00:00+02:00' })));
    expect(recorder.trace().header.recordedAt).toBe('2026-05-01T07:00:00.000Z');
  });
});
