/**
 * `--cache on` serves every unchanged prefix however long ago it was sent, while providers expire their cache
 * after ~5 minutes idle (an hour for 1-hour writes): a run whose tool calls take 20 minutes reported the same
 * cached tokens and cost as one without gaps, with nothing said. replay, whatif, sweep (and contexts, tree,
 * calibrate through the same code) now say how many calls came more than the cache's lifetime after the call
 * before, by the run's clock (recorded latencies, else the latency model's): `cache_idle`.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { compileTrace } from '../../src/fast/compile.js';
import { idleCallsOf, idleCallsOfCompiled, recordedCallsMade } from '../../src/report/cacheIdleWarning.js';
import { trace } from '../helpers.js';
import type { CallRecord } from '../../src/trace/types.js';
import { cli, tempDir } from './run.js';

const MINUTE_MS = 60_000;
/** A summary strategy that makes a summary call before each call past the first (gpt-4o's prompts here pass 1,000 tokens after one step). */
const SUMMARY = 'summary:trigger=1000,keep=1,tokens=50';
/** `whole`: counted over the whole recordings (whatif's, sweep's: several settings), not the calls replay's one setting made. */
const MESSAGE = (calls: number, runs: number, whole = false) =>
  `${calls} call${calls === 1 ? '' : 's'} (in ${runs} run${runs === 1 ? '' : 's'}) came more than 5 minutes after the call before${whole ? ' (counted over the whole recordings: a setting that stops a run sooner reaches fewer of them)' : ''}: their cache reads assume the cache still held; providers expire it after ~5 minutes idle (an hour for 1-hour writes), so the cost shown may be low`;

/** A call of 2 s whose one tool call takes `toolMs` (undefined: not recorded). */
function slowCall(i: number, toolMs: number | undefined, extra: Partial<CallRecord> = {}): CallRecord {
  return { type: 'call', outputTokens: 100, latencyMs: 2000, toolCalls: [{ name: 'sh', arguments: { i }, resultTokens: 800, ...(toolMs === undefined ? {} : { latencyMs: toolMs }) }], ...extra };
}

/** A gpt-4o run of four calls, the tools of the first three taking `toolMs` each. */
function runFile(dir: string, name: string, toolMs: number | undefined, extra: Partial<CallRecord> = {}): string {
  const header = { type: 'header', schema: 'loopcost.trace/1', model: 'gpt-4o', provider: 'openai', systemTokens: 1000, goalTokens: 200, origin: 'recorded' };
  const calls = [0, 1, 2].map((i) => slowCall(i, toolMs, extra));
  const lines = [header, ...calls, { type: 'call', outputTokens: 50, latencyMs: 2000 }, { type: 'end', outcome: 'completed' }];
  const path = join(dir, name);
  writeFileSync(path, lines.map((line) => JSON.stringify(line)).join('\n') + '\n');
  return path;
}

/** The cache_idle warnings of a JSON report. */
async function idleWarnings(...argv: string[]): Promise<{ code: string; message: string }[]> {
  const r = await cli(...argv, '--format', 'json');
  expect(r.code, r.stderr).toBe(0);
  return (JSON.parse(r.stdout).warnings as { code: string; message: string }[]).filter((w) => w.code === 'cache_idle');
}

describe('idleCallsOf: calls that start more than the cache lifetime after the call before', () => {
  it('counts the gaps past 5 minutes (the call before and its tools), an hour for a run that writes for an hour, the latency model where not recorded', () => {
    const calls = [slowCall(0, 5 * MINUTE_MS - 2000), slowCall(1, 5 * MINUTE_MS - 1999), slowCall(2, 20 * MINUTE_MS), slowCall(3, 0)];
    // 2 s + 4:58 is 5 minutes exactly: not past it; a millisecond more is.
    expect(idleCallsOf({ calls })).toBe(2);
    const hourly = calls.map((c) => ({ ...c, cacheWriteTokens: 0, cacheWrite1hTokens: 100 }));
    expect(idleCallsOf({ calls: hourly })).toBe(0);
    expect(idleCallsOf({ calls: [slowCall(0, 61 * MINUTE_MS, { cacheWrite1hTokens: 100 }), slowCall(1, 0)] })).toBe(1);
    const unrecorded = [slowCall(0, undefined), slowCall(1, undefined), slowCall(2, undefined)];
    expect(idleCallsOf({ calls: unrecorded })).toBe(0);
    expect(idleCallsOf({ calls: unrecorded }, { latency: { perCallMs: 0, perInputTokenMs: 0, perOutputTokenMs: 0, perToolCallMs: 6 * MINUTE_MS } })).toBe(2);
  });

  it('counts only the calls the replay made: a gap before a call never made, or an hour write after the stop, counts for nothing', () => {
    const calls = [slowCall(0, 0), slowCall(1, 20 * MINUTE_MS), slowCall(2, 0), slowCall(3, 0, { cacheWrite1hTokens: 100 })];
    // The whole run writes for an hour (its last call): no gap of 20 minutes is past an hour.
    expect(idleCallsOf({ calls })).toBe(0);
    // Stopped before its last call: its writes last five minutes, and the gap before call 2 is idle.
    expect(idleCallsOf({ calls }, { callsMade: 3 })).toBe(1);
    // Stopped before call 2: the gap before it was never waited.
    expect(idleCallsOf({ calls }, { callsMade: 2 })).toBe(0);
    expect(idleCallsOf({ calls }, { callsMade: 0 })).toBe(0);
  });

  it("the recording's calls a replay made: its model calls but the strategy's summary calls, unless those were the recording's", () => {
    expect(recordedCallsMade({ modelCalls: 5, summaryCalls: 2, recordedCalls: 9 }, false)).toBe(3);
    expect(recordedCallsMade({ modelCalls: 5, recordedCalls: 9 }, false)).toBe(5);
    expect(recordedCallsMade({ modelCalls: 5, summaryCalls: 2, recordedCalls: 9 }, true)).toBe(5);
    expect(recordedCallsMade({ modelCalls: 5, recordedCalls: 4 }, false)).toBe(4);
  });

  it("a compiled trace's count (a sweep's, whose calls are let go) is the trace's, on seeded random runs", () => {
    const callArb = fc.record({
      latencyMs: fc.option(fc.integer({ min: 0, max: 8 * MINUTE_MS }), { nil: undefined }),
      tools: fc.array(fc.option(fc.integer({ min: 0, max: 4 * MINUTE_MS }), { nil: undefined }), { maxLength: 3 }),
      write: fc.integer({ min: 0, max: 50 }),
      write1h: fc.integer({ min: 0, max: 50 }),
    });
    let idle = 0;
    fc.assert(
      fc.property(fc.array(callArb, { minLength: 1, maxLength: 12 }), fc.integer({ min: 0, max: 3 }), (shapes, hourEvery) => {
        const calls: CallRecord[] = shapes.map((c, i) => ({
          type: 'call',
          outputTokens: 10,
          ...(c.latencyMs === undefined ? {} : { latencyMs: c.latencyMs }),
          toolCalls: c.tools.map((ms, k) => ({ name: 't', arguments: { i, k }, resultTokens: 5, ...(ms === undefined ? {} : { latencyMs: ms }) })),
          inputTokens: 200,
          cacheWriteTokens: c.write,
          cacheWrite1hTokens: hourEvery === 0 ? c.write1h : 0,
        }));
        const t = trace(calls, { origin: 'recorded' });
        const count = idleCallsOf(t);
        expect(idleCallsOfCompiled(compileTrace(t))).toBe(count);
        idle += count;
      }),
      { numRuns: 300, seed: 3303 },
    );
    expect(idle).toBeGreaterThan(50);
  });
});

describe('cache_idle: replay, whatif and sweep with the cache on', () => {
  const dir = tempDir();
  const slow = runFile(dir, 'slow.jsonl', 20 * MINUTE_MS);
  const quick = runFile(dir, 'quick.jsonl', 60_000);

  it('replay says it with the cache on (3 calls in 1 run), not as recorded, not for a run without gaps', async () => {
    expect(await idleWarnings('replay', slow, quick, '--cache', 'on')).toEqual([{ code: 'cache_idle', message: MESSAGE(3, 1) }]);
    expect(await idleWarnings('replay', slow, quick)).toEqual([]);
    expect(await idleWarnings('replay', quick, '--cache', 'on')).toEqual([]);
    // The latency model is the run's clock where nothing was recorded: a tool of 6 minutes.
    const unrecorded = runFile(dir, 'unrecorded.jsonl', undefined);
    expect(await idleWarnings('replay', unrecorded, '--cache', 'on', '--latency-model', 'tool=360000')).toEqual([{ code: 'cache_idle', message: MESSAGE(3, 1) }]);
  });

  it("replay counts only the calls the run made: a gap after the step cap's stop is never waited", async () => {
    // Calls 0 and 1 quick, call 2's tool 20 minutes, then the answer: the one idle gap is before the answer.
    const late = join(dir, 'late.jsonl');
    const lines = readFileSync(quick, 'utf8').trim().split('\n');
    const third = JSON.parse(lines[3]!) as CallRecord;
    third.toolCalls![0]!.latencyMs = 20 * MINUTE_MS;
    writeFileSync(late, [...lines.slice(0, 3), JSON.stringify(third), ...lines.slice(4)].join('\n') + '\n');
    expect(await idleWarnings('replay', late, '--cache', 'on')).toEqual([{ code: 'cache_idle', message: MESSAGE(1, 1) }]);
    expect(await idleWarnings('replay', late, '--cache', 'on', '--max-steps', '4')).toEqual([{ code: 'cache_idle', message: MESSAGE(1, 1) }]);
    // Three steps: the run stops after call 2's tool, before the answer, so no call came after the gap.
    expect(await idleWarnings('replay', late, '--cache', 'on', '--max-steps', '3')).toEqual([]);
    // A summary strategy's calls are no calls of the recording: with them the run still stops before the gap.
    expect(await idleWarnings('replay', late, '--cache', 'on', '--max-steps', '3', '--context', SUMMARY)).toEqual([]);
    expect(await idleWarnings('replay', late, '--cache', 'on', '--context', SUMMARY)).toEqual([{ code: 'cache_idle', message: MESSAGE(1, 1) }]);
  });

  it('whatif and sweep say the same line, counted over the whole recordings (a try of max-steps=2 reaches none of the 3)', async () => {
    expect(await idleWarnings('whatif', slow, slow.replace('slow', 'quick'), '--cache', 'on', '--try', 'max-steps=2')).toEqual([{ code: 'cache_idle', message: MESSAGE(3, 1, true) }]);
    expect(await idleWarnings('sweep', slow, quick, '--cache', 'on', '--grid', 'max-steps=2,5')).toEqual([{ code: 'cache_idle', message: MESSAGE(3, 1, true) }]);
    expect(await idleWarnings('sweep', slow, quick, '--grid', 'max-steps=2,5')).toEqual([]);
    // Counted on two threads and joined: what they were counted over travels with the counts.
    const slower = runFile(dir, 'slower.jsonl', 30 * MINUTE_MS);
    expect(await idleWarnings('sweep', slow, quick, slower, '--cache', 'on', '--grid', 'max-steps=2,5', '--workers', '2')).toEqual([{ code: 'cache_idle', message: MESSAGE(6, 2, true) }]);
  });
});
