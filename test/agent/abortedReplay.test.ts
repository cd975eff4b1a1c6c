/**
 * A real run its AbortSignal stopped asked for no call after that (the loop checks the signal before
 * anything else before a call): no brake was checked, whatever was due. Its recording — the end record the
 * loop writes for an abort, outcome `unknown` with status `stopped by its AbortSignal after N steps` —
 * replayed with the run's brakes or any others ends there too, in trace_end with that status, in every
 * engine (the readable loop, the compiled replay call by call and through a run table, a strategy that
 * rewrites history, a sweep, a warm compiled-trace cache): kernel/gaveUp.ts. A recording cut off there (its
 * process killed: no end record, also `unknown`) says nothing of what came next, and still meets the brakes.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/agent/clock.js';
import { ModelCallError } from '../../src/agent/types.js';
import { NO_BRAKES, type BrakeConfig } from '../../src/brakes/config.js';
import { layoutShape } from '../../src/cache/compiledCache.js';
import type { ContextStrategy } from '../../src/context/strategy.js';
import { loadTraceFile } from '../../src/import/index.js';
import { handedOverCompiled } from '../../src/replay/compiledRuns.js';
import { replayTrace } from '../../src/replay/replay.js';
import { recordedBrakes } from '../../src/replay/whatif.js';
import { pricings } from '../core/arbitraries.js';
import { handTable } from '../helpers.js';
import { everywhere, stopsInEveryEngine, stopsInStepCapSweep } from './everyEngine.js';
import { readTool } from './realLoopRuns.js';
import { modelByCall, readWarm, recordRun } from './recordedRuns.js';

const pricing = pricings[0]!;

/** Where the run is aborted: by its first call's tool (after 1 step), or in the wait before retrying its second call, which failed (after 2 steps). */
type AbortAt = 'tool' | 'retry wait';

/** The real run under `brakes`, aborted as `at` says (after `readsBefore` steps calling `read`), recorded; and its recording as read back. */
async function abortedRun(brakes: BrakeConfig, at: AbortAt, readsBefore = 0) {
  const clock = new VirtualClock();
  const controller = new AbortController();
  const model = modelByCall(pricing.model, clock, 1500, (n) => {
    if (n <= readsBefore + 1) return { text: null, toolCalls: [{ id: `call_${n}`, name: at === 'tool' && n > readsBefore ? 'halt' : 'read', arguments: '{}' }], usage: { inputTokens: 40, outputTokens: 30 } };
    if (n === readsBefore + 2) throw new ModelCallError('busy', { status: 503, retryable: true });
    return { text: 'done', toolCalls: [], usage: { inputTokens: 90, outputTokens: 5 } };
  });
  const retry = { maxRetries: 2, backoffMs: () => (controller.abort(), 0) };
  return recordRun({ model, tools: [readTool], brakes, pricing, clock, controller, retry });
}

describe('a real run its AbortSignal stopped replays to where it was aborted', () => {
  it.each<[AbortAt, BrakeConfig, number]>([
    // Aborted by its first call's tool: 1 step taken (its cap of 1 due), 3 s passed (its timeout of 2 s due).
    ['tool', { ...NO_BRAKES, maxSteps: 1, timeoutMs: 2000 }, 1],
    // Aborted in the wait before retrying its failed second call: 2 steps taken (its cap of 2 due).
    ['retry wait', { ...NO_BRAKES, maxSteps: 2 }, 2],
  ])('aborted in its %s, under brakes due right then: trace_end in every engine, as the run said', async (at, brakes, steps) => {
    const { real, recording } = await abortedRun(brakes, at);
    const detail = `stopped by its AbortSignal after ${steps} step${steps === 1 ? '' : 's'}`;
    expect([real.stop.reason, real.stop.detail, real.steps]).toEqual(['aborted', detail, steps]);
    expect(recording.end).toEqual({ type: 'end', outcome: 'unknown', status: detail, aborted: true, recordedCostUsd: expect.any(Number) });
    expect(recordedBrakes(recording)).toEqual(brakes);
    // Before the fix every engine named the brake due before a call the run never asked for.
    expect(stopsInEveryEngine(recording, brakes)).toEqual(everywhere('trace_end', detail));
    expect(stopsInEveryEngine(recording, { ...NO_BRAKES, timeoutMs: 1000 * steps })).toEqual(everywhere('trace_end', detail));
    // A strategy that rewrites history (call by call in the compiled replay): no summary call after the abort either.
    const summary: ContextStrategy = { kind: 'summary', summary: { triggerTokens: 1, keepSteps: 1, summaryTokens: 10 } };
    expect(stopsInEveryEngine(recording, brakes, summary)).toEqual(everywhere('trace_end', detail));
    expect(replayTrace(recording, { brakes, strategy: summary, pricing, prices: handTable(pricing) }).steps).toBe(steps);
    // Two steps calling `read` first (the step cap due at the abort again): a summary call before each call past the second (keep=1), none after the abort.
    const longerBrakes: BrakeConfig = { ...NO_BRAKES, maxSteps: steps + 2 };
    const longer = (await abortedRun(longerBrakes, at, 2)).recording;
    const longerDetail = `stopped by its AbortSignal after ${steps + 2} steps`;
    expect(longer.end).toEqual({ type: 'end', outcome: 'unknown', status: longerDetail, aborted: true, recordedCostUsd: expect.any(Number) });
    expect(stopsInEveryEngine(longer, longerBrakes, summary)).toEqual(everywhere('trace_end', longerDetail));
    const summarised = replayTrace(longer, { brakes: longerBrakes, strategy: summary, pricing, prices: handTable(pricing) });
    expect(summarised.steps).toBe(steps + 2);
    expect(summarised.summaryCalls).toBe(steps);
    const result = replayTrace(recording, { brakes, strategy: { kind: 'full' }, pricing, prices: handTable(pricing) });
    expect([result.steps, result.costPico]).toEqual([real.steps, real.costPico]);
  });

  it('a sweep of step caps: a cap the run reached only where it was aborted stops it nowhere', async () => {
    const { recording } = await abortedRun({ ...NO_BRAKES }, 'retry wait');
    expect(stopsInStepCapSweep(recording)).toEqual(['max_steps', 'trace_end', 'trace_end', 'trace_end']);
  });

  it('served from the compiled-trace cache (its layout names endsAfterLastCall), a warm replay ends where the run was aborted', async () => {
    expect(layoutShape()).toMatch(/endsAfterLastCall:boolean/);
    const brakes: BrakeConfig = { ...NO_BRAKES, maxSteps: 1 };
    const warm = await readWarm((await abortedRun(brakes, 'tool')).path);
    expect(handedOverCompiled(warm)?.endsAfterLastCall).toBe(true);
    const result = replayTrace(warm, { brakes, strategy: { kind: 'full' }, pricing, prices: handTable(pricing) });
    expect([result.stopReason, result.stopDetail, result.steps]).toEqual(['trace_end', 'stopped by its AbortSignal after 1 step', 1]);
  });

  it('not an abort: the recording cut off there (no end record), an end record whose step count is not its calls’, no `live` header — the brakes due still stop it', async () => {
    const brakes: BrakeConfig = { ...NO_BRAKES, maxSteps: 1 };
    const { recording, path } = await abortedRun(brakes, 'tool');
    const lines = readFileSync(path, 'utf8').trimEnd().split('\n');
    writeFileSync(path, `${lines.slice(0, -1).join('\n')}\n`);
    const [cutOff] = await loadTraceFile(path);
    expect(cutOff!.end).toEqual({ type: 'end', outcome: 'unknown', status: 'live recording cut off before its end record' });
    const braked = everywhere('max_steps', '1 step taken, limit 1');
    expect(stopsInEveryEngine(cutOff!, brakes)).toEqual(braked);
    // An end record without the `aborted` mark (written before it existed) is an abort only by its words and step count.
    const { aborted: _aborted, ...unmarked } = recording.end;
    expect(stopsInEveryEngine({ ...recording, end: { ...unmarked, status: 'stopped by its AbortSignal after 2 steps' } }, brakes)).toEqual(braked);
    const { live: _live, ...header } = recording.header;
    expect(stopsInEveryEngine({ ...recording, header }, brakes)).toEqual(braked);
  });
});
