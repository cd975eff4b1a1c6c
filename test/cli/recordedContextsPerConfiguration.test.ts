/**
 * What sweep, calibrate and project say of real-loop recordings that state the context their loop ran under
 * (header `context` {spec, toolResultCap}), by the one rule replay goes by (replay/recordedStrategy.ts): a
 * recording replays as it ran under full context or its own stated strategy (its tool-result cap with it),
 * else it is rebuilt to full history. Review findings: sweep said `recorded_strategy_rebuilt` by a second,
 * inexact copy of the rule (spec strings, "has a cap": a window:1 recording with a cap rebuilt under window:1
 * silently, one with the configuration's very cap said rebuilt); and `open_loop` was said of runs replayed
 * under their own strategy (no context changed them). Sweep's facts travel from worker threads: one thread
 * and two say the same, byte for byte.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { joinRunHeaderFacts, runHeaderFactsOf, type RunHeaderFactsPart } from '../../src/cli/actions/sweepHeaderFacts.js';
import type { ContextStrategy } from '../../src/context/strategy.js';
import { Rng } from '../../src/synthetic/random.js';
import type { Trace } from '../../src/trace/types.js';
import { cli, tempDir } from './run.js';

const CALLS = [
  { type: 'call', inputTokens: 22, outputTokens: 5, toolCalls: [{ name: 't', arguments: { i: 1 }, resultTokens: 40 }] },
  { type: 'call', inputTokens: 70, outputTokens: 5, toolCalls: [{ name: 't', arguments: { i: 2 }, resultTokens: 30 }] },
  { type: 'call', inputTokens: 110, outputTokens: 5, final: true },
  { type: 'end', outcome: 'completed' },
];

/** A live recording `name` in `dir`, stating `context` as the strategy its loop ran under (none: full history), of a session tree's `agent` when given. */
function recording(dir: string, name: string, context: { spec: string; toolResultCap?: number } | undefined, agent?: object): string {
  const header = { type: 'header', schema: 'loopcost.trace/1', model: 'gpt-4o-mini', systemTokens: 4, goalTokens: 7, origin: 'recorded', live: true, ...(context === undefined ? {} : { context }), ...(agent === undefined ? {} : { agent }) };
  const file = join(dir, name);
  writeFileSync(file, [header, ...CALLS].map((line) => JSON.stringify(line)).join('\n') + '\n');
  return file;
}

type Warning = { code: string; message: string };

/** The command's JSON report (exit 0 asserted). */
async function report(argv: readonly string[]): Promise<{ stdout: string; warnings: Warning[] }> {
  const r = await cli(...argv, '--format', 'json');
  expect(r.code, `${argv.join(' ')}: ${r.stderr}`).toBe(0);
  return { stdout: r.stdout, warnings: (JSON.parse(r.stdout).warnings ?? []) as Warning[] };
}

/** A sweep's warnings of `code`, on one thread and two: the two reports byte-identical. */
async function sweepSays(code: string, files: readonly string[], ...args: string[]): Promise<string[]> {
  const one = await report(['sweep', ...files, ...args, '--workers', '1']);
  const two = await report(['sweep', ...files, ...args, '--workers', '2']);
  expect(two.stdout, `sweep ${args.join(' ')}: --workers 2 as --workers 1`).toBe(one.stdout);
  return one.warnings.filter((w) => w.code === code).map((w) => w.message);
}

const GRID = ['--grid', 'max-steps=10,20'];

describe('recorded_strategy_rebuilt in a sweep: the rule replay goes by, the tool-result cap with it', () => {
  it('a window:1 recording with a tool-result cap is rebuilt under window:1 without one: said, as replay says it', async () => {
    const dir = tempDir();
    const files = ['a', 'b', 'c'].map((name) => recording(dir, `${name}.jsonl`, { spec: 'window:1', toolResultCap: 9 }));
    const replay = (await report(['replay', ...files, '--context', 'window:1'])).warnings.filter((w) => w.code === 'recorded_strategy_rebuilt').map((w) => w.message);
    expect(replay).toEqual([expect.stringContaining('3 runs recorded by the real loop under a context strategy their recordings state (window:1 ×3) are rebuilt to full history')]);
    expect(await sweepSays('recorded_strategy_rebuilt', files, ...GRID, '--context', 'window:1')).toEqual(replay);
    // Rebuilt, so the context changes their cost: open loop on every run.
    expect(await sweepSays('open_loop', files, ...GRID, '--context', 'window:1')).toEqual([expect.stringContaining('on 3 recorded runs changes cost only')]);
  });

  it('with the configuration’s very cap it replays as it ran: not said rebuilt, nor open loop', async () => {
    const dir = tempDir();
    const files = ['a', 'b', 'c'].map((name) => recording(dir, `${name}.jsonl`, { spec: 'window:1', toolResultCap: 9 }));
    const own = ['--context', 'window:1', '--tool-result-cap', '9'];
    expect((await report(['replay', ...files, ...own])).warnings.map((w) => w.code)).not.toContain('recorded_strategy_rebuilt');
    expect(await sweepSays('recorded_strategy_rebuilt', files, ...GRID, ...own)).toEqual([]);
    expect(await sweepSays('open_loop', files, ...GRID, ...own)).toEqual([]);
    // A grid of caps: the other cap rebuilds every run; its own does not.
    expect(await sweepSays('recorded_strategy_rebuilt', files, '--grid', 'tool-result-cap=9,12', '--context', 'window:1')).toEqual([expect.stringContaining('3 runs recorded by the real loop under a context strategy their recordings state (window:1 ×3) are rebuilt')]);
  });
});

describe('open_loop is not said of runs replayed under their own stated strategy', () => {
  it('sweep, calibrate and project: none under window:8 of window:8 recordings, said under window:4', async () => {
    const dir = tempDir();
    const files = ['a', 'b', 'c'].map((name) => recording(dir, `${name}.jsonl`, { spec: 'window:8' }));
    expect(await sweepSays('open_loop', files, ...GRID, '--context', 'window:8')).toEqual([]);
    expect(await sweepSays('open_loop', files, '--grid', 'context=full,window:8')).toEqual([]);
    expect(await sweepSays('open_loop', files, ...GRID, '--context', 'window:4')).toEqual([expect.stringMatching(/^context window:4 on 3 recorded runs changes cost only/)]);
    expect(await sweepSays('open_loop', files, '--grid', 'context=window:4,window:8')).toEqual([expect.stringMatching(/^context as swept on 3 recorded runs changes cost only/)]);
    const openLoop = async (...argv: string[]) => (await report(argv)).warnings.filter((w) => w.code === 'open_loop').map((w) => w.message);
    for (const command of [['calibrate', ...files, '--grid', 'max-repeat=2,3'], ['project', ...files, '--runs-per-day', '10']]) {
      expect(await openLoop(...command, '--context', 'window:8'), command[0]).toEqual([]);
      expect(await openLoop(...command, '--context', 'window:4'), command[0]).toEqual([expect.stringMatching(/^context window:4 on 3 recorded runs changes cost only/)]);
    }
  });

  it('mixed: only the runs the context changes are counted, as replay counts them', async () => {
    const dir = tempDir();
    const files = [recording(dir, 'a.jsonl', { spec: 'window:8' }), recording(dir, 'b.jsonl', undefined), recording(dir, 'c.jsonl', { spec: 'window:8' }), recording(dir, 'd.jsonl', { spec: 'mask:2' })];
    const replay = (await report(['replay', ...files, '--context', 'window:8'])).warnings.filter((w) => w.code === 'open_loop').map((w) => w.message);
    expect(replay).toEqual([expect.stringMatching(/^context window:8 on 2 recorded runs changes cost only/)]);
    expect(await sweepSays('open_loop', files, ...GRID, '--context', 'window:8')).toEqual(replay);
    expect((await report(['project', ...files, '--runs-per-day', '10', '--context', 'window:8'])).warnings.filter((w) => w.code === 'open_loop').map((w) => w.message)).toEqual(replay);
    expect((await report(['calibrate', ...files, '--grid', 'max-repeat=2,3', '--context', 'window:8'])).warnings.filter((w) => w.code === 'open_loop').map((w) => w.message)).toEqual(replay);
    // Swept with window:4 too, every run is changed under some configuration.
    expect(await sweepSays('open_loop', files, '--grid', 'context=window:4,window:8')).toEqual([expect.stringMatching(/^context as swept on 4 recorded runs/)]);
  });

  it('sweep --tree counts trees: a tree all of whose runs replay as they ran under their own strategy is not counted', async () => {
    const dir = tempDir();
    const files = [
      recording(dir, 'main.jsonl', { spec: 'window:8' }, { sessionId: 's1', agentId: 'main', kind: 'main' }),
      recording(dir, 'sub.jsonl', { spec: 'window:8' }, { sessionId: 's1', agentId: 'sub1', kind: 'subagent', parentAgentId: 'main' }),
      recording(dir, 'lone.jsonl', undefined),
    ];
    const said = async (...args: string[]) => (await report(['sweep', '--tree', ...files, ...GRID, ...args])).warnings.filter((w) => w.code === 'open_loop').map((w) => w.message);
    expect(await said('--context', 'window:8')).toEqual([expect.stringMatching(/^context window:8 on 1 recorded run changes cost only/)]);
    expect(await said('--context', 'window:4')).toEqual([expect.stringMatching(/^context window:4 on 2 recorded runs changes cost only/)]);
  });
});

describe('the facts travel from threads: counted apart, joined, as one tally of every run', () => {
  const run = (source: string, context?: { spec: string; toolResultCap?: number }) => ({ source, header: { model: 'gpt-4o-mini', ...(context === undefined ? {} : { context }) }, calls: [] }) as unknown as Trace;
  const RUNS = [run('a'), run('b', { spec: 'window:1', toolResultCap: 9 }), run('c', { spec: 'window:8' }), run('d', { spec: 'window:1' }), run('e', { spec: 'window:8' }), run('f')];
  const window = (windowSteps: number, toolResultCap?: number): ContextStrategy => ({ kind: 'window', windowSteps, ...(toolResultCap === undefined ? {} : { toolResultCap }) });

  it('rebuilt and own-strategy runs by the rule replay goes by, under every configuration', () => {
    // window:1 without a cap rebuilds the capped recording (b) and both window:8 ones; window:1 is d's own.
    expect(runHeaderFactsOf(RUNS, [window(1)])).toMatchObject({ rebuiltStrategies: [['window:1', 1], ['window:8', 2]], ownStrategyRuns: 1 });
    // Its very cap: b replays as it ran; d (no cap) is rebuilt.
    expect(runHeaderFactsOf(RUNS, [window(1, 9)])).toMatchObject({ rebuiltStrategies: [['window:1', 1], ['window:8', 2]], ownStrategyRuns: 1 });
    // Full context and window:8: every stated run replays as it ran under full, c and e under their own; b and d are rebuilt under window:8.
    const facts = runHeaderFactsOf(RUNS, [{ kind: 'full' }, window(8), { kind: 'full', cache: 'on' }]);
    expect(facts).toMatchObject({ rebuiltStrategies: [['window:1', 2]], ownStrategyRuns: 2 });
    // Full context alone: none rebuilt, none under its own strategy (no context other than full: no open loop to spare).
    expect(runHeaderFactsOf(RUNS, [{ kind: 'full' }])).not.toHaveProperty('rebuiltStrategies');
    expect(runHeaderFactsOf(RUNS, [{ kind: 'full' }])).not.toHaveProperty('ownStrategyRuns');
  });

  it('parts of any split, joined in any order, give the one tally (seeded splits)', () => {
    const contexts = [{ kind: 'full' } as ContextStrategy, window(8), window(1, 9)];
    const whole = runHeaderFactsOf(RUNS, contexts);
    expect(whole).toMatchObject({ rebuiltStrategies: [['window:1', 2], ['window:8', 2]] });
    const rng = new Rng(11);
    for (let trial = 0; trial < 30; trial++) {
      const parts: RunHeaderFactsPart[] = [];
      for (let from = 0; from < RUNS.length; ) {
        const to = Math.min(RUNS.length, from + 1 + Math.floor(rng.next() * 3));
        parts.push({ order: from, facts: runHeaderFactsOf(RUNS.slice(from, to), contexts) });
        from = to;
      }
      parts.reverse();
      expect(joinRunHeaderFacts(parts)).toEqual(whole);
    }
  });
});
