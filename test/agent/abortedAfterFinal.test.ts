/**
 * A recording written before 2026-12-05 of a run aborted after the last tool call of a call marked `final`
 * (test/fixtures/aborted-after-final): the recorder then kept the mark, beside the end record's abort (the
 * real loop now leaves it out: agent/loop.ts runTools). The mark completed nothing — the run was aborted
 * before that step ended — so every engine replays such a recording to its abort (trace_end with the run's
 * detail; an abort is never a replay's stop), as it replays the same recording written today: the readable
 * loop, the compiled replay (call by call, through a run table, a warm compiled-trace cache), a sweep, the
 * `replay`, `whatif` and `sweep` commands, and the session-tree replay (`replayTree`, `replay --tree`); the
 * real loop driven by it (traceModel) is aborted there. Before the fix each said `completed`.
 */
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { NO_BRAKES } from '../../src/brakes/config.js';
import { FULL_HISTORY } from '../../src/context/strategy.js';
import { loadTraceFile } from '../../src/import/index.js';
import { replayTrace } from '../../src/replay/replay.js';
import { recordedBrakes } from '../../src/replay/whatif.js';
import type { Trace } from '../../src/trace/types.js';
import { replayTree } from '../../src/tree/replayTree.js';
import { cli, tempDir } from '../cli/run.js';
import { pricings } from '../core/arbitraries.js';
import { handTable } from '../helpers.js';
import { everywhere, stopsInEveryEngine, stopsInStepCapSweep } from './everyEngine.js';
import { readWarm } from './recordedRuns.js';
import { figures, replayFigures, runTraceDriven } from './traceDriven.js';

const FIXTURES = 'test/fixtures/aborted-after-final';
const LONE = `${FIXTURES}/lone.jsonl`;
const DETAIL = 'stopped by its AbortSignal after 2 steps';
const pricing = pricings[0]!;

const loaded = async (path: string): Promise<Trace> => (await loadTraceFile(path))[0]!;
/** The same recording as the recorder writes it today: no final mark on the call the run was aborted after. */
const asWrittenToday = (old: Trace): Trace => ({ ...old, calls: old.calls.map(({ final: _final, ...call }) => call) });
const json = async (...argv: string[]) => {
  const { code, stdout, stderr } = await cli(...argv, '--format', 'json');
  expect([code, stderr]).toEqual([0, '']);
  return JSON.parse(stdout);
};

describe('an old recording of a run aborted after a final call’s last tool call replays aborted, not completed', () => {
  it('the fixture is such a recording: the last call marked final, all its tool calls run, the end marked aborted', async () => {
    const old = await loaded(LONE);
    expect(old.header).toMatchObject({ live: true, recordedAt: '2026-12-04T18:00:00.000Z' });
    expect(old.calls.at(-1)).toMatchObject({ final: true, toolCalls: [{ name: 'read' }, { name: 'halt' }] });
    expect(old.calls.at(-1)!.toolCalls!.some((tool) => tool.unreached)).toBe(false);
    expect(old.end).toEqual({ type: 'end', outcome: 'unknown', status: DETAIL, aborted: true });
  });

  it('in every engine: trace_end with the run’s detail, under no brakes and under its recorded ones (a step cap of 2, due after it)', async () => {
    const old = await loaded(LONE);
    expect(stopsInEveryEngine(old, NO_BRAKES)).toEqual(everywhere('trace_end', DETAIL));
    expect(stopsInEveryEngine(old, recordedBrakes(old))).toEqual(everywhere('trace_end', DETAIL));
    expect(stopsInStepCapSweep(old)).toEqual(['max_steps', 'trace_end', 'trace_end', 'trace_end']);
    const options = { brakes: NO_BRAKES, strategy: FULL_HISTORY, pricing, prices: handTable(pricing) };
    expect(replayTrace(old, options)).toEqual(replayTrace(asWrittenToday(old), options));
    const warm = join(tempDir(), 'lone.jsonl');
    copyFileSync(LONE, warm);
    const fromCache = replayTrace(await readWarm(warm), options);
    expect([fromCache.stopReason, fromCache.stopDetail, fromCache.steps]).toEqual(['trace_end', DETAIL, 2]);
  });

  it('driven back through the real loop (traceModel): aborted after 2 steps, the replay’s figures', async () => {
    const old = await loaded(LONE);
    const settings = { brakes: recordedBrakes(old), strategy: { kind: 'full' as const, cache: 'recorded' as const }, pricing };
    const driven = figures(await runTraceDriven(old, settings));
    expect([driven.stopReason, driven.stopDetail, driven.steps]).toEqual(['aborted', DETAIL, 2]);
    expect({ ...driven, stopReason: 'trace_end' }).toEqual(replayFigures(old, settings));
  });

  it('the replay, whatif and sweep commands', async () => {
    const replayed = await json('replay', LONE, '--preset', 'recorded');
    expect(replayed.runs.map((run: { stopReason: string; stopDetail: string; steps: number }) => [run.stopReason, run.stopDetail, run.steps])).toEqual([['trace_end', DETAIL, 2]]);
    expect(replayed.summary.completed).toBe(0);
    const whatif = await json('whatif', LONE, '--try', 'max-steps=5');
    expect(whatif.runs.map((run: { baselineStopReason: string; stopReason: string }) => [run.baselineStopReason, run.stopReason])).toEqual([['trace_end', 'trace_end']]);
    const sweep = await json('sweep', LONE, '--grid', 'max-steps=1,2,5');
    expect(sweep.configurations.map((c: { settings: string; stopReasons: Record<string, number> }) => [c.settings, Object.fromEntries(Object.entries(c.stopReasons).filter(([, n]) => n !== 0))])).toEqual([
      ['max-steps=1', { max_steps: 1 }],
      ['max-steps=2', { trace_end: 1 }],
      ['max-steps=5', { trace_end: 1 }],
    ]);
  });

  it('a session tree of such recordings (main and its sub-agent, both marked final): replayTree and `replay --tree` end each agent at its abort', async () => {
    const runs = await Promise.all(['main', 'sub'].map((agent) => loaded(`${FIXTURES}/tree/${agent}.jsonl`)));
    expect(runs.map((run) => [run.calls.at(-1)!.final, run.end.aborted])).toEqual([[true, true], [true, true]]);
    const agentStops = [['main', 'trace_end', 'stopped by its AbortSignal after 1 step'], ['sub', 'trace_end', DETAIL]];
    const tree = replayTree(runs, { brakes: NO_BRAKES, strategy: FULL_HISTORY, prices: handTable({ ...pricing, model: 'gpt-4o-mini' }) });
    expect(tree.agents.map((a) => [a.agentId, a.stop?.reason, a.stop?.detail])).toEqual(agentStops);
    expect(tree.stopReason).toBe('trace_end');
    const cli = await json('replay', '--tree', `${FIXTURES}/tree`);
    expect(cli.trees.map((t: { stopReason: string; stopDetail: string }) => [t.stopReason, t.stopDetail])).toEqual([['trace_end', 'main: stopped by its AbortSignal after 1 step; tree: 3 steps']]);
    expect(cli.trees[0].agents.map((a: { agent: string; stopReason: string; stopDetail: string }) => [a.agent, a.stopReason, a.stopDetail])).toEqual(agentStops);
  });
});
